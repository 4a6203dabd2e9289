package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// options configure one soak run.
type options struct {
	Duration     time.Duration // traffic and chaos; the drain comes after
	Replicas     int
	Short        bool
	Seed         uint64
	Rate         float64 // user messages per second
	Fixtures     string  // the module's testdata/ (its feishu/ folder)
	ModuleRoot   string
	RedisBin     string
	RedisPersist string // everysec, always or none
	BotBin       string // prebuilt bot; empty: go build
	Keep         bool
	Log          io.Writer
}

// Poll and alert settings the replicas run with: the fastest schedule the
// config accepts (jobs.MinInterval), a short poll lock so that a killed
// holder's lock frees quickly (the config's minimum is 3 s), and a
// cooldown that never holds an alert back in the soak.
const (
	pollEvery = 30 * time.Second
	pollLock  = 6 * time.Second
	jitter    = time.Second
)

// gpus are the cards the soak flips between in stock and sold out, with
// the free count it writes when in stock.
var gpus = []struct {
	name string // as in the AutoDL recording
	ask  string // as a user says it
	free int
}{{"RTX 4090", "4090", 12}, {"RTX 3090", "3090", 3}}

// questions are the traffic: what lab members ask.
var questions = []string{"帮助", "哪家有4090", "7B LoRA 要多少钱", "AutoDL 怎么收费", "3090 还是 4090", "恒源云和AutoDL哪个便宜",
	"有没有2块以下的3090", "A100 80G 包月多少", "文章里说AutoDL数据盘0.5元/GB/天，是真的吗", "which platform has a 4090 right now"}

// chaosEvent is one fault the soak injected.
type chaosEvent struct {
	Kind    string    `json:"kind"` // replica-kill, redis-kill, redis-shutdown, redis-pause, replica-restart-redis-down
	Replica int       `json:"replica,omitempty"`
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"` // back up (Redis answers PING, the replica started)
}

// transition is a change the soak wrote to the replay recordings.
type transition struct {
	GPU     string
	At      time.Time
	InStock bool
}

// pollLine is a replica's "poll" (or "poll failed") log line.
type pollLine struct {
	At      time.Time
	Replica int
	OK      bool
	Subs    int
	Alerts  int
	Held    int
}

// noted is a log line worth reporting.
type noted struct {
	At      time.Time `json:"at"`
	Replica int       `json:"replica"`
	Line    string    `json:"line"`
}

type soak struct {
	o        options
	dir      string
	replay   string
	fake     *fakeFeishu
	redis    *redisProc
	replicas []*replica
	drv      *driver
	rng      *rand.Rand

	mu          sync.Mutex
	chaos       []chaosEvent
	unhealthy   [][2]time.Time // Redis stopped or paused (end zero: ongoing)
	transitions []transition
	state       map[string]bool
	polls       []pollLine
	notable     map[string][]noted // by message
	noteCount   map[string]int
	subs        map[string]subInfo // chat → subscription
	start, stop time.Time
}

type subInfo struct {
	GPU     string
	Created time.Time
}

// watched are log messages the report counts (with a few examples each).
var watched = []string{
	"running without the store",
	"feishu event: dedup store failed",
	"message_id dedup failed",
	"reply failed",
	"sent but not recorded",
	"send failed; will retry",
	"claim failed",
	"poll failed",
	"dedup store unavailable",
	"store unavailable",
	"could not update the interim card",
	"answered in place, but a further card failed",
	"panic",
}

func run(ctx context.Context, o options) (rep *report, err error) {
	s := &soak{o: o, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x5eed)), state: map[string]bool{},
		notable: map[string][]noted{}, noteCount: map[string]int{}, subs: map[string]subInfo{}}
	s.dir, err = os.MkdirTemp("", "labgpu-soak-")
	if err != nil {
		return nil, err
	}
	defer func() {
		s.shutdown()
		if o.Keep || (rep != nil && !rep.OK) {
			s.logf("soak: files kept in %s", s.dir)
		} else {
			os.RemoveAll(s.dir)
		}
	}()
	if err := s.setup(ctx); err != nil {
		return nil, err
	}
	if err := s.subscribe(ctx); err != nil {
		return nil, err
	}
	s.exercise(ctx)
	s.drain(ctx)
	return s.analyse(), ctx.Err()
}

