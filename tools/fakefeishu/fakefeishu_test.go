package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is what the fake prints, read while it writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

// TestBotServeThroughTheFake is the deploy guide's first try: the real
// bot binary's `bot serve` with the environment fakefeishu prints, the
// chat typed into the fake, the replies printed as they arrive; with
// the fake platforms answering live and the fake WeCom robot taking
// `bot webhook test`. A fake with another app's keys is refused, and
// says so.
func TestBotServeThroughTheFake(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the bot and runs bot serve")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := buildBot(t, root)
	out := &syncBuffer{}
	f, err := start(options{addr: "127.0.0.1:0", bot: freeAddr(t), dir: t.TempDir(), fixtures: filepath.Join(root, "testdata"),
		token: randomHex(12), key: randomHex(16), chat: fixtureChat, user: fixtureUser, platforms: true, wecom: true}, out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	f.printSetup()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.watchBot(ctx)
	// The admin listener on a port of its own: other bots may run here.
	env := append(readEnvFile(t, f.envFile()), "BOT_ADMIN_ADDR="+freeAddr(t))
	logs := startServe(t, bin, env)
	waitOutput(t, out, 0, logs, "bot serve is up")

	pr, pw := io.Pipe()
	defer pw.Close()
	go f.chat(ctx, pr)
	steps := []struct{ line, head, want string }{
		{"@bot 版本", "bot → the group", "labgpu bot"},
		{"@bot 本群ID", "bot → the group", fixtureChat},
		{"@bot 哪家有4090", "bot → the group", "Quebec, CA"}, // vast.ai's recording, live from the fake
		{"p2p: 我的ID", "bot → private chat with " + fixtureUser, f.private(fixtureUser)},
	}
	for _, st := range steps {
		mark := len(out.String())
		fmt.Fprintln(pw, st.line)
		waitOutput(t, out, mark, logs, st.head, st.want)
	}
	for _, p := range f.feishu.Posts() {
		if p.Kind != "patch" && (p.Kind != "reply" || !strings.HasPrefix(p.Target, "om_fake_"+f.run)) {
			t.Errorf("post %+v: want a reply to a message the fake sent", p)
		}
	}

	t.Run("webhook test", func(t *testing.T) {
		mark := len(out.String())
		cmd := exec.Command(bin, "webhook", "test", wecomName)
		cmd.Env = env
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("bot webhook test: %v\n%s", err, b)
		}
		waitOutput(t, out, mark, logs, "bot → WeCom robot "+wecomName)
		if n := len(f.wecom.Posts()); n != 1 {
			t.Errorf("the robot got %d messages, want 1", n)
		}
	})
	t.Run("other keys refused", func(t *testing.T) {
		other := &syncBuffer{}
		g, err := start(options{addr: "127.0.0.1:0", bot: f.o.bot, dir: t.TempDir(), fixtures: f.o.fixtures,
			token: randomHex(12), key: randomHex(16), chat: fixtureChat, user: fixtureUser}, other)
		if err != nil {
			t.Fatal(err)
		}
		defer g.close()
		g.chat(ctx, strings.NewReader("@bot ping\n"))
		if s := other.String(); !strings.Contains(s, "the bot refused the event: HTTP 401") || !strings.Contains(s, g.envFile()) {
			t.Errorf("a fake with other keys printed %q; want the refusal and which environment to use", s)
		}
	})
}

// buildBot builds ./cmd/bot into a temporary directory.
func buildBot(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bot")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/bot")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/bot: %v\n%s", err, b)
	}
	return bin
}

// readEnvFile reads bot.env's export lines as the student's shell would
// (values are bare words or single-quoted), with PATH and HOME added.
func readEnvFile(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TZ=UTC"}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		kv, ok := strings.CutPrefix(sc.Text(), "export ")
		if !ok {
			t.Fatalf("bot.env line %q is not an export", sc.Text())
		}
		k, v, _ := strings.Cut(kv, "=")
		env = append(env, k+"="+strings.ReplaceAll(strings.Trim(v, "'"), `'\''`, "'"))
	}
	return env
}

// startServe runs `bot serve` until the test ends; its log is returned.
func startServe(t *testing.T, bin string, env []string) *syncBuffer {
	t.Helper()
	logs := &syncBuffer{}
	cmd := exec.Command(bin, "serve")
	cmd.Env, cmd.Stdout, cmd.Stderr = env, logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return logs
}

// waitOutput waits until what the fake printed after mark holds every
// one of wants, in order.
func waitOutput(t *testing.T, out *syncBuffer, mark int, logs *syncBuffer, wants ...string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if inOrder(out.String()[mark:], wants) {
			return
		}
	}
	t.Fatalf("the fake did not print %q in time; it printed:\n%s\nbot serve's log:\n%s", wants, out.String()[mark:], logs.String())
}

// inOrder reports whether s holds each of wants, one after the other.
func inOrder(s string, wants []string) bool {
	for _, w := range wants {
		i := strings.Index(s, w)
		if i < 0 {
			return false
		}
		s = s[i+len(w):]
	}
	return true
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
