// Command hangload measures `bot serve` while one platform hangs (issue
// 26): it starts `bot serve` in Feishu webhook mode against a fake open
// platform, with two platforms on loopback — RunPod answering its
// recorded catalog and vast.ai answering its recorded bundles once, then
// accepting every request and never answering — and, once vast.ai's data
// is older than stock.max_age, sends N questions ("哪家有4090") together
// to the callback while probing /readyz every 100 ms. It reports when each question
// got its answer (the first message or card update that is not "查询中…"),
// whether the answer names vast.ai as late, /readyz's latencies and
// status, how many requests vast.ai saw and how many at once, and then
// how many answers were updated in place when vast.ai's fetch ended (its
// timeout).
//
//	go run ./tools/hangload                 # 6 questions, 20 probes
//	go run ./tools/hangload -questions 12 -v
//
// It exits 1 when a target of the issue is missed (every answer within
// 3 s and stale-marked, /readyz under 100 ms, one request at a time),
// 2 when it could not run.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
)

type options struct {
	questions, probes int
	maxAge, timeout   time.Duration
	fixtures, bot     string
	verbose           bool
}

func main() {
	var o options
	flag.IntVar(&o.questions, "questions", 6, "questions sent together")
	flag.IntVar(&o.probes, "probes", 20, "at least this many /readyz probes (one every 100 ms for the whole run)")
	flag.DurationVar(&o.maxAge, "max-age", 3*time.Second, "the bot's stock.max_age (how old data may be before an answer fetches)")
	flag.DurationVar(&o.timeout, "timeout", 15*time.Second, "the bot's stock.timeout (when the hung fetch gives up)")
	flag.StringVar(&o.fixtures, "fixtures", "", "the recordings directory (default testdata/ of the module)")
	flag.StringVar(&o.bot, "bot", "", "a built bot binary (default: go build ./cmd/bot)")
	flag.BoolVar(&o.verbose, "v", false, "show the bot's log")
	flag.Parse()
	if o.fixtures == "" {
		root, err := moduleRoot()
		if err != nil {
			fmt.Fprintln(os.Stderr, "hangload:", err)
			os.Exit(2)
		}
		o.fixtures = filepath.Join(root, "testdata")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hangload:", err)
		os.Exit(2)
	}
	if !rep.print(os.Stdout, o) {
		os.Exit(1)
	}
}

// platform is a platform API on loopback answering body; hung, it
// accepts requests and never answers (until the client gives up),
// counting requests and the most at once.
type platform struct {
	*httptest.Server
	hung            atomic.Bool
	requests, maxIn atomic.Int64
	inFlight        atomic.Int64
}

