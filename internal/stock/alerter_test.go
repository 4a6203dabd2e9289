package stock_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

// mapStore is an AlertStore with NotifyRecords only; sliceStore adds
// ReadNotifyRecords. An Alerter must decide alike with either.
type mapStore struct {
	memAlerts
	claimed map[string]bool
	muted   map[string]time.Time
}

func (m *mapStore) ClaimAlert(_ context.Context, key string, _ time.Duration) (bool, error) {
	if m.claimed[key] {
		return false, nil
	}
	m.claimed[key] = true
	return true, nil
}
func (m *mapStore) ReleaseAlert(_ context.Context, key string) error {
	delete(m.claimed, key)
	return nil
}
func (m *mapStore) MutedUntil(_ context.Context, chat string) (time.Time, error) {
	return m.muted[chat], nil
}

type sliceStore struct{ mapStore }

func (m *sliceStore) ReadNotifyRecords(_ context.Context, ids []string, recs []stock.NotifyRecord) (bool, error) {
	for i, id := range ids {
		recs[i] = m.recs[id]
	}
	return true, nil
}

// alertStore is what TestAlerterPolls needs of either store.
type alertStore interface {
	stock.SubscriptionStore
	stock.AlertStore
	base() *mapStore
}

func (m *mapStore) base() *mapStore { return m }

func alertSnap(free4090, freeH100 int) stock.Snapshot {
	return stock.Snapshot{Providers: []stock.ProviderSnapshot{{Provider: "autodl", Status: stock.StatusOK, Offers: []stock.Offer{
		{Platform: "autodl", GPU: "RTX 4090", Free: stock.IntPtr(free4090), CNYPerGPUHour: 2, Source: stock.SourceLive},
		{Platform: "autodl", GPU: "H100 SXM", Free: stock.IntPtr(freeH100), CNYPerGPUHour: 9, Source: stock.SourceLive},
	}}}}
}

// TestAlerterPolls: one merged alert per chat, chats in key order, once per
// transition, muted chats and failed sends held until a later poll, a
// claim already taken recorded as sent; the Alerter reuses its index and
// buffers from poll to poll, with a map store and a slice store alike.
func TestAlerterPolls(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	subs := []stock.Subscription{
		{ID: "s1", Channel: "feishu", ChatID: "B", GPUs: []string{"RTX 4090"}},
		{ID: "s2", Channel: "feishu", ChatID: "A", GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}},
		{ID: "s3", Channel: "feishu", ChatID: "B", GPUs: []string{"H100 SXM"}},
		{ID: "s4", Channel: "feishu", ChatID: "M", GPUs: []string{"RTX 4090"}},
		{ID: "s5", Channel: "console", ChatID: "Z", GPUs: []string{"RTX 4090"}},
	}
	type poll struct {
		snap  stock.Snapshot
		after time.Duration // since t0
		fail  string        // chat whose send fails
		want  string        // alerts sent, "chat:ids" joined by " | "
		held  int
	}
	cases := []struct {
		name    string
		claimed []string // keys already taken
		muted   time.Duration
		polls   []poll
	}{
		{"transitions", nil, 0, []poll{
			{alertSnap(2, 0), 0, "", "console/Z:s5 | feishu/A:s2 | feishu/B:s1 | feishu/M:s4", 0},
			{alertSnap(2, 0), 2 * time.Minute, "", "", 0},
			{alertSnap(0, 1), 4 * time.Minute, "", "feishu/B:s3", 0},
			{alertSnap(0, 1), 6 * time.Minute, "", "", 0},
			{alertSnap(3, 1), time.Hour, "", "console/Z:s5 | feishu/A:s2 | feishu/B:s1 | feishu/M:s4", 0},
		}},
		{"muted chat held until unmuted", nil, 5 * time.Minute, []poll{
			{alertSnap(2, 0), 0, "", "console/Z:s5 | feishu/A:s2 | feishu/B:s1", 1},
			{alertSnap(2, 0), 10 * time.Minute, "", "feishu/M:s4", 0},
			{alertSnap(2, 0), 12 * time.Minute, "", "", 0},
		}},
		{"failed send retried", nil, 0, []poll{
			{alertSnap(2, 1), 0, "feishu/B", "console/Z:s5 | feishu/A:s2 | feishu/M:s4", 2},
			{alertSnap(2, 1), 2 * time.Minute, "", "feishu/B:s1,s3", 0},
			{alertSnap(2, 1), 4 * time.Minute, "", "", 0},
		}},
		{"claim taken: recorded, not sent", []string{"alert:s1:1"}, 0, []poll{
			{alertSnap(2, 0), 0, "", "console/Z:s5 | feishu/A:s2 | feishu/M:s4", 1},
			{alertSnap(2, 0), 2 * time.Minute, "", "", 0},
		}},
	}
	stores := map[string]func() alertStore{
		"map":   func() alertStore { return &mapStore{} },
		"slice": func() alertStore { return &sliceStore{} },
	}
	for _, c := range cases {
		for sname, mk := range stores {
			t.Run(c.name+"/"+sname, func(t *testing.T) {
				st := mk()
				b := st.base()
				b.subs, b.recs, b.claimed = subs, map[string]stock.NotifyRecord{}, map[string]bool{}
				b.muted = map[string]time.Time{"feishu/M": t0.Add(c.muted)}
				for _, k := range c.claimed {
					b.claimed[k] = true
				}
				var sent []string
				fail := ""
				al := &stock.Alerter{Subs: st, Log: st, Policy: stock.DefaultPolicy(), SendConcurrency: 1, Notifier: stock.NotifierFunc(func(_ context.Context, a stock.Alert) error {
					chat := a.Channel + "/" + a.ChatID
					if chat == fail {
						return errors.New("send failed")
					}
					ids := make([]string, len(a.Items))
					for i, it := range a.Items {
						ids[i] = it.Subscription.ID
					}
					sent = append(sent, chat+":"+strings.Join(ids, ","))
					return nil
				})}
				for i, p := range c.polls {
					sent, fail = nil, p.fail
					res, err := al.Process(context.Background(), p.snap, t0.Add(p.after))
					if err != nil {
						t.Fatal(err)
					}
					if got := strings.Join(sent, " | "); got != p.want || res.Held != p.held {
						t.Errorf("poll %d: sent %q held %d, want %q held %d", i, got, res.Held, p.want, p.held)
					}
				}
			})
		}
	}
}

