package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// freePort returns a loopback port that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// childAttr puts a child in its own process group (a Ctrl-C of the
// terminal reaches only the soak, which then stops its children) and
// kills it when the soak dies.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// redisProc is the soak's own redis-server on loopback.
type redisProc struct {
	bin, dir, persist string
	Port              int

	mu     sync.Mutex
	cmd    *exec.Cmd
	done   chan struct{}
	paused bool
	log    *os.File
}

func newRedis(bin, dir, persist string) (*redisProc, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	lf, err := os.Create(filepath.Join(dir, "redis.log"))
	if err != nil {
		return nil, err
	}
	return &redisProc{bin: bin, dir: dir, persist: persist, Port: port, log: lf}, nil
}

func (r *redisProc) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.Port) }

func (r *redisProc) args() []string {
	a := []string{"--port", strconv.Itoa(r.Port), "--bind", "127.0.0.1", "--dir", r.dir, "--save", "",
		"--protected-mode", "yes", "--daemonize", "no", "--logfile", ""}
	switch r.persist {
	case "none":
		a = append(a, "--appendonly", "no")
	default: // everysec, always
		a = append(a, "--appendonly", "yes", "--appendfsync", r.persist)
	}
	return a
}

// Start starts redis-server and waits until it answers PING.
func (r *redisProc) Start() error {
	r.mu.Lock()
	cmd := exec.Command(r.bin, r.args()...)
	cmd.Stdout, cmd.Stderr = r.log, r.log
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		r.mu.Unlock()
		return err
	}
	done := make(chan struct{})
	r.cmd, r.done, r.paused = cmd, done, false
	r.mu.Unlock()
	go func() { cmd.Wait(); close(done) }()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if r.ping(300*time.Millisecond) == nil {
			return nil
		}
		select {
		case <-done:
			return fmt.Errorf("redis-server exited at start (see %s)", r.log.Name())
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("redis-server did not answer PING within 15s")
}

// cmdLine sends one inline command and returns the first reply line.
func (r *redisProc) cmdLine(line string, timeout time.Duration) (string, error) {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", r.Port), timeout)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	if _, err := io.WriteString(c, line+"\r\n"); err != nil {
		return "", err
	}
	s, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(s), err
}

func (r *redisProc) ping(timeout time.Duration) error {
	s, err := r.cmdLine("PING", timeout)
	if err == nil && s != "+PONG" {
		err = fmt.Errorf("PING: %q", s)
	}
	return err
}

// Kill SIGKILLs redis-server and waits for it to go.
func (r *redisProc) Kill() {
	r.mu.Lock()
	cmd, done := r.cmd, r.done
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGCONT)
	cmd.Process.Kill()
	<-done
}

// Shutdown asks redis-server to stop (SHUTDOWN: it writes the AOF out)
// and waits for it; after 10 s it is killed.
func (r *redisProc) Shutdown() {
	r.mu.Lock()
	cmd, done := r.cmd, r.done
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	r.cmdLine("SHUTDOWN", 2*time.Second)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		r.Kill()
	}
}

// Pause stops (SIGSTOP) or continues (SIGCONT) redis-server.
func (r *redisProc) Pause(stop bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return
	}
	sig := syscall.SIGCONT
	if stop {
		sig = syscall.SIGSTOP
	}
	r.cmd.Process.Signal(sig)
	r.paused = stop
}

// replica is one `bot serve` process the soak supervises.
type replica struct {
	idx  int
	bin  string
	env  []string
	Port int
	dir  string
	onLn func(idx, start int, line string, at time.Time)

	mu        sync.Mutex
	cmd       *exec.Cmd
	done      chan struct{}
	up        bool // running and not killed by the soak
	killed    bool // the soak killed it (so an exit is expected)
	stopped   bool // the soak is over: do not restart
	starts    int
	unexpExit []string
	logf      *os.File
}