func newPlatform(body []byte) *platform {
	p := &platform{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // only then is a client that gave up noticed
		p.requests.Add(1)
		n := p.inFlight.Add(1)
		defer p.inFlight.Add(-1)
		for m := p.maxIn.Load(); n > m && !p.maxIn.CompareAndSwap(m, n); m = p.maxIn.Load() {
		}
		if p.hung.Load() {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	return p
}

// answer is one question's outcome.
type answer struct {
	id        string
	after     time.Duration // from sending to the first real answer
	late      bool          // it names vast.ai as late or unreachable
	updated   bool          // replaced in place once vast.ai's fetch ended
	updatedAt time.Duration
}

type report struct {
	answers      []answer
	ready        []time.Duration
	readyCodes   map[string]int
	vastRequests int64 // while the questions were answered
	vastAll      int64 // until the end of the run
	vastMaxIn    int64
	updateWait   time.Duration
}

func run(ctx context.Context, o options) (*report, error) {
	dir, err := os.MkdirTemp("", "hangload-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	r, err := newRig(ctx, o, dir)
	if err != nil {
		return nil, err
	}
	defer r.close()
	// Ready after the start-up poll: both platforms answered once.
	if err := waitFor(ctx, 30*time.Second, func() bool {
		code, body, _ := get(r.base + "/readyz")
		return code == http.StatusOK && strings.Contains(body, `"status": "ready"`) && r.vast.requests.Load() >= 1
	}); err != nil {
		return nil, fmt.Errorf("bot serve not ready with both platforms answering: %w\n%s", err, r.logs.String())
	}
	r.vast.hung.Store(true)
	hungFrom := r.vast.requests.Load()
	// vast.ai's data is now older than max_age: the next question fetches.
	time.Sleep(o.maxAge + time.Second)

	rep := &report{readyCodes: map[string]int{}}
	var mu sync.Mutex
	sent, err := r.ask(ctx, &mu)
	if err != nil {
		return nil, err
	}
	// /readyz every 100 ms while the questions are answered, vast.ai
	// hangs and its fetch ends.
	probing, probed := make(chan struct{}), make(chan struct{})
	go r.probe(rep, &mu, probing, probed)
	r.asked.Wait()
	_ = waitFor(ctx, 10*time.Second, func() bool { return len(answers(r.fake.Messages(), sent)) == o.questions })
	rep.answers = answers(r.fake.Messages(), sent)
	rep.vastRequests, rep.vastMaxIn = r.vast.requests.Load()-hungFrom, r.vast.maxIn.Load()
	// vast.ai's fetch ends at its timeout: the answers are updated in place.
	t := time.Now()
	_ = waitFor(ctx, o.timeout+15*time.Second, func() bool { return updated(answers(r.fake.Messages(), sent)) == o.questions })
	rep.updateWait = time.Since(t)
	close(probing)
	<-probed
	rep.answers = answers(r.fake.Messages(), sent)
	rep.vastMaxIn = r.vast.maxIn.Load()
	rep.vastAll = r.vast.requests.Load() - hungFrom
	return rep, nil
}

// rig is one run's set-up: the fake platforms and Feishu, and bot serve
// pointed at them.
type rig struct {
	o            options
	vast, runpod *platform
	fake         *feishutest.Server
	key, base    string
	cmd          *exec.Cmd
	logs         bytes.Buffer
	asked        sync.WaitGroup
}

// newRig builds the bot when none is given, starts the fakes and bot
// serve in webhook mode with vast.ai and RunPod pointed at the fakes.
func newRig(ctx context.Context, o options, dir string) (*rig, error) {
	if o.bot == "" {
		o.bot = filepath.Join(dir, "bot")
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", o.bot, "./cmd/bot").CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build ./cmd/bot: %v\n%s", err, out)
		}
	}
	r := &rig{o: o, key: rand.Text()}
	if err := r.startFakes(); err != nil {
		r.close()
		return nil, err
	}
	if err := r.startBot(dir); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// startFakes starts vast.ai and RunPod with their recorded answers, and
// the fake Feishu.
func (r *rig) startFakes() error {
	read := func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(r.o.fixtures, rel)) }
	vastBody, err := read("stock/vastai-bundles.json")
	if err != nil {
		return err
	}
	runpodBody, err := read("stock-verbatim/runpod-rest-v2-catalog-gpus-1.json")
	if err != nil {
		return err
	}
	r.vast, r.runpod = newPlatform(vastBody), newPlatform(runpodBody)
	r.fake, err = feishutest.NewServer(filepath.Join(r.o.fixtures, "feishu"))
	return err
}

// startBot writes the config and starts bot serve.
func (r *rig) startBot(dir string) error {
	token, err := fixtureToken(filepath.Join(r.o.fixtures, "feishu", "event_im_message_receive_group_at_bot.json"))
	if err != nil {
		return err
	}
	cfg := filepath.Join(dir, "config.yaml")
	yaml := fmt.Sprintf(`stock:
  timeout: %s
  max_age: %s
  poll:
    schedule: "@every 1h"
    jitter: 0s
    retries: 0
  providers:
    vastai:
      enabled: true
      base_url: %s
      timeout: %s
    runpod:
      base_url: %s
`, r.o.timeout, r.o.maxAge, r.vast.URL, r.o.timeout, r.runpod.URL)
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		return err
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	r.base = "http://" + addr
	r.cmd = exec.Command(r.o.bot, "serve")
	r.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TZ=UTC", "BOT_CONFIG=" + cfg, "BOT_DATA_DIR=" + filepath.Join(dir, "data"),
		"BOT_HTTP_ADDR=" + addr, "RUNPOD_API_KEY=hangload",
		"FEISHU_APP_ID=cli_hangload", "FEISHU_APP_SECRET=s", "FEISHU_VERIFICATION_TOKEN=" + token, "FEISHU_ENCRYPT_KEY=" + r.key,
		"FEISHU_MODE=webhook", "FEISHU_BASE_URL=" + r.fake.URL}
	r.cmd.Stderr = &r.logs
	if r.o.verbose {
		r.cmd.Stderr = os.Stderr
	}
	if err := r.cmd.Start(); err != nil {
		r.cmd = nil
		return err
	}
	return nil
}