// TestAlerterStoresAgree: on the benchmark's data, an Alerter reading
// records through a map and one reading them into a slice send the same
// alerts and store the same records, poll after poll.
func TestAlerterStoresAgree(t *testing.T) {
	subs := benchSubs(2000)
	for i := range subs {
		subs[i].Channel, subs[i].ChatID = "feishu", fmt.Sprint("chat-", i%37)
	}
	snaps := []stock.Snapshot{benchSnapshot(400), benchSnapshot(50), benchSnapshot(400)}
	run := func(st alertStore) ([]string, map[string]stock.NotifyRecord) {
		b := st.base()
		b.subs, b.recs, b.claimed, b.muted = subs, map[string]stock.NotifyRecord{}, map[string]bool{}, map[string]time.Time{"feishu/chat-3": time.Unix(1, 0).Add(time.Hour)}
		var log []string
		al := &stock.Alerter{Subs: st, Log: st, Policy: stock.DefaultPolicy(), SendConcurrency: 1, Notifier: stock.NotifierFunc(func(_ context.Context, a stock.Alert) error {
			log = append(log, fmt.Sprintf("%s %s %d %.2f", a.ChatID, a.Key, len(a.Items), a.Items[0].Offers[0].CNYPerGPUHour))
			return nil
		})}
		for i := 0; i < 8; i++ {
			if _, err := al.Process(context.Background(), snaps[i%len(snaps)], time.Unix(1, 0).Add(time.Duration(i)*20*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		return log, b.recs
	}
	l1, r1 := run(&mapStore{})
	l2, r2 := run(&sliceStore{})
	if len(l1) == 0 || !reflect.DeepEqual(l1, l2) || !reflect.DeepEqual(r1, r2) {
		t.Errorf("stores disagree: %d vs %d alerts, records equal %v", len(l1), len(l2), reflect.DeepEqual(r1, r2))
	}
}

// TestObserveUnjudgedAnyPlatform: an in-stock offer that does not say its
// price or region keeps a subscription on any platform unknown, unless
// that offer's platform is ruled out.
func TestObserveUnjudgedAnyPlatform(t *testing.T) {
	snap := stock.Snapshot{Providers: []stock.ProviderSnapshot{
		{Provider: "autodl", Status: stock.StatusOK, Offers: []stock.Offer{{Platform: "autodl", GPU: "RTX 3090", Free: stock.IntPtr(3), Source: stock.SourceLive}}},
		{Provider: "runpod", Status: stock.StatusOK, Offers: []stock.Offer{{Platform: "runpod", GPU: "RTX 3090", Free: stock.IntPtr(0), CNYPerGPUHour: 2, Region: "US", Source: stock.SourceLive}}},
	}}
	g := []string{"RTX 3090"}
	ix := stock.NewIndex(snap)
	cases := []struct {
		name string
		sub  stock.Subscription
		want stock.Available
	}{
		{"no conditions: available", stock.Subscription{GPUs: g}, stock.InStock},
		{"ceiling, an unpriced offer", stock.Subscription{GPUs: g, MaxPriceCNY: 1.5}, stock.Unknown},
		{"ceiling, the unpriced offer ruled out", stock.Subscription{GPUs: g, MaxPriceCNY: 1.5, ExcludePlatforms: []string{"autodl"}}, stock.SoldOut},
		{"region, an offer without one", stock.Subscription{GPUs: g, Region: "us"}, stock.Unknown},
		{"region, that offer ruled out", stock.Subscription{GPUs: g, Region: "us", ExcludePlatforms: []string{"autodl"}}, stock.SoldOut},
		{"at least 5: a count of 3 says no", stock.Subscription{GPUs: g, MinFree: 5}, stock.SoldOut},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ix.Observe(c.sub).State; got != c.want {
				t.Errorf("state %v, want %v", got, c.want)
			}
		})
	}
}
