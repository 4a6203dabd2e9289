package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
	"github.com/labgpu/bot/tools/soak/fakes"
	"github.com/labgpu/bot/tools/soak/procs"
)

// The fake app's verification token and encrypt key: random for each
// run, shared only between the soak's fake Feishu and its bot replicas,
// so no key-like constant sits in the source.
var (
	verificationToken = randomHex(12)
	encryptKey        = randomHex(16)
)

// randomHex is n random bytes as hex.
func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("soak: random key: %v", err)) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}

// redelivery is when Feishu pushes an event again after a delivery that
// did not get HTTP 200 within 3 s: Feishu waits 15 s, 5 min, 1 h and 6 h;
// the soak compresses that into under a minute, so that every retry is
// younger than the 60 s a restarted replica still answers.
var redelivery = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 15 * time.Second, 25 * time.Second}

// attempt is one delivery of an event.
type attempt struct {
	At      time.Time `json:"at"`
	Replica int       `json:"replica"`
	Status  int       `json:"status,omitempty"`
	Err     string    `json:"err,omitempty"`
}

// sentMsg is one user message the driver sent (as an event, delivered
// until some replica answered HTTP 200).
type sentMsg struct {
	ID, EventID, Chat, Text string
	Created                 time.Time
	Setup                   bool

	mu       sync.Mutex
	Attempts []attempt
	Acked    time.Time
	GaveUp   bool
}

// driver plays Feishu's event push to the replicas, like a load balancer
// in front of them: round robin over the replicas the soak believes up,
// a redelivery to another replica after a failure.
type driver struct {
	events   *feishutest.Events
	replicas []*procs.Replica
	fake     *fakes.Feishu
	client   *http.Client
	rr       atomic.Uint64
	seq      atomic.Uint64
	wg       sync.WaitGroup

	mu   sync.Mutex
	msgs []*sentMsg
}

func newDriver(fixtures string, replicas []*procs.Replica, fake *fakes.Feishu) (*driver, error) {
	ev, err := feishutest.LoadEvents(fixtures)
	if err != nil {
		return nil, err
	}
	// Feishu gives up on a callback after 3 s.
	return &driver{events: ev, replicas: replicas, fake: fake, client: &http.Client{Timeout: 3 * time.Second}}, nil
}

// event builds the group message event @mentioning the bot.
func (d *driver) event(m *sentMsg) []byte {
	return d.events.Message(feishutest.Message{EventID: m.EventID, MessageID: m.ID, ChatID: m.Chat, Text: m.Text,
		Mention: true, Token: verificationToken, Created: m.Created})
}

// Send sends a new message in chat and delivers it in the background.
func (d *driver) Send(chat, text string, setup bool) *sentMsg {
	n := d.seq.Add(1)
	m := &sentMsg{ID: fmt.Sprintf("om_soak_%06d", n), EventID: fmt.Sprintf("ev_soak_%06d_%d", n, time.Now().UnixNano()%1e6),
		Chat: chat, Text: text, Created: time.Now(), Setup: setup}
	d.fake.NoteChat(m.ID, chat)
	d.mu.Lock()
	d.msgs = append(d.msgs, m)
	d.mu.Unlock()
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		d.deliver(m)
	}()
	return m
}

// pick returns the next replica the load balancer would use: round robin
// over those up, avoiding the one that just failed when another is up.
func (d *driver) pick(avoid int) *procs.Replica {
	n := len(d.replicas)
	start := int(d.rr.Add(1))
	for _, strict := range []bool{true, false} {
		for i := 0; i < n; i++ {
			r := d.replicas[(start+i)%n]
			if !r.Up() || (strict && r.Idx == avoid && n > 1) {
				continue
			}
			return r
		}
	}
	return d.replicas[start%n]
}

func (d *driver) deliver(m *sentMsg) {
	plain := d.event(m)
	avoid := -1
	for try := 0; ; try++ {
		r := d.pick(avoid)
		a := attempt{At: time.Now(), Replica: r.Idx}
		status, _, err := feishutest.Post(context.Background(), d.client, r.Base()+"/feishu/events", plain, encryptKey)
		if err != nil {
			a.Err = err.Error()
		} else {
			a.Status = status
		}
		m.mu.Lock()
		m.Attempts = append(m.Attempts, a)
		if a.Status == http.StatusOK {
			m.Acked = time.Now()
			m.mu.Unlock()
			return
		}
		if try >= len(redelivery) {
			m.GaveUp = true
			m.mu.Unlock()
			return
		}
		m.mu.Unlock()
		avoid = r.Idx
		time.Sleep(redelivery[try])
	}
}

// Wait waits for every delivery to end (acknowledged or given up).
func (d *driver) Wait() { d.wg.Wait() }

func (d *driver) Msgs() []*sentMsg {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]*sentMsg(nil), d.msgs...)
}