var logMu sync.Mutex

func (s *soak) logf(format string, args ...any) {
	logMu.Lock()
	defer logMu.Unlock()
	if s.o.Log != nil {
		fmt.Fprintf(s.o.Log, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05.000")}, args...)...)
	}
}

func (s *soak) setup(ctx context.Context) error {
	bin := s.o.BotBin
	if bin == "" {
		bin = filepath.Join(s.dir, "bot")
		t := time.Now()
		cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/bot")
		cmd.Dir = s.o.ModuleRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/bot: %v\n%s", err, out)
		}
		s.logf("soak: built the bot in %v", time.Since(t).Round(time.Millisecond))
	}
	var err error
	if s.fake, err = newFakeFeishu(filepath.Join(s.o.Fixtures, "feishu")); err != nil {
		return err
	}
	if s.redis, err = newRedis(s.o.RedisBin, filepath.Join(s.dir, "redis"), s.o.RedisPersist); err != nil {
		return err
	}
	if err := s.redis.Start(); err != nil {
		return err
	}
	s.replay = filepath.Join(s.dir, "replay")
	if err := os.MkdirAll(s.replay, 0o700); err != nil {
		return err
	}
	for _, g := range gpus {
		s.state[g.name] = false
	}
	if err := s.writeReplay(); err != nil {
		return err
	}
	cfg := filepath.Join(s.dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(configYAML), 0o600); err != nil {
		return err
	}
	for i := 0; i < s.o.Replicas; i++ {
		port, err := freePort()
		if err != nil {
			return err
		}
		dir := filepath.Join(s.dir, fmt.Sprintf("replica-%d", i))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TZ=UTC", "BOT_CONFIG=" + cfg, "BOT_DATA_DIR=" + dir,
			"BOT_HTTP_ADDR=127.0.0.1:" + strconv.Itoa(port), "REDIS_URL=" + s.redis.URL(), "BOT_REPLAY_DIR=" + s.replay,
			"FEISHU_APP_ID=" + appID, "FEISHU_APP_SECRET=soak-secret", "FEISHU_VERIFICATION_TOKEN=" + verificationToken,
			"FEISHU_ENCRYPT_KEY=" + encryptKey, "FEISHU_MODE=webhook", "FEISHU_BASE_URL=" + s.fake.URL}
		s.replicas = append(s.replicas, &replica{idx: i, bin: bin, env: env, Port: port, dir: dir, onLn: s.onLine})
	}
	for _, r := range s.replicas {
		if err := r.Start(); err != nil {
			return err
		}
	}
	for _, r := range s.replicas {
		if err := r.waitHealthy(30 * time.Second); err != nil {
			return err
		}
	}
	s.drv, err = newDriver(filepath.Join(s.o.Fixtures, "feishu"), s.replicas, s.fake)
	s.logf("soak: redis on :%d (appendfsync %s), %d replicas, fake Feishu %s, dir %s", s.redis.Port, s.o.RedisPersist, len(s.replicas), s.fake.URL, s.dir)
	return err
}

// configYAML is the replicas' config; the environment adds the store,
// Feishu, the replay directory and the listen address.
var configYAML = fmt.Sprintf(`# written by tools/soak
store:
  prefix: "soak:"
stock:
  providers:
    autodl: {enabled: false}
    vastai: {enabled: false}
    gpushare: {enabled: false}
    matpool: {enabled: false}
    runpod: {enabled: false}
    lambda: {enabled: false}
  poll:
    schedule: "@every %s"
    jitter: %s
    lock_ttl: %s
alerts:
  cooldown: 1s
log:
  level: info
`, pollEvery, jitter, pollLock)