// Start runs the replica; an exit the soak did not cause is recorded and
// the replica started again after a second, as a supervisor would.
func (rp *replica) Start() error {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.stopped {
		return nil
	}
	if rp.logf == nil {
		f, err := os.Create(filepath.Join(rp.dir, "serve.log"))
		if err != nil {
			return err
		}
		rp.logf = f
	}
	cmd := exec.Command(rp.bin, "serve")
	cmd.Env = rp.env
	cmd.Dir = rp.dir
	cmd.SysProcAttr = childAttr()
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return err
	}
	pw.Close()
	rp.starts++
	start := rp.starts
	fmt.Fprintf(rp.logf, "=== soak: start #%d pid %d at %s\n", rp.starts, cmd.Process.Pid, time.Now().Format(time.RFC3339Nano))
	done := make(chan struct{})
	rp.cmd, rp.done, rp.up, rp.killed = cmd, done, true, false
	lines := make(chan struct{})
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			now := time.Now()
			rp.mu.Lock()
			fmt.Fprintln(rp.logf, sc.Text())
			rp.mu.Unlock()
			if rp.onLn != nil {
				rp.onLn(rp.idx, start, sc.Text(), now)
			}
		}
		pr.Close()
	}()
	go func() {
		err := cmd.Wait()
		<-lines
		close(done)
		rp.mu.Lock()
		expected := rp.killed || rp.stopped
		rp.up = false
		if !expected {
			rp.unexpExit = append(rp.unexpExit, fmt.Sprintf("%s replica %d exited by itself: %v", time.Now().Format("15:04:05.000"), rp.idx, err))
		}
		rp.mu.Unlock()
		if !expected {
			time.Sleep(time.Second)
			rp.Start()
		}
	}()
	return nil
}

// Kill SIGKILLs the replica and waits for it to go.
func (rp *replica) Kill() {
	rp.mu.Lock()
	cmd, done := rp.cmd, rp.done
	if cmd == nil || !rp.up {
		rp.mu.Unlock()
		return
	}
	rp.killed, rp.up = true, false
	rp.mu.Unlock()
	cmd.Process.Kill()
	<-done
}

// Stop ends the replica for good: SIGTERM, SIGKILL after 15 s.
func (rp *replica) Stop() {
	rp.mu.Lock()
	rp.stopped = true
	cmd, done := rp.cmd, rp.done
	rp.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	rp.mu.Lock()
	if rp.logf != nil {
		rp.logf.Close()
		rp.logf = nil
	}
	rp.mu.Unlock()
}

// startCount is the number of the replica's latest start (its process
// now, or the last one).
func (rp *replica) startCount() int {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return rp.starts
}

func (rp *replica) Up() bool {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return rp.up
}

func (rp *replica) base() string { return fmt.Sprintf("http://127.0.0.1:%d", rp.Port) }

// waitHealthy waits for /healthz to answer 200.
func (rp *replica) waitHealthy(d time.Duration) error {
	c := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := c.Get(rp.base() + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
	}
	return fmt.Errorf("replica %d: /healthz not 200 within %v (log %s)", rp.idx, d, filepath.Join(rp.dir, "serve.log"))
}

// logLine is what the soak reads of a replica's log line (slog text or
// JSON): the message, the level and the key=value attributes.
type logLine struct {
	Level, Msg string
	Attrs      map[string]string
}

var textAttr = regexp.MustCompile(`([A-Za-z_.]+)=("(?:[^"\\]|\\.)*"|\S*)`)

func parseLog(s string) logLine {
	l := logLine{Attrs: map[string]string{}}
	if strings.HasPrefix(s, "{") {
		var m map[string]any
		if jsonUnmarshal([]byte(s), &m) == nil {
			for k, v := range m {
				l.Attrs[k] = fmt.Sprint(v)
			}
		}
	} else {
		for _, m := range textAttr.FindAllStringSubmatch(s, -1) {
			v := m[2]
			if uq, err := strconv.Unquote(v); err == nil {
				v = uq
			}
			l.Attrs[m[1]] = v
		}
	}
	l.Level, l.Msg = strings.ToUpper(l.Attrs["level"]), l.Attrs["msg"]
	return l
}
