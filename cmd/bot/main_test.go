package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/fixture"
	"github.com/labgpu/bot/internal/textgate"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
)

var botBin string

// TestMain builds the real binary once; the tests run it as a user would.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "botbin")
	if err != nil {
		panic(err)
	}
	botBin = filepath.Join(dir, "bot")
	if out, err := exec.Command("go", "build", "-o", botBin, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func run(t *testing.T, stdin string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(botBin, args...)
	var base []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "REDIS_URL=") && !strings.HasPrefix(kv, "FEISHU_") && !strings.HasPrefix(kv, "BOT_") {
			base = append(base, kv)
		}
	}
	cmd.Env = append(append(base, "BOT_DATA_DIR="+t.TempDir()), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestBadInputExits2(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("stock:\n  timout: 5s\n"), 0o600)
	// A lab's catalog directory whose advice.yaml has an unknown key.
	labDir := t.TempDir()
	for _, name := range []string{"catalog.yaml", "gpus.yaml", "models.yaml", "plans.yaml", "workloads.yaml", "advice.yaml"} {
		b, err := os.ReadFile(filepath.Join("../../configs", name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "advice.yaml" {
			b = bytes.Replace(b, []byte("\ntopics:\n"), []byte("\ntopics:\n  - bogus: 1\n"), 1)
		}
		os.WriteFile(filepath.Join(labDir, name), b, 0o600)
	}
	labAdvice := filepath.Join(t.TempDir(), "lab.yaml")
	os.WriteFile(labAdvice, []byte("catalog:\n  dir: "+labDir+"\n"), 0o600)
	sched := filepath.Join(t.TempDir(), "sched.yaml")
	os.WriteFile(sched, []byte("stock:\n  poll:\n    schedule: every two minutes\n"), 0o600)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"ask", "--nope", "x"}, "--nope"},
		{"bad format", []string{"ask", "--format", "xml", "哪家有4090"}, "--format"},
		{"bad config key", []string{"--config", bad, "ask", "帮助"}, "timout"},
		{"missing config", []string{"--config", "/nonexistent/c.yaml", "ask", "帮助"}, "c.yaml"},
		{"bad schedule, ask", []string{"--config", sched, "ask", "帮助"}, "stock.poll.schedule"},
		{"bad lab advice.yaml", []string{"--config", labAdvice, "ask", "帮助"}, `advice.yaml: line`},
		{"bad schedule, serve", []string{"--config", sched, "serve"}, "stock.poll.schedule"},
		{"estimate no model", []string{"estimate"}, "--model"},
		{"estimate bad method", []string{"estimate", "--params", "7", "--method", "dpo"}, "--method"},
		{"estimate unknown model", []string{"estimate", "--model", "FooLM"}, "--params"},
		{"poll without once", []string{"poll"}, "--once"},
		{"ask without question", []string{"ask"}, "question"},
		{"stray argument", []string{"poll", "--once", "now"}, "now"},
		{"unknown command", []string{"frobnicate"}, "frobnicate"},
		{"unknown storage subcommand", []string{"storage", "frob"}, "frob"},
		{"storage without subcommand", []string{"storage"}, "import"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := run(t, "", nil, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, stderr)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n"); lines != 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q: want one line naming %q", stderr, c.want)
			}
		})
	}
}

func TestAskJSON(t *testing.T) {
	out, stderr, code := run(t, "", nil, "ask", "--format", "json", "用4090做Qwen2.5-7B的QLoRA，5万条数据，3个epoch，大概多少钱")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if got["intent"] != "estimate" || got["model"] != "Qwen2.5-7B" || got["method"] != "qlora" || got["samples"] != 50000.0 || got["epochs"] != 3.0 {
		t.Errorf("parsed %v", got)
	}
	opts, _ := got["options"].([]any)
	if len(opts) == 0 {
		t.Fatalf("no cost options: %s", out)
	}
	first := opts[0].(map[string]any)
	for _, k := range []string{"platform", "gpu", "gpu_count", "hours", "gpu_cost_cny", "storage_cost_cny", "total_cny"} {
		if _, ok := first[k]; !ok {
			t.Errorf("option lacks %q: %v", k, first)
		}
	}
}

