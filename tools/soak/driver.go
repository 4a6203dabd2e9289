package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
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
	template map[string]any
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
	b, err := os.ReadFile(filepath.Join(fixtures, "event_im_message_receive_group_at_bot.json"))
	if err != nil {
		return nil, err
	}
	var ev map[string]any
	if err := json.Unmarshal(b, &ev); err != nil {
		return nil, err
	}
	// Feishu gives up on a callback after 3 s.
	return &driver{template: ev, replicas: replicas, fake: fake, client: &http.Client{Timeout: 3 * time.Second}}, nil
}

// event builds the group message event @mentioning the bot.
func (d *driver) event(m *sentMsg) []byte {
	var ev map[string]any
	b, _ := json.Marshal(d.template)
	json.Unmarshal(b, &ev)
	created := strconv.FormatInt(m.Created.UnixMilli(), 10)
	h := ev["header"].(map[string]any)
	h["event_id"], h["create_time"], h["token"] = m.EventID, created, verificationToken
	msg := ev["event"].(map[string]any)["message"].(map[string]any)
	msg["message_id"], msg["chat_id"], msg["create_time"], msg["update_time"] = m.ID, m.Chat, created, created
	content, _ := json.Marshal(map[string]string{"text": "@_user_1 " + m.Text})
	msg["content"] = string(content)
	msg["mentions"] = msg["mentions"].([]any)[:1] // the bot only
	out, _ := json.Marshal(ev)
	return out
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
		body, hdr := feishutest.Seal(plain, encryptKey, time.Now())
		req, _ := http.NewRequest(http.MethodPost, r.Base()+"/feishu/events", bytes.NewReader(body))
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		a := attempt{At: time.Now(), Replica: r.Idx}
		resp, err := d.client.Do(req)
		if err != nil {
			a.Err = err.Error()
		} else {
			a.Status = resp.StatusCode
			resp.Body.Close()
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
