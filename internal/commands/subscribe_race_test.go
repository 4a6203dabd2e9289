package commands_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/embedded"
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

// livePlatform is a platform's answer in stock: two RTX 4090 free at
// 1.98 CNY an hour, observed now (a fake of the platform's API).
type livePlatform struct{ now func() time.Time }

func (livePlatform) Name() string { return "autodl" }
func (p livePlatform) Fetch(context.Context) ([]stock.Offer, error) {
	return []stock.Offer{{Platform: "autodl", GPU: "RTX 4090", GPUsPerInstance: 1, Free: stock.IntPtr(2), CNYPerGPUHour: 1.98,
		OriginalPrice: 1.98, Currency: "CNY", Region: "西北B区", Source: stock.SourceLive, ObservedAt: p.now()}}, nil
}

// alertLog records the alerts a poll sends (the chat's side).
type alertLog struct {
	mu     sync.Mutex
	alerts []stock.Alert
}

func (l *alertLog) Notify(_ context.Context, a stock.Alert) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.alerts = append(l.alerts, a)
	return nil
}

func (l *alertLog) items() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, a := range l.alerts {
		n += len(a.Items)
	}
	return n
}

// beforeRecord is the store with a hook that runs once, before the
// subscribe command's first claim or record write: after the command has
// added the subscription, before it records "available now".
type beforeRecord struct {
	stock.AlertStore
	once sync.Once
	hook func()
}

func (b *beforeRecord) ClaimAlert(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	b.once.Do(b.hook)
	return b.AlertStore.ClaimAlert(ctx, key, ttl)
}

func (b *beforeRecord) PutNotifyRecords(ctx context.Context, recs []stock.NotifyRecord) error {
	b.once.Do(b.hook)
	return b.AlertStore.PutNotifyRecords(ctx, recs)
}

// afterRead is the store with a hook that runs once, after the poll read
// the notification records.
type afterRead struct {
	stock.AlertStore
	once sync.Once
	hook func()
}

func (a *afterRead) NotifyRecords(ctx context.Context, ids []string) (map[string]stock.NotifyRecord, error) {
	m, err := a.AlertStore.NotifyRecords(ctx, ids)
	a.once.Do(a.hook)
	return m, err
}

// TestSubscribeDuringPoll: a member subscribes while stock is there, and
// a poll runs at the same moment. The answer says "available now" and
// the poll must not send the same news again (or the poll sends it and
// the answer says so), whichever comes first: the poll entirely between
// the command's add and its record, or the poll reading the records
// before the command writes and sending after.
func TestSubscribeDuringPoll(t *testing.T) {
	cat := testCatalog(t)
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	board := stock.NewBoard([]stock.Provider{livePlatform{clock}}, stock.BoardOptions{Now: clock, MaxAge: -1})
	board.Refresh(context.Background())
	for _, order := range []string{"poll between add and record", "poll reads before, sends after"} {
		t.Run(order, func(t *testing.T) {
			ctx := context.Background()
			st, err := embedded.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			sent := &alertLog{}
			alerter := &stock.Alerter{Subs: st, Log: st, Notifier: sent, Policy: stock.DefaultPolicy()}
			hooked := &beforeRecord{AlertStore: st}
			r := commands.NewRouter(cat, board, commands.WithClock(clock), commands.WithAlerts(st, hooked, stock.DefaultPolicy()))
			var res commands.Result
			switch order {
			case "poll between add and record":
				hooked.hook = func() {
					if _, err := alerter.Process(ctx, board.Snapshot(ctx), now); err != nil {
						t.Error(err)
					}
				}
				res = from(r, "lab1", "alice", "4090 有货了提醒我")
			default:
				read, answered := make(chan struct{}), make(chan struct{})
				polled := make(chan error, 1)
				alerter.Log = &afterRead{AlertStore: st, hook: func() { close(read); <-answered }}
				hooked.hook = func() {
					go func() {
						_, err := alerter.Process(ctx, board.Snapshot(ctx), now)
						polled <- err
					}()
					<-read
				}
				res = from(r, "lab1", "alice", "4090 有货了提醒我")
				close(answered) // the poll goes on once the answer is out
				if err := <-polled; err != nil {
					t.Error(err)
				}
			}
			if subscription(res) == nil {
				t.Fatalf("not subscribed: %s", res.Text)
			}
			told := strings.Count(whole(res), "现在就有")
			if told+sent.items() != 1 {
				t.Errorf("the stock was announced %d times (answer %d, alerts %d); want once:\n%s", told+sent.items(), told, sent.items(), res.Text)
			}
			recs, err := st.NotifyRecords(ctx, []string{subscription(res).ID})
			if rec := recs[subscription(res).ID]; err != nil || !rec.Active || rec.Seq != 1 {
				t.Errorf("record %+v, %v; want active, alert 1", rec, err)
			}
		})
	}
}
