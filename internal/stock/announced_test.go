package stock_test

import (
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

// TestDecideAfterAnnounced: the polls after a subscription whose reply
// said the card is in stock (stock.Announced). The reply is no alert, so
// it starts no cooldown: a sell-out and return minutes later is alerted
// at once (with the reply's time as NotifiedAt it was held for 30
// minutes, and lost when the card went again before). The cooldown runs
// from the first real alert, as ever.
func TestDecideAfterAnnounced(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	type poll struct {
		after  time.Duration
		obs    stock.Observation
		notify bool
		reason stock.Reason
		held   string
	}
	cases := []struct {
		name  string
		polls []poll
	}{
		{"still in stock: no repeat of the reply", []poll{
			{2 * time.Minute, obs(stock.InStock, 2.0), false, "", ""},
			{4 * time.Minute, obs(stock.InStock, 2.0), false, "", ""},
		}},
		{"sold out and back within minutes: alerted", []poll{
			{2 * time.Minute, obs(stock.SoldOut, 0), false, "", ""},
			{4 * time.Minute, obs(stock.InStock, 2.0), true, stock.ReasonAvailable, ""},
		}},
		{"the cooldown runs from that alert", []poll{
			{2 * time.Minute, obs(stock.SoldOut, 0), false, "", ""},
			{4 * time.Minute, obs(stock.InStock, 2.0), true, stock.ReasonAvailable, ""},
			{6 * time.Minute, obs(stock.SoldOut, 0), false, "", ""},
			{8 * time.Minute, obs(stock.InStock, 2.0), false, "", "cooldown"},
			{35 * time.Minute, obs(stock.InStock, 2.0), true, stock.ReasonAvailable, ""},
		}},
		{"a price drop right after the reply: alerted", []poll{
			{2 * time.Minute, obs(stock.InStock, 1.5), true, stock.ReasonPriceDrop, ""},
		}},
		{"unknown changes nothing", []poll{
			{2 * time.Minute, obs(stock.Unknown, 0), false, "", ""},
			{4 * time.Minute, obs(stock.InStock, 2.0), false, "", ""},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := stock.Announced("s", 2.0)
			for i, p := range c.polls {
				var d stock.Decision
				d, rec = stock.Decide(rec, p.obs, t0.Add(p.after), stock.DefaultPolicy())
				if d.Notify != p.notify || d.Reason != p.reason || d.Held != p.held {
					t.Errorf("poll %d (+%v): notify=%v reason=%q held=%q, want %v %q %q", i, p.after, d.Notify, d.Reason, d.Held, p.notify, p.reason, p.held)
				}
				if d.Notify && rec.Seq < 2 {
					t.Errorf("poll %d: alert seq %d; the reply took 1", i, rec.Seq)
				}
			}
		})
	}
}
