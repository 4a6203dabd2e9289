package main

import (
	"encoding/json"
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
)

// TestConfigCheckExample: the documented example checks clean: exit 0,
// what would run, and the settings in effect.
func TestConfigCheckExample(t *testing.T) {
	out, stderr, code := run(t, "", nil, "config", "check", "--config", "../../configs/config.example.yaml")
	if code != 0 || !strings.Contains(stderr, "no problems") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"config:    ../../configs/config.example.yaml", "store:     embedded ", "channel:   feishu off: ",
		"cooldown: 30m # ../../configs/config.example.yaml:", "digest_schedule: 0 9 * * 1 # ../../configs/config.example.yaml:", "redis_master_name: \"\" # default", "0s means the poll interval, at least 30s"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestConfigCheckBroken: each of ten broken configs exits 2 with one
// problem, naming the key (or variable), where the value came from and
// the fix.
func TestConfigCheckBroken(t *testing.T) {
	hook := "webhooks:\n  - {name: lab, kind: wecom, url: \"https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k\"}\n"
	cases := []struct {
		name, body string
		env        []string
		want       []string // the problem's source, key and fix
	}{
		{"a bad value type", "alerts:\n  debounce: many\n", nil,
			[]string{"line 2: alerts.debounce:", `"many" is not a whole number (write e.g. 3)`}},
		{"an unknown key", "stock:\n  timout: 5s\n", nil,
			[]string{"line 2:", `unknown key "timout" under stock (did you mean "timeout"?)`}},
		{"a bad cron expression", "storage:\n  digest_schedule: every monday\n", nil,
			[]string{"line 2: storage.digest_schedule:", `e.g. "0 9 * * 1" for Monday 09:00`}},
		{"partial Feishu credentials", "log:\n  level: info\n", []string{"FEISHU_APP_ID=cli_a1b2", "FEISHU_VERIFICATION_TOKEN=v"},
			[]string{"feishu.app_secret: empty while FEISHU_APP_ID, FEISHU_VERIFICATION_TOKEN are set", "Set FEISHU_APP_SECRET (the app's App Secret"}},
		{"an unknown webhook in a lab", hook + "storage:\n  labs:\n    nlp: [webhook/lab, webhook/nosuch]\n", nil,
			[]string{"line 5: storage.labs.nlp[1]:", `no webhook named "nosuch" (the webhooks are lab)`}},
		{"a Redis store without address", "store:\n  kind: redis\n", nil,
			[]string{"line 2: store.kind:", "redis needs the server's address: set REDIS_URL (e.g. redis://:PASSWORD@10.0.0.5:6379/0) or store.redis_url"}},
		{"a bad quiet_hours key", "alerts:\n  quiet_hours:\n    lab: \"23:00-08:00\"\n", nil,
			[]string{"line 3: alerts.quiet_hours.lab:", `is not CHANNEL/CHAT_ID (e.g. feishu/oc_123, webhook/lab); use "*" for every chat`}},
		{"a bad time zone", "log:\n  level: info\n", []string{"BOT_TIMEZONE=Mars/Base"},
			[]string{"environment variable BOT_TIMEZONE: timezone:", `"Mars/Base" is not a time zone such as Asia/Shanghai`}},
		{"a negative duration", "alerts:\n  cooldown: -5m\n", nil,
			[]string{"line 2: alerts.cooldown:", "is negative: write a duration of 0s or more, e.g. 30m"}},
		{"a price that is not a number", "storage:\n  prices:\n    autodl: cheap\n", nil,
			[]string{"line 3: storage.prices.autodl:", `"cheap" is not a number (write e.g. 0.5, without a unit)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.yaml")
			if err := os.WriteFile(path, []byte(c.body), 0o600); err != nil {
				t.Fatal(err)
			}
			out, stderr, code := run(t, "", c.env, "config", "check", "--config", path)
			if code != 2 || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing on stdout", code, out)
			}
			if !strings.Contains(stderr, "1 problem(s):") {
				t.Errorf("want one problem:\n%s", stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.HasPrefix(c.want[0], "line ") && !strings.Contains(stderr, path+" "+c.want[0]) {
				t.Errorf("the problem does not name the file %s:\n%s", path, stderr)
			}
			// Every other command refuses the config alike, on one line.
			if _, stderr, code := run(t, "", c.env, "--config", path, "ask", "帮助"); code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("ask: exit %d, %q", code, stderr)
			}
		})
	}
	// Several problems: all of them, one a line.
	path := filepath.Join(t.TempDir(), "bot.yaml")
	os.WriteFile(path, []byte("alerts:\n  debounce: many\n  cooldown: -5m\nstore:\n  kind: redis\n"), 0o600)
	if _, stderr, code := run(t, "", []string{"BOT_TIMEZONE=Mars/Base"}, "config", "check", "--config", path); code != 2 || !strings.Contains(stderr, "4 problem(s):") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
}

// TestVersion: bot --version and bot version print the build.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, stderr, code := run(t, "", nil, args...)
		if code != 0 || !strings.HasPrefix(out, "labgpu bot ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: exit %d %q %q", args, code, out, stderr)
		}
	}
	out, _, code := run(t, "", nil, "version", "--format", "json")
	var v struct {
		Version   string `json:"version"`
		GoVersion string `json:"go_version"`
	}
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || v.Version == "" || v.GoVersion == "" {
		t.Errorf("version --format json: exit %d %v %q", code, err, out)
	}
}

// TestWebhookTest: bot webhook test posts once and says what happened:
// delivered; refused, with the likely cause; an unknown name, with the
// names there are.
func TestWebhookTest(t *testing.T) {
	var mu sync.Mutex
	var posts []string
	answer := `{"errcode":0,"errmsg":"ok"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		posts = append(posts, string(b))
		a := answer
		mu.Unlock()
		io.WriteString(w, a)
	}))
	defer srv.Close()
	cfg := filepath.Join(t.TempDir(), "bot.yaml")
	os.WriteFile(cfg, []byte("webhooks:\n  - {name: lab, kind: wecom, url: \""+srv.URL+"/cgi-bin/webhook/send?key=SECRETKEY\"}\n"), 0o600)
	out, stderr, code := run(t, "", nil, "--config", cfg, "webhook", "test", "lab")
	if code != 0 || !strings.Contains(out, "webhook lab (wecom ") || !strings.Contains(out, "delivered in") || len(posts) != 1 || !strings.Contains(posts[0], "bot webhook test") {
		t.Fatalf("exit %d %q %q; posts %q", code, out, stderr, posts)
	}
	mu.Lock()
	answer = `{"errcode":93000,"errmsg":"invalid webhook url"}`
	mu.Unlock()
	_, stderr, code = run(t, "", nil, "--config", cfg, "webhook", "test", "lab")
	if code != 1 || !strings.Contains(stderr, "code 93000") || !strings.Contains(stderr, "the robot's key is wrong") || len(posts) != 2 {
		t.Errorf("refused: exit %d %q, %d posts (want one try)", code, stderr, len(posts))
	}
	_, stderr, code = run(t, "", nil, "--config", cfg, "webhook", "test", "nosuch")
	if code != 2 || !strings.Contains(stderr, `no such webhook "nosuch" (the webhooks are lab)`) {
		t.Errorf("unknown: exit %d %q", code, stderr)
	}
	if strings.Contains(out+stderr, "SECRETKEY") {
		t.Error("the webhook's key was printed")
	}
	// A chat key of an unknown webhook is refused where a question names it.
	if _, stderr, code := run(t, "", nil, "--config", cfg, "ask", "--chat", "webhook/nosuch", "4090 有货了提醒我"); code != 2 || !strings.Contains(stderr, `no webhook named "nosuch"`) {
		t.Errorf("ask --chat webhook/nosuch: exit %d %q", code, stderr)
	}
}

// TestServeSurvivesSIGHUP: bot serve logs what it runs in its first line,
// logs a SIGHUP and goes on serving (it used to die with 129), then
// stops cleanly on SIGTERM.
func TestServeSurvivesSIGHUP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := filepath.Join(t.TempDir(), "bot.yaml")
	os.WriteFile(cfg, []byte("stock:\n  poll:\n    schedule: \"\"\n"), 0o600)
	cmd := exec.Command(botBin, "serve", "--config", cfg)
	cmd.Env = append(os.Environ(), "BOT_DATA_DIR="+t.TempDir(), "BOT_HTTP_ADDR="+addr, "REDIS_URL=", "FEISHU_APP_ID=")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	healthy := func() bool {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	}
	for deadline := time.Now().Add(10 * time.Second); !healthy(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("bot serve did not come up:\n%s", stderr.String())
		}
	}
	first := strings.SplitN(stderr.String(), "\n", 2)[0]
	for _, want := range []string{"labgpu bot starting", "version=", "config=" + cfg, "store=\"embedded ", "channels=\"feishu off: ", "webhook off: ", "wechat off: "} {
		if !strings.Contains(first, want) {
			t.Errorf("the first log line lacks %q: %s", want, first)
		}
	}
	for i := range 2 {
		if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		// Each SIGHUP's own line (the first's is there already when the
		// second is sent).
		for deadline := time.Now().Add(5 * time.Second); strings.Count(stderr.String(), "SIGHUP ignored") <= i && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if !healthy() || strings.Count(stderr.String(), "SIGHUP ignored") != 2 {
		t.Fatalf("after two SIGHUPs: healthy %v\n%s", healthy(), stderr.String())
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
}

// syncBuffer is a strings.Builder written by a process and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestConfigCheckSecretWarnings: config check warns, and still exits 0,
// of a secret written in the config file that an environment variable
// can set (naming the variable), and of a config file with secrets that
// others may read (mode & 0o044); a secret the environment sets, or a
// file without secrets, draws no warning.
func TestConfigCheckSecretWarnings(t *testing.T) {
	const (
		secret = "stock:\n  providers:\n    autodl:\n      token: abc123\n"
		hook   = "webhooks:\n  - {name: lab, kind: wecom, url: \"https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k\"}\n"
		plain  = "alerts:\n  cooldown: 20m\n"
	)
	cases := []struct {
		name, body string
		mode       os.FileMode
		env        []string
		want       []string
		not        []string
	}{
		{"a token in a world-readable file", secret, 0o644, nil,
			[]string{"line 4: stock.providers.autodl.token is a secret written in the config file: set AUTODL_TOKEN in the environment instead",
				"is readable by others (mode 0644) and holds secrets: stock.providers.autodl.token (line 4); chmod 600"}, nil},
		{"a token in a group-readable file", secret, 0o640, nil,
			[]string{"set AUTODL_TOKEN in the environment instead", "is readable by others (mode 0640)"}, nil},
		{"a token in a private file", secret, 0o600, nil,
			[]string{"set AUTODL_TOKEN in the environment instead"}, []string{"readable by others"}},
		{"the token from the environment", secret, 0o644, []string{"AUTODL_TOKEN=from-env"}, nil, []string{"warning"}},
		{"a webhook URL (no variable for it) in a readable file", hook, 0o644, nil,
			[]string{"holds secrets: webhooks[0].url (line 2)"}, []string{"in the environment instead"}},
		{"no secret in a readable file", plain, 0o644, nil, nil, []string{"warning"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.yaml")
			if err := os.WriteFile(path, []byte(c.body), c.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, c.mode) // past the umask
			_, stderr, code := run(t, "", c.env, "config", "check", "--config", path)
			if code != 0 || !strings.Contains(stderr, "no problems") {
				t.Fatalf("exit %d (warnings never fail): %s", code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			for _, w := range c.not {
				if strings.Contains(stderr, w) {
					t.Errorf("stderr has %q:\n%s", w, stderr)
				}
			}
		})
	}
}