// writeReplay writes the AutoDL stock recording of the current state and
// a fresh RECORDED_AT, each by rename so a poll never reads half a file.
func (s *soak) writeReplay() error {
	s.mu.Lock()
	var rows []map[string]any
	for _, g := range gpus {
		free := 0
		if s.state[g.name] {
			free = g.free
		}
		rows = append(rows, map[string]any{g.name: map[string]int{"idle_gpu_num": free, "total_gpu_num": 40}})
	}
	s.mu.Unlock()
	body, _ := json.MarshalIndent(map[string]any{"code": "Success", "msg": "", "data": rows}, "", "  ")
	write := func(name string, b []byte) error {
		tmp := filepath.Join(s.replay, "."+name+".tmp")
		if err := os.WriteFile(tmp, b, 0o600); err != nil {
			return err
		}
		return os.Rename(tmp, filepath.Join(s.replay, name))
	}
	if err := write("RECORDED_AT", []byte(time.Now().UTC().Format(time.RFC3339)+"\n")); err != nil {
		return err
	}
	return write("autodl-esd-gpu_stock-global.json", body)
}

// setState flips a GPU and records the transition.
func (s *soak) setState(gpu string, in bool) {
	s.mu.Lock()
	s.state[gpu] = in
	s.mu.Unlock()
	if err := s.writeReplay(); err != nil {
		s.logf("soak: write replay: %v", err)
	}
	s.mu.Lock()
	s.transitions = append(s.transitions, transition{GPU: gpu, At: time.Now(), InStock: in})
	s.mu.Unlock()
	s.logf("replay: %s %s", gpu, map[bool]string{true: "in stock", false: "sold out"}[in])
}

// onLine reads a replica's log line: polls, and the lines worth counting.
func (s *soak) onLine(idx int, line string, at time.Time) {
	l := parseLog(line)
	switch l.Msg {
	case "poll", "poll failed":
		p := pollLine{At: at, Replica: idx, OK: l.Msg == "poll"}
		p.Subs, _ = strconv.Atoi(l.Attrs["subscriptions"])
		p.Alerts, _ = strconv.Atoi(l.Attrs["alerts"])
		p.Held, _ = strconv.Atoi(l.Attrs["held"])
		s.mu.Lock()
		s.polls = append(s.polls, p)
		s.mu.Unlock()
	}
	key := ""
	for _, w := range watched {
		if strings.Contains(line, w) {
			key = w
			break
		}
	}
	if key == "" && l.Level == "ERROR" {
		key = "ERROR " + l.Msg
	}
	if key == "" {
		return
	}
	s.mu.Lock()
	s.noteCount[key]++
	if len(s.notable[key]) < 6 {
		s.notable[key] = append(s.notable[key], noted{At: at, Replica: idx, Line: line})
	}
	s.mu.Unlock()
}