// close stops the bot and the fakes.
func (r *rig) close() {
	if r.cmd != nil {
		stopProc(r.cmd)
	}
	for _, p := range []*platform{r.vast, r.runpod} {
		if p != nil {
			p.Close()
		}
	}
	if r.fake != nil {
		r.fake.Close()
	}
}

// ask posts the questions together, signed and encrypted as Feishu
// sends them, and returns when each was sent (r.asked ends when all
// were posted).
func (r *rig) ask(ctx context.Context, mu *sync.Mutex) (map[string]time.Time, error) {
	sent := make(map[string]time.Time, r.o.questions)
	client := &http.Client{Timeout: 10 * time.Second}
	for i := range r.o.questions {
		id := fmt.Sprintf("om_hang_%d_%d", time.Now().UnixNano(), i)
		plain, err := feishutest.GroupEvent(filepath.Join(r.o.fixtures, "feishu"), "ev_"+id, id, phrases.Question)
		if err != nil {
			return nil, err
		}
		body, hdr := feishutest.Seal(plain, r.key, time.Now())
		r.asked.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, r.base+"/feishu/events", bytes.NewReader(body))
			for k, v := range hdr {
				req.Header.Set(k, v)
			}
			mu.Lock()
			sent[id] = time.Now()
			mu.Unlock()
			if resp, err := client.Do(req); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	return sent, nil
}

// probe asks /readyz every 100 ms until probing closes and at least
// o.probes were made, recording each time and status in rep.
func (r *rig) probe(rep *report, mu *sync.Mutex, probing <-chan struct{}, probed chan<- struct{}) {
	defer close(probed)
	for n := 0; ; n++ {
		select {
		case <-probing:
			if n >= r.o.probes {
				return
			}
		default:
		}
		t := time.Now()
		code, body, err := get(r.base + "/readyz")
		took := time.Since(t)
		status := "error"
		if err == nil {
			status = fmt.Sprintf("%d %s", code, readyStatus(body))
		}
		mu.Lock()
		rep.ready = append(rep.ready, took)
		rep.readyCodes[status]++
		mu.Unlock()
		time.Sleep(100 * time.Millisecond)
	}
}

// updated counts the answers whose card was updated with fresh data.
func updated(as []answer) int {
	n := 0
	for _, a := range as {
		if a.updated {
			n++
		}
	}
	return n
}

