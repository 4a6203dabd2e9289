package procs

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Redis is the soak's own redis-server on loopback.
type Redis struct {
	bin, dir, persist string
	Port              int

	mu     sync.Mutex
	cmd    *exec.Cmd
	done   chan struct{}
	paused bool
	log    *os.File
}

// NewRedis prepares a redis-server (bin) on a free loopback port, with its
// files and log in dir and persist its persistence: everysec or always
// (AOF), or none. Start starts it.
func NewRedis(bin, dir, persist string) (*Redis, error) {
	port, err := FreePort()
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
	return &Redis{bin: bin, dir: dir, persist: persist, Port: port, log: lf}, nil
}

// URL is the Redis URL of database 0.
func (r *Redis) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.Port) }

func (r *Redis) args() []string {
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
func (r *Redis) Start() error {
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
		if r.Ping(300*time.Millisecond) == nil {
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
func (r *Redis) cmdLine(line string, timeout time.Duration) (string, error) {
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

// Ping sends PING and wants PONG within timeout.
func (r *Redis) Ping(timeout time.Duration) error {
	s, err := r.cmdLine("PING", timeout)
	if err == nil && s != "+PONG" {
		err = fmt.Errorf("PING: %q", s)
	}
	return err
}

// Kill SIGKILLs redis-server and waits for it to go.
func (r *Redis) Kill() {
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
func (r *Redis) Shutdown() {
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
func (r *Redis) Pause(stop bool) {
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

// Close closes the redis-server's log file, once it stopped for good.
func (r *Redis) Close() error { return r.log.Close() }