// subscribe creates the subscriptions through Feishu messages, before any
// fault: per GPU, some chats say "<GPU> 有货了提醒我".
func (s *soak) subscribe(ctx context.Context) error {
	per := 3
	if s.o.Short {
		per = 2
	}
	var ms []*sentMsg
	for _, g := range gpus {
		for i := 1; i <= per; i++ {
			chat := fmt.Sprintf("oc_soak_alert_%s_%d", g.ask, i)
			ms = append(ms, s.drv.Send(chat, g.ask+" 有货了提醒我", true))
			s.subs[chat] = subInfo{GPU: g.name}
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, m := range ms {
		for {
			if a := s.answers(m.ID); len(a) > 0 {
				if !strings.Contains(a[0], "已订阅") {
					return fmt.Errorf("subscription in %s not confirmed: %s", m.Chat, a[0])
				}
				si := s.subs[m.Chat]
				si.Created = time.Now()
				s.subs[m.Chat] = si
				break
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				return fmt.Errorf("no answer to the subscription in %s", m.Chat)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	s.logf("soak: %d subscriptions made", len(ms))
	return nil
}

// answers returns the texts of the replies to message id so far.
func (s *soak) answers(id string) []string {
	var out []string
	for _, p := range s.fake.Posts() {
		if (p.Kind == "reply" && p.Target == id) && p.UUID != partUUID("interim:"+id) {
			out = append(out, p.Text)
		}
	}
	return out
}

// exercise runs the traffic, the replay changes and the faults for the
// run's duration.
func (s *soak) exercise(ctx context.Context) {
	s.start = time.Now()
	end := s.start.Add(s.o.Duration)
	ctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); s.traffic(ctx) }()
	go func() { defer wg.Done(); s.flips(ctx) }()
	go func() { defer wg.Done(); s.faults(ctx) }()
	wg.Wait()
	s.stop = time.Now()
}

// sleep waits d or until ctx ends; false when it ended.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func (s *soak) traffic(ctx context.Context) {
	chats := 8
	every := time.Duration(float64(time.Second) / s.o.Rate)
	for i := 0; ; i++ {
		s.drv.Send(fmt.Sprintf("oc_soak_q_%02d", i%chats), questions[i%len(questions)], false)
		if !sleep(ctx, every) {
			return
		}
	}
}

// flips changes the recordings: each GPU starts sold out, comes into
// stock, and then alternates, each state lasting 35-75 s (a poll every
// 30 s sees most of them; the report expects only those a poll saw).
// The recording time is rewritten every 10 s.
func (s *soak) flips(ctx context.Context) {
	type next struct {
		at  time.Time
		gpu string
	}
	var plan []next
	for i, g := range gpus {
		at := s.start.Add(time.Duration(2+2*i) * time.Second)
		if !s.o.Short {
			at = s.start.Add(time.Duration(8+17*i) * time.Second)
		}
		plan = append(plan, next{at, g.name})
	}
	fresh := time.NewTicker(10 * time.Second)
	defer fresh.Stop()
	for {
		sort.Slice(plan, func(a, b int) bool { return plan[a].at.Before(plan[b].at) })
		select {
		case <-ctx.Done():
			return
		case <-fresh.C:
			s.writeReplay()
			continue
		case <-time.After(time.Until(plan[0].at)):
		}
		s.mu.Lock()
		in := !s.state[plan[0].gpu]
		s.mu.Unlock()
		s.setState(plan[0].gpu, in)
		if s.o.Short {
			plan[0].at = s.start.Add(time.Hour) // one transition each
		} else {
			plan[0].at = time.Now().Add(35*time.Second + time.Duration(s.rng.Int64N(int64(40*time.Second))))
		}
	}
}

// faults is the chaos schedule. A full run cycles, one fault every 14 s:
// replica kill, Redis SIGKILL, replica kill, Redis pause (SIGSTOP),
// replica kill and restart while Redis is down, Redis SHUTDOWN. A short
// run does one of each kind, 4 s apart, from 3 s on.
func (s *soak) faults(ctx context.Context) {
	kinds := []string{"replica-kill", "redis-kill", "replica-kill", "redis-pause", "replica-restart-redis-down", "redis-shutdown"}
	gap := 14 * time.Second
	first := 6 * time.Second
	if s.o.Short {
		gap, first = 4*time.Second, 3*time.Second
		kinds = []string{"replica-kill", "redis-kill", "redis-pause", "replica-restart-redis-down", "redis-shutdown"}
	}
	if !sleep(ctx, first) {
		return
	}
	for i := 0; ; i++ {
		if s.o.Short && i >= len(kinds) {
			return
		}
		t := time.Now()
		s.fault(ctx, kinds[i%len(kinds)])
		if !sleep(ctx, gap-time.Since(t)) {
			return
		}
	}
}

// dur is a random duration in [lo, hi]; a short run halves it (at
// least a second).
func (s *soak) dur(lo, hi time.Duration) time.Duration {
	if s.o.Short {
		lo, hi = max(lo/2, time.Second), max(hi/2, time.Second)
	}
	return lo + time.Duration(s.rng.Int64N(int64(hi-lo)+1))
}

func (s *soak) fault(ctx context.Context, kind string) {
	ev := chaosEvent{Kind: kind, Start: time.Now()}
	down := func(pause bool) {
		s.mu.Lock()
		s.unhealthy = append(s.unhealthy, [2]time.Time{time.Now(), {}})
		s.mu.Unlock()
	}
	up := func() {
		s.mu.Lock()
		s.unhealthy[len(s.unhealthy)-1][1] = time.Now()
		s.mu.Unlock()
	}
	restartRedis := func() {
		if err := s.redis.Start(); err != nil {
			s.logf("soak: redis restart: %v", err)
		}
		up()
	}
	switch kind {
	case "replica-kill":
		r := s.replicas[s.rng.IntN(len(s.replicas))]
		ev.Replica = r.idx
		r.Kill()
		sleep(context.Background(), s.dur(time.Second, 3*time.Second))
		r.Start()
	case "redis-kill", "redis-shutdown":
		down(false)
		if kind == "redis-kill" {
			s.redis.Kill()
		} else {
			s.redis.Shutdown()
		}
		sleep(context.Background(), s.dur(3*time.Second, 8*time.Second))
		restartRedis()
	case "redis-pause":
		down(true)
		s.redis.Pause(true)
		sleep(context.Background(), s.dur(2*time.Second, 6*time.Second))
		s.redis.Pause(false)
		for i := 0; i < 50 && s.redis.ping(200*time.Millisecond) != nil; i++ {
		}
		up()
	case "replica-restart-redis-down":
		// A node reboot: Redis and a replica go down, the replica comes
		// back before Redis does.
		r := s.replicas[s.rng.IntN(len(s.replicas))]
		ev.Replica = r.idx
		down(false)
		s.redis.Kill()
		r.Kill()
		sleep(context.Background(), time.Second)
		r.Start()
		sleep(context.Background(), s.dur(4*time.Second, 7*time.Second))
		restartRedis()
	}
	ev.End = time.Now()
	s.mu.Lock()
	s.chaos = append(s.chaos, ev)
	s.mu.Unlock()
	s.logf("chaos: %s replica=%d for %v", kind, ev.Replica, ev.End.Sub(ev.Start).Round(10*time.Millisecond))
}

// drain stops the traffic, waits for every delivery to end and for the
// answers to arrive (at most 30 s after the last acknowledgement), then
// for a poll after the faults.
func (s *soak) drain(ctx context.Context) {
	for _, r := range s.replicas {
		if !r.Up() {
			r.Start()
		}
	}
	s.drv.Wait()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		missing := 0
		answered := s.answeredSet()
		for _, m := range s.drv.Msgs() {
			if !m.Acked.IsZero() && !answered[m.ID] {
				missing++
			}
		}
		if missing == 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	// Wait for a poll after the faults (the lock holder's next run, at
	// most a poll interval away), so that the last stock states are
	// checked too; a poll that just ran may still be sending its alerts.
	for deadline := time.Now().Add(pollEvery + 5*time.Second); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(200 * time.Millisecond) {
		if s.polledSince(s.stop) {
			break
		}
	}
	time.Sleep(2 * time.Second)
	s.logf("soak: drained")
}

// polledSince reports whether a successful poll with every subscription
// ran after t.
func (s *soak) polledSince(t time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.polls {
		if p.OK && p.Subs >= len(s.subs) && p.At.After(t) {
			return true
		}
	}
	return false
}

func (s *soak) answeredSet() map[string]bool {
	out := map[string]bool{}
	for id, a := range classify(s.fake.Posts()) {
		if a.answers > 0 {
			out[id] = true
		}
	}
	return out
}

func (s *soak) shutdown() {
	var wg sync.WaitGroup
	for _, r := range s.replicas {
		wg.Add(1)
		go func() { defer wg.Done(); r.Stop() }()
	}
	wg.Wait()
	if s.redis != nil {
		s.redis.Pause(false)
		s.redis.Shutdown()
		s.redis.log.Close()
	}
	if s.fake != nil {
		s.fake.Close()
	}
}