// answers reads, from what the fake Feishu received, each question's
// first real answer: its reply, or the update of that reply's card that
// is not "查询中…"; and a later update of the same card.
func answers(msgs []feishutest.Sent, sent map[string]time.Time) []answer {
	var out []answer
	for id, at := range sent {
		a := answer{id: id}
		card := ""
		for _, m := range msgs {
			switch {
			case m.Method != http.MethodPatch && strings.Contains(m.Path, "/"+id+"/reply") && card == "":
				card = m.MessageID
				if !strings.Contains(m.Content, phrases.Interim) {
					a.after, a.late = m.At.Sub(at), lateText(m.Content)
				}
			case m.Method == http.MethodPatch && card != "" && m.MessageID == card && !strings.Contains(m.Content, phrases.Interim):
				if a.after == 0 {
					a.after, a.late = m.At.Sub(at), lateText(m.Content)
				} else if !a.updated {
					a.updated, a.updatedAt = true, m.At.Sub(at)
				}
			}
		}
		if a.after > 0 {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(x, y answer) int { return int(x.after - y.after) })
	return out
}

func lateText(content string) bool {
	for _, w := range phrases.Late {
		if strings.Contains(content, w) {
			return true
		}
	}
	return false
}

// phrases are the load's question and the words of the bot's answers it
// looks for (phrases.json): the interim "查询中…" and a late platform's
// note.
var phrases = func() (p struct {
	Question string   `json:"question"`
	Interim  string   `json:"interim"`
	Late     []string `json:"late"`
}) {
	if err := json.Unmarshal(phrasesJSON, &p); err != nil || p.Question == "" || p.Interim == "" || len(p.Late) == 0 {
		panic(fmt.Sprintf("hangload: phrases.json: %v", err))
	}
	return p
}()

//go:embed phrases.json
var phrasesJSON []byte

// print writes the figures and reports whether the targets hold.
func (r *report) print(w io.Writer, o options) bool {
	ok := true
	fmt.Fprintf(w, "questions sent together: %d; answered: %d\n", o.questions, len(r.answers))
	var worst time.Duration
	late := 0
	for _, a := range r.answers {
		worst = max(worst, a.after)
		if a.late {
			late++
		}
		fmt.Fprintf(w, "  %s  answered after %6.0f ms  names vast.ai late: %v  updated in place: %v", a.id, ms(a.after), a.late, a.updated)
		if a.updated {
			fmt.Fprintf(w, " (after %.1f s)", a.updatedAt.Seconds())
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "slowest answer: %.0f ms (target < 3000); stale-marked: %d of %d\n", ms(worst), late, o.questions)
	if len(r.answers) < o.questions || worst >= 3*time.Second || late < o.questions {
		ok = false
	}
	slices.Sort(r.ready)
	if n := len(r.ready); n > 0 {
		fmt.Fprintf(w, "/readyz: %d probes, p50 %.1f ms, max %.1f ms (target < 100); answers %v\n", n, ms(r.ready[n/2]), ms(r.ready[n-1]), r.readyCodes)
		if r.ready[n-1] >= 100*time.Millisecond {
			ok = false
		}
	}
	fmt.Fprintf(w, "vast.ai while hung: %d request(s) while the questions were answered, %d in the whole run, at most %d at once (target 1)\n", r.vastRequests, r.vastAll, r.vastMaxIn)
	if r.vastMaxIn != 1 {
		ok = false
	}
	updated := 0
	for _, a := range r.answers {
		if a.updated {
			updated++
		}
	}
	fmt.Fprintf(w, "updated in place after vast.ai's fetch ended (stock.timeout %s): %d of %d\n", o.timeout, updated, o.questions)
	if ok {
		fmt.Fprintln(w, "PASS")
	} else {
		fmt.Fprintln(w, "FAIL")
	}
	return ok
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func readyStatus(body string) string {
	var rd struct {
		Status   string   `json:"status"`
		Degraded []string `json:"degraded"`
	}
	if json.Unmarshal([]byte(body), &rd) != nil {
		return "?"
	}
	if len(rd.Degraded) > 0 {
		return rd.Status + " (" + strings.Join(rd.Degraded, ", ") + ")"
	}
	return rd.Status
}

func fixtureToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var ev struct {
		Header struct {
			Token string `json:"token"`
		} `json:"header"`
	}
	if err := json.Unmarshal(b, &ev); err != nil || ev.Header.Token == "" {
		return "", fmt.Errorf("%s: no header.token", path)
	}
	return ev.Header.Token, nil
}

func get(url string) (int, string, error) {
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

func waitFor(ctx context.Context, d time.Duration, cond func() bool) error {
	for deadline := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		if cond() {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			return errors.New("timed out")
		}
	}
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func stopProc(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// moduleRoot finds the directory of the bot's go.mod, from the working
// directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(b), "module github.com/labgpu/bot\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the github.com/labgpu/bot module")
		}
		dir = parent
	}
}
