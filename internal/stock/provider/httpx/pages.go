package httpx

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/labgpu/bot/internal/stock"
)

// Paging says how a paged list is read.
type Paging struct {
	// Max caps the pages read, whatever the list's total says.
	Max int
	// Size is the rows a page asks for.
	Size int
	// Concurrency is how many pages are asked for at once; below 1, one
	// at a time.
	Concurrency int
}

// Paging is the paging of c's lists: at most maxPages pages of size
// rows, c.Concurrency at once.
func (c Client) Paging(maxPages, size int) Paging {
	return Paging{Max: maxPages, Size: size, Concurrency: c.Concurrency}
}

// PageFunc fetches page n (1-based) of a paged machine list and returns
// its offers, how many rows the page had and the list's total (-1 when the
// answer does not say).
type PageFunc func(ctx context.Context, n int) (offers []stock.Offer, rows, total int, err error)

// FetchPages reads pages 1, 2, … of p.Size rows until a page is empty,
// the total is reached, a short page ends a list without a total, or
// p.Max pages were read; the offers keep page order.
//
// Page 1 comes alone. When it gives the total, the pages still needed
// (at most p.Max) are then asked for together, p.Concurrency at a time.
// Without a total, page 2 comes alone and then rounds that double (2,
// 4, … up to p.Concurrency pages), so a list that ends early costs at most one
// round of pages past its end.
//
// The result is what reading the pages one after another would give:
// any failed page fails the whole fetch (a partial list would read as
// sold out) unless an earlier page ended the list, and its error names
// the page; a failed page cancels the requests for the pages after it.
// The list (named by what, "hengyuan: machine list") lists every
// machine, busy ones too, so a first page without rows is an empty
// answer (Empty: unknown, not sold out), and rows of which none is a
// machine are a bad response.
func FetchPages(ctx context.Context, p Paging, what string, page PageFunc) ([]stock.Offer, error) {
	type result struct {
		offers      []stock.Offer
		rows, total int
	}
	var out []stock.Offer
	seen, next, round := 0, 1, 1
	for next <= p.Max {
		last := min(next+round-1, p.Max)
		res, errs := Parallel(ctx, p.Concurrency, last-next+1, func(ctx context.Context, i int) (result, error) {
			offers, rows, total, err := page(ctx, next+i)
			return result{offers, rows, total}, err
		})
		total := -1
		for i, r := range res {
			n := next + i
			if errs[i] != nil {
				return nil, fmt.Errorf("%w (page %d)", errs[i], n)
			}
			out = append(out, r.offers...)
			seen += r.rows
			if r.rows == 0 || r.total >= 0 && n*p.Size >= r.total || r.total < 0 && r.rows < p.Size {
				return pagesResult(out, seen, what)
			}
			total = r.total
		}
		next = last + 1
		if total >= 0 {
			round = (total+p.Size-1)/p.Size - last // the pages still needed
		} else {
			round = min(last, max(p.Concurrency, 1)) // double, up to the bound
		}
	}
	return pagesResult(out, seen, what)
}

// pagesResult judges the offers of seen rows of a whole list.
func pagesResult(out []stock.Offer, seen int, what string) ([]stock.Offer, error) {
	switch {
	case seen == 0:
		return nil, Empty("%s", what)
	case len(out) == 0:
		return nil, BadResponse("%s: none of %d rows names a GPU", what, seen)
	}
	return out, nil
}

// Parallel calls fn(ctx, i) for i = 0 … n-1, at most limit calls at once
// (one at a time below 1), and returns their results and errors by index.
// An error of call i cancels the calls after i, whose results a caller
// reading them in order never reaches, and not those before it; a call
// after i that has not started yet is not made and gets
// context.Canceled. Cancelling ctx cancels every call.
func Parallel[T any](ctx context.Context, limit, n int, fn func(ctx context.Context, i int) (T, error)) ([]T, []error) {
	res, errs := make([]T, n), make([]error, n)
	ctxs, cancels := make([]context.Context, n), make([]context.CancelFunc, n)
	for i := range n {
		ctxs[i], cancels[i] = context.WithCancel(ctx)
	}
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	var mu sync.Mutex
	failed := n // the first failed call so far
	var g errgroup.Group
	g.SetLimit(max(limit, 1))
	for i := range n {
		g.Go(func() error {
			mu.Lock()
			skip := i > failed
			mu.Unlock()
			if skip {
				errs[i] = context.Canceled
				return nil
			}
			if res[i], errs[i] = fn(ctxs[i], i); errs[i] != nil {
				mu.Lock()
				if i < failed {
					failed = i
					for _, c := range cancels[i+1:] {
						c()
					}
				}
				mu.Unlock()
			}
			return nil
		})
	}
	_ = g.Wait() // every call returns nil; errors are in errs
	return res, errs
}
