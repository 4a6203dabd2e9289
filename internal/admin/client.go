package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"syscall"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
)

// Client reaches a running bot's admin listener. It is a store too: each
// store method is one request to the bot, which runs it on its own store.
type Client struct {
	base  string
	token string
	hc    *http.Client
	// Info is what the bot said about itself.
	Info Info
}

// DialOptions say where the bot listens and which store the caller means.
type DialOptions struct {
	Addr, Token string
	// DataDir is the embedded store's directory the caller means; the
	// bot answering must keep its store there.
	DataDir string
}

// callTimeout bounds one store call.
const callTimeout = time.Minute

// Dial reaches the bot at o.Addr with o.Token and checks that it holds
// the store in o.DataDir. Errors: ErrNoToken, ErrNoListener, ErrRefused,
// ErrOtherBot, each with what to do.
func Dial(ctx context.Context, o DialOptions) (*Client, error) {
	if o.Token == "" {
		return nil, fmt.Errorf("%w; %s", ErrNoToken, HowTo)
	}
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	c := &Client{base: "http://" + o.Addr, token: o.Token, hc: &http.Client{}}
	resp, err := c.get(ctx, pathPing, 10*time.Second)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&c.Info); err != nil {
		return nil, fmt.Errorf("the admin listener at %s: %w", o.Addr, err)
	}
	want, _ := filepath.Abs(o.DataDir)
	if o.DataDir != "" && c.Info.DataDir != want {
		return nil, fmt.Errorf("%w: the bot at %s keeps it in %q, this command means %q (BOT_DATA_DIR differs, or BOT_ADMIN_ADDR names another bot)", ErrOtherBot, o.Addr, c.Info.DataDir, want)
	}
	return c, nil
}

// get sends an authenticated GET, bounded by timeout when it is not 0,
// and checks the status.
func (c *Client) get(ctx context.Context, path string, timeout time.Duration) (*http.Response, error) {
	cancel := func() {}
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		cancel()
		return nil, err
	}
	resp, err := c.send(req)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = cancelOnClose{resp.Body, cancel}
	return resp, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c cancelOnClose) Close() error { err := c.ReadCloser.Close(); c.cancel(); return err }

// send adds the token, sends req and turns a refused connection, a
// refused token and any other non-200 answer into errors saying what to
// do.
func (c *Client) send(req *http.Request) (*http.Response, error) {
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.hc.Do(req)
	if err != nil {
		var op *net.OpError
		if errors.Is(err, syscall.ECONNREFUSED) || (errors.As(err, &op) && op.Op == "dial") {
			return nil, fmt.Errorf("%w (%s): start bot serve with BOT_ADMIN_TOKEN set, or check BOT_ADMIN_ADDR: %v", ErrNoListener, req.URL.Host, err)
		}
		return nil, fmt.Errorf("the admin listener at %s: %w", req.URL.Host, err)
	}
	switch resp.StatusCode {
	case http.StatusOK:
		return resp, nil
	case http.StatusUnauthorized:
		resp.Body.Close()
		return nil, fmt.Errorf("%w: set the same BOT_ADMIN_TOKEN as the bot at %s was started with", ErrRefused, req.URL.Host)
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	return nil, fmt.Errorf("the admin listener at %s answered %s: %s", req.URL.Host, resp.Status, bytes.TrimSpace(b))
}

// Backup writes a backup of the bot's store to w (Store.WriteBackup in
// the bot).
func (c *Client) Backup(ctx context.Context, w io.Writer) error {
	resp, err := c.get(ctx, pathBackup, 0)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(w, resp.Body); err != nil {
		return fmt.Errorf("backup through the running bot: %w", err)
	}
	return nil
}

// do calls a store method with args and decodes its result into out
// (when not nil); the method's own error comes back as an error, the
// ones callers test for (ledger.ErrLedgerChanged) as themselves.
func (c *Client) do(ctx context.Context, method string, out any, args ...any) error {
	if args == nil {
		args = []any{}
	}
	body, err := json.Marshal(args)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+pathStore+method, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.send(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var r response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return fmt.Errorf("%s through the running bot: %w", method, err)
	}
	if out != nil && len(r.Result) > 0 {
		if err := json.Unmarshal(r.Result, out); err != nil {
			return fmt.Errorf("%s through the running bot: %w", method, err)
		}
	}
	if r.Error == "" {
		return nil
	}
	return remoteError{msg: r.Error, code: r.Code}
}

// remoteError is a store method's error as the bot gave it.
type remoteError struct{ msg, code string }

func (e remoteError) Error() string { return "running bot: " + e.msg }

// Is matches the errors callers test for by their code.
func (e remoteError) Is(target error) bool {
	switch e.code {
	case codeLedgerChanged:
		return target == ledger.ErrLedgerChanged
	case codeChanged:
		return target == errChanged
	case codeUnsupported:
		return target == errUnsupported
	}
	return false
}

// Close releases idle connections.
func (c *Client) Close() error {
	c.hc.CloseIdleConnections()
	return nil
}