func TestEstimateCommand(t *testing.T) {
	out, stderr, code := run(t, "", nil, "estimate", "--model", "qwen2.5 7b", "--method", "qlora", "--samples", "50000", "--gpu", "4090", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Estimate struct {
			VRAM map[string]float64 `json:"vram_gb"`
			Fits []struct {
				GPU  string `json:"gpu"`
				Fits bool   `json:"fits"`
			} `json:"fits"`
		} `json:"estimate"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"weights", "gradients", "optimizer", "activations", "logits", "overhead", "total"} {
		if _, ok := got.Estimate.VRAM[k]; !ok {
			t.Errorf("vram_gb lacks %q", k)
		}
	}
	if len(got.Estimate.Fits) != 1 || got.Estimate.Fits[0].GPU != "RTX 4090" {
		t.Errorf("fits = %+v, want only the RTX 4090", got.Estimate.Fits)
	}
}

func TestConsoleAndPoll(t *testing.T) {
	out, _, code := run(t, "哪家有4090\nexit\n", nil)
	if code != 0 || !strings.Contains(out, "RTX 4090") {
		t.Fatalf("console exit %d:\n%s", code, out)
	}
	fixtures := fixture.Dir(fixture.Stock)
	out, stderr, code := run(t, "", []string{"BOT_REPLAY_DIR=" + fixtures}, "poll", "--once", "--format", "json")
	if code != 0 {
		t.Fatalf("poll exit %d: %s", code, stderr)
	}
	var got struct {
		Providers []struct{ Provider, Status string } `json:"providers"`
		Offers    []struct{ Platform, Source string } `json:"offers"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, o := range got.Offers {
		seen[o.Platform+"/"+o.Source] = true
	}
	if !seen["autodl/replay"] || !seen["vastai/replay"] || !seen["autodl/catalog"] {
		t.Errorf("poll offers: %v", seen)
	}
}

// TestServeBinary: `bot serve` with the Feishu environment and
// FEISHU_BASE_URL pointing at a fake answers a signed event by posting a
// reply, serves /healthz, and exits cleanly on SIGTERM.
func TestServeBinary(t *testing.T) {
	fake, err := feishutest.NewServer(fixture.Dir(fixture.Feishu))
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(botBin, "serve")
	cmd.Env = append(os.Environ(), "BOT_DATA_DIR="+t.TempDir(), "BOT_HTTP_ADDR="+addr, "FEISHU_APP_ID=cli_serve_test", "FEISHU_APP_SECRET=s",
		"FEISHU_VERIFICATION_TOKEN=labbot-verify-token-0001", "FEISHU_ENCRYPT_KEY=labbot-encrypt-key-0001", "FEISHU_MODE=webhook",
		"FEISHU_BASE_URL="+fake.URL, "REDIS_URL=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	base := "http://" + addr
	up := false
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !up; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			up = resp.StatusCode == 200
		}
	}
	if !up {
		t.Fatalf("bot serve did not come up:\n%s", stderr.String())
	}
	plain, err := feishutest.GroupEvent(fixture.Dir(fixture.Feishu), "ev-serve", "om_serve", "哪家有4090")
	if err != nil {
		t.Fatal(err)
	}
	body, hdr := feishutest.Seal(plain, "labbot-encrypt-key-0001", time.Now())
	req, _ := http.NewRequest(http.MethodPost, base+"/feishu/events", bytes.NewReader(body))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("event: %v %v\n%s", resp, err, stderr.String())
	}
	resp.Body.Close()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && len(fake.Messages()) == 0; time.Sleep(20 * time.Millisecond) {
	}
	msgs := fake.Messages()
	if len(msgs) != 1 || !strings.Contains(msgs[0].Path, "/open-apis/im/v1/messages/om_serve/reply") {
		t.Fatalf("posted: %+v\n%s", msgs, stderr.String())
	}
	cmd.Process.Signal(syscall.SIGTERM)
	errc := make(chan error, 1)
	go func() { errc <- cmd.Wait() }()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("bot serve did not stop on SIGTERM")
	}
	if strings.Contains(stderr.String(), "labbot-encrypt-key-0001") || strings.Contains(stderr.String(), "FEISHU_APP_SECRET=s") {
		t.Error("a secret was logged")
	}
}

