package main

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
)

// startFake is the fake of Feishu's API the bot talks to (token, bot
// info, sends).
func startFake(fixtures string) (*feishutest.Server, error) {
	return feishutest.NewServer(fixtures)
}

// question is what every generated message asks (question.txt).
//
//go:embed question.txt
var question string

// generator makes new group messages from a recorded one, without its
// mentions, sealed with the run's Encrypt Key (random, per run); token is
// the recorded event's header.token, which the servers are given.
type generator struct {
	event       map[string]any
	header, msg map[string]any // parts of event
	token, key  string
	run         int64
	n           atomic.Int64
}

func newGenerator(path string) (*generator, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	g := &generator{run: time.Now().UnixNano(), key: rand.Text()}
	if err := json.Unmarshal(b, &g.event); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	g.header, _ = g.event["header"].(map[string]any)
	ev, _ := g.event["event"].(map[string]any)
	g.msg, _ = ev["message"].(map[string]any)
	if g.header == nil || g.msg == nil {
		return nil, fmt.Errorf("%s: not an im.message.receive_v1 event (no header or event.message)", path)
	}
	if g.token, _ = g.header["token"].(string); g.token == "" {
		return nil, fmt.Errorf("%s: the event has no header.token", path)
	}
	delete(g.msg, "mentions")
	content, _ := json.Marshal(map[string]string{"text": strings.TrimSpace(question)})
	g.msg["content"] = string(content)
	return g, nil
}

// make returns n new deliveries.
func (g *generator) make(n int) []feishutest.Delivery {
	out := make([]feishutest.Delivery, n)
	h, msg := g.header, g.msg
	for i := range out {
		id := strconv.FormatInt(g.run, 36) + "-" + strconv.FormatInt(g.n.Add(1), 10)
		now := time.Now()
		h["event_id"], h["create_time"] = "ev-"+id, strconv.FormatInt(now.UnixMilli(), 10)
		msg["message_id"], msg["create_time"] = "om-"+id, strconv.FormatInt(now.UnixMilli(), 10)
		plain, _ := json.Marshal(g.event)
		body, hdr := feishutest.Seal(plain, g.key, now)
		out[i] = feishutest.Delivery{Body: body, Header: http.Header{}}
		for k, v := range hdr {
			out[i].Header.Set(k, v)
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
			took, lat, err := feishutest.PostAll(ctx, client, url, o.conc, gen.make(n))
			if err != nil {
				if ctx.Err() != nil {
					return res, ctx.Err()
				}
				return res, deliveryError{err.Error()}
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
