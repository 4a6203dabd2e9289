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

	"github.com/labgpu/bot/tools/soak/fakes"
	"github.com/labgpu/bot/tools/soak/procs"
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
	// Hang is how the hung platform (vast.ai) behaves: "stretches" hangs
	// for 60-150 s at a time with 15-40 s of answers between, "whole"
	// hangs for the whole run (what a short run does).
	Hang string
	Log  io.Writer
}

// Poll and alert settings the replicas run with: the fastest schedule the
// config accepts (jobs.MinInterval), a short poll lock so that a killed
// holder's lock frees quickly (the config's minimum is 3 s), and a
// cooldown that never holds an alert back in the soak.
//
// A fetch gives up after stockTimeout (the hung platform's fetches end
// there); an answer waits for a platform at most answerBudget and then
// answers from the last snapshot, naming it late; data older than maxAge
// is fetched again for an answer; a platform's breaker opens after five
// failed fetches in a row, for breakerOpen.
const (
	pollEvery    = 30 * time.Second
	pollLock     = 6 * time.Second
	jitter       = time.Second
	stockTimeout = 6 * time.Second
	answerBudget = 2 * time.Second
	maxAge       = 10 * time.Second
	breakerOpen  = 15 * time.Second
)

// track is one GPU on one platform whose stock the soak flips between in
// stock and sold out: AutoDL's through the replay recording, RunPod's
// (the flapping platform) and vast.ai's (the hung one) through their fake
// APIs.
type track struct {
	platform string // provider and catalog id
	gpu      string // as in the recordings
	ask      string // as a user names it in a subscription, before phrases.Subscribe
	free     int    // AutoDL: the idle count written while in stock
	// soldOutSeen: the platform says sold out. vast.ai lists only what
	// is rentable, so a missing row is unknown (never a transition): once
	// its alert went out, none follows.
	soldOutSeen bool
}

func (t track) key() string { return t.platform + "/" + t.gpu }

var tracks = []track{
	{platform: "autodl", gpu: "RTX 4090", ask: "AutoDL 4090", free: 12, soldOutSeen: true},
	{platform: "autodl", gpu: "RTX 3090", ask: "AutoDL 3090", free: 3, soldOutSeen: true},
	{platform: "runpod", gpu: "RTX 4090", ask: "RunPod 4090", soldOutSeen: true},
	{platform: "vastai", gpu: "RTX 4090", ask: "vast.ai 4090"},
}

// replayProvider is the provider that reads the AutoDL recording.
const replayProvider = "replay"

// chaosEvent is one fault the soak injected.
type chaosEvent struct {
	Kind    string    `json:"kind"` // replica-kill, redis-kill, redis-shutdown, redis-pause, replica-restart-redis-down
	Replica int       `json:"replica,omitempty"`
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"` // back up (Redis answers PING, the replica started)
}

// transition is a change of a track's stock: written to the replay
// recording, or answered by a fake platform from then on.
type transition struct {
	Track   string
	At      time.Time
	InStock bool
}

// pollLine is a replica's "poll" (or "poll failed") log line.
type pollLine struct {
	At      time.Time
	Replica int
	Start   int // the replica process's start number
	OK      bool
	Subs    int
	Alerts  int
	Held    int
	// Fetched is, per provider, what the poll decided on (its fetched
	// attribute): nil from a bot that does not say.
	Fetched map[string]fetched
}

// fetched is one provider's part of a poll: a good fetch and its time.
type fetched struct {
	OK bool
	At time.Time
}

// noted is a log line worth reporting.
type noted struct {
	At      time.Time `json:"at"`
	Replica int       `json:"replica"`
	Line    string    `json:"line"`
}

type soak struct {
	o         options
	dir       string
	replay    string
	fake      *fakes.Feishu
	redis     *procs.Redis
	replicas  []*procs.Replica
	drv       *driver
	rng       *rand.Rand // the fault schedule's
	hung      *fakes.Platform
	flapping  *fakes.Platform
	runpodKey string

	mu          sync.Mutex
	chaos       []chaosEvent
	unhealthy   [][2]time.Time // Redis stopped or paused (end zero: ongoing)
	transitions []transition
	state       map[string]bool // by track key
	polls       []pollLine
	probes      []probe
	notable     map[string][]noted // by message
	noteCount   map[string]int
	subs        map[string]subInfo // chat → subscription
	start, stop time.Time
}

