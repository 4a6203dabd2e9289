package main

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
	"github.com/labgpu/bot/internal/fixture"
)

// TestLoadReachesTheSDK: the generated events are new, signed and
// encrypted as Feishu sends them, so the SDK's dispatcher answers every
// one 200 and hands each to its handler; a wrong key is a failed delivery.
func TestLoadReachesTheSDK(t *testing.T) {
	gen, err := newGenerator(fixture.File(fixture.Feishu, "event_im_message_receive_group_at_bot.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got atomic.Int64
	srv := httptest.NewServer(feishutest.SDKAnchor(gen.token, gen.key, &got))
	defer srv.Close()
	o := options{conc: 4, events: 60, round: 25}
	res, err := inTurn(context.Background(), o, gen, srv.URL+"/feishu/events", srv.URL+"/feishu/events")
	if err != nil {
		t.Fatal(err)
	}
	if res.sdk.events != 60 || res.bot.events != 60 || res.sdk.rate() <= 0 || res.bot.p99() <= 0 {
		t.Errorf("result %+v", res)
	}
	for deadline := time.Now().Add(5 * time.Second); got.Load() < 120 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if got.Load() != 120 {
		t.Errorf("the handler saw %d events, want 120", got.Load())
	}
	ds := gen.make(1)
	ds[0].Header.Set("X-Lark-Signature", "0000")
	if _, _, err := feishutest.PostAll(context.Background(), srv.Client(), srv.URL+"/feishu/events", 1, ds); err == nil {
		t.Error("a delivery with a wrong signature did not fail")
	}
}
