package commands_test

import (
	"context"
	"testing"

	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/stock"
)

// TestConcurrentSubscribe: a member who sends the same subscription
// several times at once (a double tap, two devices) gets one
// subscription, so one alert per change, on each store and across two
// replicas: one answer says subscribed, the others that it already is.
func TestConcurrentSubscribe(t *testing.T) {
	for _, setup := range storeSetups {
		t.Run(setup.name, func(t *testing.T) {
			sts := setup.stores(t)
			var routers []*commands.Router
			for _, st := range sts {
				routers = append(routers, newRouterWith(t, commands.WithAlerts(st, st, stock.DefaultPolicy())))
			}
			var msgs [][2]string
			for range 8 {
				msgs = append(msgs, [2]string{"alice", "4090 有货了提醒我"})
			}
			titles := race(routers, "lab1", msgs)
			if count(titles, "已订阅") != 1 || count(titles, "已经订阅过了") != 7 {
				t.Errorf("eight identical subscriptions: %q; want one subscribed, seven already", titles)
			}
			subs, err := sts[0].Subscriptions(context.Background())
			if err != nil || len(subs) != 1 {
				t.Errorf("%d subscriptions stored (%v), want 1: %+v", len(subs), err, subs)
			}
		})
	}
}