type subInfo struct {
	Track   track
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
	bin, err := s.buildBot(ctx)
	if err != nil {
		return err
	}
	if s.fake, err = fakes.NewFeishu(filepath.Join(s.o.Fixtures, "feishu")); err != nil {
		return err
	}
	if s.redis, err = procs.NewRedis(s.o.RedisBin, filepath.Join(s.dir, "redis"), s.o.RedisPersist); err != nil {
		return err
	}
	if err := s.redis.Start(); err != nil {
		return err
	}
	s.replay = filepath.Join(s.dir, "replay")
	if err := os.MkdirAll(s.replay, 0o700); err != nil {
		return err
	}
	for _, t := range tracks {
		s.state[t.key()] = false
	}
	if err := s.writeReplay(); err != nil {
		return err
	}
	if err := s.platforms(); err != nil {
		return err
	}
	if err := s.startReplicas(bin); err != nil {
		return err
	}
	s.drv, err = newDriver(filepath.Join(s.o.Fixtures, "feishu"), s.replicas, s.fake)
	s.logf("soak: redis on :%d (appendfsync %s), %d replicas, fake Feishu %s, vast.ai (hung) %v, RunPod (flapping) %v, dir %s",
		s.redis.Port, s.o.RedisPersist, len(s.replicas), s.fake.URL, s.hung.URLs, s.flapping.URLs, s.dir)
	return err
}

// buildBot returns the bot binary: the one given, or ./cmd/bot built
// into the run's directory.
func (s *soak) buildBot(ctx context.Context) (string, error) {
	if s.o.BotBin != "" {
		return s.o.BotBin, nil
	}
	bin := filepath.Join(s.dir, "bot")
	t := time.Now()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/bot")
	cmd.Dir = s.o.ModuleRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/bot: %v\n%s", err, out)
	}
	s.logf("soak: built the bot in %v", time.Since(t).Round(time.Millisecond))
	return bin, nil
}

// startReplicas starts the replicas of bin, each with its directory,
// config and listen port, and waits until each is healthy.
func (s *soak) startReplicas(bin string) error {
	for i := 0; i < s.o.Replicas; i++ {
		r, err := s.newReplica(i, bin)
		if err != nil {
			return err
		}
		s.replicas = append(s.replicas, r)
	}
	rs := make([]fakes.Replica, len(s.replicas))
	for i, r := range s.replicas {
		rs[i] = r
	}
	s.hung.Attach(rs)
	s.flapping.Attach(rs)
	for _, r := range s.replicas {
		if err := r.Start(); err != nil {
			return err
		}
	}
	for _, r := range s.replicas {
		if err := r.WaitHealthy(30 * time.Second); err != nil {
			return err
		}
	}
	return nil
}

// newReplica prepares replica i: its directory, its config (with its own
// listener on each fake platform, so the platform knows which replica
// asked) and its environment.
func (s *soak) newReplica(i int, bin string) (*procs.Replica, error) {
	port, err := procs.FreePort()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(s.dir, fmt.Sprintf("replica-%d", i))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(replicaConfig(s.hung.URLs[i], s.flapping.URLs[i])), 0o600); err != nil {
		return nil, err
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TZ=UTC", "BOT_CONFIG=" + cfg, "BOT_DATA_DIR=" + dir,
		"BOT_HTTP_ADDR=127.0.0.1:" + strconv.Itoa(port), "REDIS_URL=" + s.redis.URL(), "BOT_REPLAY_DIR=" + s.replay,
		"RUNPOD_API_KEY=" + s.runpodKey,
		"FEISHU_APP_ID=" + fakes.AppID, "FEISHU_APP_SECRET=soak-secret", "FEISHU_VERIFICATION_TOKEN=" + verificationToken,
		"FEISHU_ENCRYPT_KEY=" + encryptKey, "FEISHU_MODE=webhook", "FEISHU_BASE_URL=" + s.fake.URL}
	return &procs.Replica{Idx: i, Bin: bin, Env: env, Port: port, Dir: dir, OnLine: s.onLine}, nil
}

// platforms starts the fake platform APIs: vast.ai, which hangs, and
// RunPod, which flaps.
func (s *soak) platforms() error {
	vast, err := fakes.VastBody(s.o.Fixtures)
	if err != nil {
		return err
	}
	runpod, err := fakes.RunPodBody(s.o.Fixtures)
	if err != nil {
		return err
	}
	if s.hung, err = fakes.NewPlatform(fakesSoak{s}, "vastai", "vast.ai", "hung", s.o.Replicas, vast, nil, ""); err != nil {
		return err
	}
	s.hung.SetMode(fakes.ModeHang) // from before the replicas start
	s.runpodKey = "soak-" + randomHex(8)
	s.flapping, err = fakes.NewPlatform(fakesSoak{s}, "runpod", "RunPod", "flapping", s.o.Replicas, runpod, fakes.RunPodCloud, s.runpodKey)
	return err
}