// TestStorageImportAndDigest: `bot storage import` of a CSV, then `bot
// digest --week … --format json`, with figures worked out by hand.
func TestStorageImportAndDigest(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "ledger.csv")
	cfgPath := filepath.Join(dir, "bot.yaml")
	os.WriteFile(csvPath, []byte(`time,owner,platform,disk,action,size_gb,note
2026-11-16T00:00:00+08:00,alice,autodl,1,add,80,实验数据
2026-11-25T12:00:00+08:00,bob,matpool,2,add,105,数据集
2026-11-27T00:00:00+08:00,bob,,2,stop,,
2026-11-28T00:00:00+08:00,alice,,1,remove,,
`), 0o600)
	os.WriteFile(cfgPath, []byte("storage:\n  prices: {autodl: 0.01, matpool: 0.02}\n"), 0o600)
	env := []string{"BOT_DATA_DIR=" + filepath.Join(dir, "data"), "BOT_CONFIG=" + cfgPath}
	out, stderr, code := run(t, "", env, "storage", "import", "--lab", "feishu/oc_lab", csvPath)
	if code != 0 || !strings.Contains(out, "imported 4 events") {
		t.Fatalf("import: exit %d %s %s", code, out, stderr)
	}
	out, stderr, code = run(t, "", env, "digest", "--lab", "feishu/oc_lab", "--week", "2026-W48", "--format", "json")
	if code != 0 {
		t.Fatalf("digest: exit %d %s", code, stderr)
	}
	var d struct {
		Week     string  `json:"week"`
		Total    float64 `json:"total_cny"`
		Previous float64 `json:"previous_total_cny"`
		Members  []struct {
			Name string
			CNY  float64
		}
		Platforms []struct {
			Name string
			CNY  float64
		}
		Idle []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	// W48 (23–30 Nov, Asia/Shanghai): alice (80−50)×0.01 = 0.30 a day for
	// 5 days (removed Sat 28) = 1.50; bob (105−5)×0.02 = 2.00 a day from Wed
	// 12:00 to Mon 00:00, billed while stopped: 4.5 days = 9.00. W47: alice 7 × 0.30 = 2.10.
	near := func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
	if d.Week != "2026-W48" || !near(d.Total, 10.5) || !near(d.Previous, 2.1) || len(d.Members) != 2 || d.Members[0].Name != "bob" ||
		!near(d.Members[0].CNY, 9) || len(d.Platforms) != 2 || d.Idle == nil {
		t.Errorf("digest %+v\n%s", d, out)
	}
	// Importing the same file again is refused whole.
	if _, stderr, code := run(t, "", env, "storage", "import", "--lab", "feishu/oc_lab", csvPath); code == 0 || !strings.Contains(stderr, "added twice") {
		t.Errorf("re-import: exit %d %s", code, stderr)
	}
	if _, stderr, code := run(t, "", env, "digest", "--week", "48"); code != 2 || !strings.Contains(stderr, "--week") {
		t.Errorf("bad week: exit %d %s", code, stderr)
	}
	pngPath := filepath.Join(dir, "spend.png")
	if _, stderr, code := run(t, "", env, "digest", "--lab", "feishu/oc_lab", "--week", "2026-W48", "--png", pngPath); code != 0 {
		t.Errorf("--png: exit %d %s", code, stderr)
	}
	if b, err := os.ReadFile(pngPath); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("--png wrote no PNG: %v", err)
	}
	// --send posts to the lab's chats: here a WeCom robot.
	var mu sync.Mutex
	var hits []string
	got := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), hits...)
	}
	wecom := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		hits = append(hits, string(b))
		mu.Unlock()
		w.Write([]byte(`{"errcode":0,"errmsg":"ok"}`))
	}))
	defer wecom.Close()
	os.WriteFile(cfgPath, []byte("storage:\n  prices: {autodl: 0.01, matpool: 0.02}\n  labs: {nlp: [\"webhook/lab\"]}\n"+
		"webhooks:\n  - {name: lab, kind: wecom, url: \""+wecom.URL+"/cgi-bin/webhook/send?key=k\"}\n"), 0o600)
	if _, stderr, code := run(t, "", env, "digest", "--lab", "nlp", "--week", "2026-W48", "--send"); code != 0 || len(got()) != 1 || !strings.Contains(got()[0], "2026-W48") {
		t.Errorf("--send: exit %d %s; WeCom got %q", code, stderr, got())
	}
	// Asked again, it is sent again: a manual send is no scheduled one.
	if _, stderr, code := run(t, "", env, "digest", "--lab", "nlp", "--week", "2026-W48", "--send"); code != 0 || len(got()) != 2 {
		t.Errorf("--send again: exit %d %s; WeCom got %d (want the week twice)", code, stderr, len(got()))
	}
	if _, stderr, code := run(t, "", env, "digest", "--lab", "feishu/oc_x", "--send"); code == 0 || !strings.Contains(stderr, "Feishu app is not configured") {
		t.Errorf("--send to Feishu without an app: exit %d %s", code, stderr)
	}
	out, _, _ = run(t, "", env, "storage", "export", "--lab", "feishu/oc_lab")
	if strings.Count(out, "\n") != 5 || !strings.HasPrefix(out, "time,owner,platform,disk,action,size_gb,note\n") {
		t.Errorf("export:\n%s", out)
	}
}

// TestConfigWithBOM: a config saved with a byte-order mark works for every
// command.
func TestConfigWithBOM(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "bom.yaml")
	os.WriteFile(cfg, []byte("\ufeffstock:\n  timeout: 5s\n"), 0o600)
	out, stderr, code := run(t, "", nil, "--config", cfg, "ask", "帮助")
	if code != 0 || !strings.Contains(out, "哪家有4090") {
		t.Errorf("ask: exit %d, stderr %q", code, stderr)
	}
}

// TestEveryPatternCompiles: the gated regexps every package declares are
// compiled on first use; this compiles them all, so a bad pattern fails
// here and not at the first message that reaches it.
func TestEveryPatternCompiles(t *testing.T) {
	t.Logf("%d patterns", textgate.Declared())
	if err := textgate.CompileAll(); err != nil {
		t.Fatal(err)
	}
}
