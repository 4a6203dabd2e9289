package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
)

// startFake is the fake of Feishu's API the bot talks to (token, bot
// info, sends).
func startFake(fixtures string) (*feishutest.Server, error) {
	return feishutest.NewServer(fixtures)
}

// delivery is one signed, encrypted event as Feishu posts it.
type delivery struct {
	body   []byte
	header http.Header
}

// generator makes new group messages from a recorded one, without its
// mentions.
type generator struct {
	event map[string]any
	run   int64
	n     atomic.Int64
}

func newGenerator(path string) (*generator, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	g := &generator{run: time.Now().UnixNano()}
	if err := json.Unmarshal(b, &g.event); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	msg := g.event["event"].(map[string]any)["message"].(map[string]any)
	delete(msg, "mentions")
	msg["content"] = `{"text":"哪家有4090"}`
	return g, nil
}

// make returns n new deliveries.
func (g *generator) make(n int) []delivery {
	out := make([]delivery, n)
	h := g.event["header"].(map[string]any)
	msg := g.event["event"].(map[string]any)["message"].(map[string]any)
	for i := range out {
		id := strconv.FormatInt(g.run, 36) + "-" + strconv.FormatInt(g.n.Add(1), 10)
		now := time.Now()
		h["event_id"], h["create_time"] = "ev-"+id, strconv.FormatInt(now.UnixMilli(), 10)
		msg["message_id"], msg["create_time"] = "om-"+id, strconv.FormatInt(now.UnixMilli(), 10)
		plain, _ := json.Marshal(g.event)
		body, hdr := feishutest.Seal(plain, encryptKey, now)
		out[i] = delivery{body: body, header: http.Header{}}
		for k, v := range hdr {
			out[i].header.Set(k, v)
		}
	}
	return out
}

// side is what one server did over the run.
type side struct {
	events int
	took   time.Duration
	lat    []time.Duration
}

func (s *side) rate() float64 { return float64(s.events) / s.took.Seconds() }

func (s *side) p99() float64 {
	if len(s.lat) == 0 {
		return 0
	}
	slices.Sort(s.lat)
	return float64(s.lat[min(len(s.lat)-1, len(s.lat)*99/100)].Microseconds()) / 1000
}

type result struct{ sdk, bot side }

// deliveryError is a delivery that failed or was not answered 200.
type deliveryError struct{ msg string }

func (e deliveryError) Error() string { return e.msg }

// inTurn posts o.events to each of sdk and bot, in rounds of o.round,
// alternating which goes first, resting o.pause after each round.
func inTurn(ctx context.Context, o options, gen *generator, sdk, bot string) (result, error) {
	client := &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: o.conc, MaxConnsPerHost: o.conc}}
	defer client.CloseIdleConnections()
	var res result
	for r, posted := 0, 0; posted < o.events; r++ {
		n := min(o.round, o.events-posted)
		for k := range 2 {
			who := (r + k) % 2 // 0: the anchor first in even rounds
			url, s := sdk, &res.sdk
			if who == 1 {
				url, s = bot, &res.bot
			}
			took, lat, err := postAll(ctx, client, url, o.conc, gen.make(n))
			if err != nil {
				return res, err
			}
			s.events += n
			s.took += took
			s.lat = append(s.lat, lat...)
			time.Sleep(o.pause)
		}
		posted += n
	}
	return res, nil
}

// postAll posts ds from conc goroutines and returns the wall time and each
// delivery's latency.
func postAll(ctx context.Context, client *http.Client, url string, conc int, ds []delivery) (time.Duration, []time.Duration, error) {
	lat := make([]time.Duration, len(ds))
	var failed atomic.Value
	var next atomic.Int64
	var wg sync.WaitGroup
	t0 := time.Now()
	for range conc {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(ds) || ctx.Err() != nil {
					return
				}
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(ds[i].body))
				req.Header = ds[i].header
				t := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat[i] = time.Since(t)
				if resp.StatusCode != http.StatusOK {
					failed.Store(fmt.Sprintf("%s answered %d", url, resp.StatusCode))
					return
				}
			}
		})
	}
	wg.Wait()
	if msg := failed.Load(); msg != nil {
		return 0, nil, deliveryError{msg.(string)}
	}
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	return time.Since(t0), lat, nil
}