// replicaConfig is a replica's config, with its own URLs of the fake
// platforms; the environment adds the store, Feishu, the replay
// directory, RunPod's API key and the listen address.
func replicaConfig(vastURL, runpodURL string) string {
	return fmt.Sprintf(`# written by tools/soak
store:
  prefix: "soak:"
stock:
  timeout: %s
  max_age: %s
  answer_budget: %s
  breaker:
    failures: 5
    open_for: %s
  providers:
    autodl: {enabled: false}
    vastai:
      enabled: true
      base_url: %s
    gpushare: {enabled: false}
    matpool: {enabled: false}
    runpod:
      base_url: %s
    lambda: {enabled: false}
  poll:
    schedule: "@every %s"
    jitter: %s
    lock_ttl: %s
alerts:
  cooldown: 1s
log:
  level: info
`, stockTimeout, maxAge, answerBudget, breakerOpen, vastURL, runpodURL, pollEvery, jitter, pollLock)
}

// writeReplay writes the AutoDL stock recording of the current state and
// a fresh RECORDED_AT, each by rename so a poll never reads half a file.
func (s *soak) writeReplay() error {
	s.mu.Lock()
	var rows []map[string]any
	for _, t := range tracks {
		if t.platform != "autodl" {
			continue
		}
		free := 0
		if s.state[t.key()] {
			free = t.free
		}
		rows = append(rows, map[string]any{t.gpu: map[string]int{"idle_gpu_num": free, "total_gpu_num": 40}})
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

// setState flips a track and records the transition: a fake platform
// answers the new state from the transition's time on (both under s.mu);
// the replay recording is written before it (a poll that read the file
// since is a moment early, which the analysis allows for).
func (s *soak) setState(t track, in bool) {
	if t.platform == "autodl" {
		s.mu.Lock()
		s.state[t.key()] = in
		s.mu.Unlock()
		if err := s.writeReplay(); err != nil {
			s.logf("soak: write replay: %v", err)
		}
	}
	s.mu.Lock()
	s.state[t.key()] = in
	s.transitions = append(s.transitions, transition{Track: t.key(), At: time.Now(), InStock: in})
	s.mu.Unlock()
	s.logf("stock: %s %s %s", t.platform, t.gpu, map[bool]string{true: "in stock", false: "sold out"}[in])
}

// platformState is what a fake platform answers now: per GPU, in stock
// or not and the state's period (its transitions so far).
func (s *soak) platformState(platform string) (map[string]bool, map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, periods := map[string]bool{}, map[string]int{}
	for _, t := range tracks {
		if t.platform != platform {
			continue
		}
		in[t.gpu] = s.state[t.key()]
		for _, tr := range s.transitions {
			if tr.Track == t.key() {
				periods[t.gpu]++
			}
		}
	}
	return in, periods
}

// onLine reads a replica's log line: polls, and the lines worth counting.
func (s *soak) onLine(idx, start int, line string, at time.Time) {
	l := procs.ParseLog(line)
	switch l.Msg {
	case "poll", "poll failed":
		p := pollLine{At: at, Replica: idx, Start: start, OK: l.Msg == "poll"}
		p.Subs, _ = strconv.Atoi(l.Attrs["subscriptions"])
		p.Alerts, _ = strconv.Atoi(l.Attrs["alerts"])
		p.Held, _ = strconv.Atoi(l.Attrs["held"])
		if f, ok := l.Attrs["fetched"]; ok {
			p.Fetched = parseFetched(f)
		}
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

// parseFetched reads a poll line's fetched attribute
// ("replay:ok@2025-06-01T10:00:00.12Z vastai:stale/open").
func parseFetched(v string) map[string]fetched {
	out := map[string]fetched{}
	for _, part := range strings.Fields(v) {
		name, rest, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		rest, _, _ = strings.Cut(rest, "/")
		status, at, _ := strings.Cut(rest, "@")
		f := fetched{OK: status == "ok"}
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
			f.At = t
		} else {
			f.OK = false // a good fetch without its time says nothing usable
		}
		out[name] = f
	}
	return out
}

// subscribe creates the subscriptions through Feishu messages, before any
// fault: per track, some chats say "<platform> <GPU> 有货了提醒我"
// (phrases.json).
func (s *soak) subscribe(ctx context.Context) error {
	per := 3
	if s.o.Short {
		per = 2
	}
	var ms []*sentMsg
	for _, t := range tracks {
		for i := 1; i <= per; i++ {
			chat := fmt.Sprintf("oc_soak_alert_%s_%s_%d", t.platform, strings.TrimPrefix(t.gpu, "RTX "), i)
			ms = append(ms, s.drv.Send(chat, t.ask+" "+phrases.Subscribe, true))
			s.subs[chat] = subInfo{Track: t}
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, m := range ms {
		for {
			if a := s.answers(m.ID); len(a) > 0 {
				if !strings.Contains(a[0], phrases.Subscribed) {
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

// answers returns the texts of the answers to message id so far: its
// replies, and its "查询中…" card once replaced by an answer.
func (s *soak) answers(id string) []string {
	var out []string
	interim := ""
	for _, p := range s.fake.Posts() {
		switch {
		case p.Kind == "reply" && p.Target == id && p.UUID == partUUID("interim:"+id):
			interim = p.MessageID
		case p.Kind == "reply" && p.Target == id:
			out = append(out, p.Text)
		case p.Kind == "patch" && interim != "" && p.Target == interim && !containsAny(p.Text, phrases.NotAnAnswer):
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
	wg.Go(func() { s.traffic(ctx) })
	wg.Go(func() { s.flips(ctx) })
	wg.Go(func() { s.faults(ctx) })
	wg.Go(func() { s.hangSchedule(ctx, s.hung, s.o.Hang == "stretches") })
	wg.Go(func() { s.flapSchedule(ctx, s.flapping, s.o.Short) })
	for _, r := range s.replicas {
		wg.Go(func() { s.probeReady(ctx, r) })
	}
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
		s.drv.Send(fmt.Sprintf("oc_soak_q_%02d", i%chats), phrases.Questions[i%len(phrases.Questions)], false)
		if !sleep(ctx, every) {
			return
		}
	}
}

// flips changes the stock: each track starts sold out, comes into
// stock, and then alternates, each state lasting 35-75 s (a poll every
// 30 s sees most of them; the report expects only those a poll saw).
// The recording time is rewritten every 10 s.
func (s *soak) flips(ctx context.Context) {
	rng := s.stream("flips")
	type next struct {
		at time.Time
		t  track
	}
	var plan []next
	for i, t := range tracks {
		at := s.start.Add(time.Duration(2+2*i) * time.Second)
		if !s.o.Short {
			at = s.start.Add(time.Duration(8+17*i) * time.Second)
		}
		plan = append(plan, next{at, t})
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
		in := !s.state[plan[0].t.key()]
		s.mu.Unlock()
		s.setState(plan[0].t, in)
		if s.o.Short {
			plan[0].at = s.start.Add(time.Hour) // one transition each
		} else {
			plan[0].at = time.Now().Add(35*time.Second + time.Duration(rng.Int64N(int64(40*time.Second))))
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

// dur is a random duration in [lo, hi] of the fault schedule; a short
// run halves it (at least a second).
func (s *soak) dur(lo, hi time.Duration) time.Duration { return s.durWith(s.rng, lo, hi) }

func (s *soak) durWith(rng *rand.Rand, lo, hi time.Duration) time.Duration {
	if s.o.Short {
		lo, hi = max(lo/2, time.Second), max(hi/2, time.Second)
	}
	return lo + time.Duration(rng.Int64N(int64(hi-lo)+1))
}

// stream is a random source of its own for one schedule (each runs in
// its own goroutine), drawn from the seed and the schedule's name.
func (s *soak) stream(name string) *rand.Rand {
	h := uint64(14695981039346656037)
	for _, c := range []byte(name) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return rand.New(rand.NewPCG(s.o.Seed, h))
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
		ev.Replica = r.Idx
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
		for i := 0; i < 50 && s.redis.Ping(200*time.Millisecond) != nil; i++ {
		}
		up()
	case "replica-restart-redis-down":
		// A node reboot: Redis and a replica go down, the replica comes
		// back before Redis does.
		r := s.replicas[s.rng.IntN(len(s.replicas))]
		ev.Replica = r.Idx
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
	// The poll waits for every platform: the hung one's fetch ends at
	// its timeout.
	for deadline := time.Now().Add(pollEvery + stockTimeout + 5*time.Second); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(200 * time.Millisecond) {
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
		s.redis.Close()
	}
	if s.fake != nil {
		s.fake.Close()
	}
	for _, p := range []*fakes.Platform{s.hung, s.flapping} {
		if p != nil {
			p.Close()
		}
	}
}
