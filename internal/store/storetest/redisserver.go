package storetest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// RedisServerPath is the redis-server a RedisServer runs.
var RedisServerPath = "/usr/bin/redis-server"

// RedisServer is a redis-server of the test's own, on a free loopback
// port, that the test may pause (SIGSTOP), resume, kill and restart
// without touching the shared one at REDIS_URL. It is stopped at the end
// of the test.
type RedisServer struct {
	tb   testing.TB
	Addr string // 127.0.0.1:port

	mu     sync.Mutex
	cmd    *exec.Cmd
	paused bool
}

// StartRedis starts a redis-server (no persistence) on a free port and
// waits until it answers PING. Without the binary the test is skipped, or
// fails when CI is set.
func StartRedis(tb testing.TB) *RedisServer {
	tb.Helper()
	if _, err := os.Stat(RedisServerPath); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("no %s (CI is set, so this fails): %v", RedisServerPath, err)
		}
		tb.Skipf("no %s to start a Redis of the test's own: %v", RedisServerPath, err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r := &RedisServer{tb: tb, Addr: addr}
	tb.Cleanup(r.stop)
	r.Restart()
	return r
}

// URL is the server's REDIS_URL.
func (r *RedisServer) URL() string { return "redis://" + r.Addr + "/0" }

// Restart starts the server again on the same port (after Kill), empty.
func (r *RedisServer) Restart() {
	r.tb.Helper()
	_, port, _ := net.SplitHostPort(r.Addr)
	cmd := exec.Command(RedisServerPath, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", r.tb.TempDir(), "--daemonize", "no", "--protected-mode", "no", "--loglevel", "warning")
	if err := cmd.Start(); err != nil {
		r.tb.Fatalf("start redis-server: %v", err)
	}
	r.mu.Lock()
	r.cmd, r.paused = cmd, false
	r.mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for !r.Ping() {
		if time.Now().After(deadline) {
			r.tb.Fatalf("redis-server on %s does not answer PING", r.Addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Ping reports whether the server answers PING within a second.
func (r *RedisServer) Ping() bool {
	c, err := net.DialTimeout("tcp", r.Addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && line == "+PONG\r\n"
}

// Pause stops the server (SIGSTOP): connections stay open, commands wait.
func (r *RedisServer) Pause() { r.signal(syscall.SIGSTOP, true) }

// Resume continues a paused server (SIGCONT).
func (r *RedisServer) Resume() { r.signal(syscall.SIGCONT, false) }

func (r *RedisServer) signal(sig syscall.Signal, paused bool) {
	r.tb.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		r.tb.Fatalf("redis-server on %s is not running", r.Addr)
	}
	if err := r.cmd.Process.Signal(sig); err != nil {
		r.tb.Fatalf("signal %v to redis-server: %v", sig, err)
	}
	r.paused = paused
}

// Kill ends the server (SIGKILL) and waits for it: connections are
// refused until Restart.
func (r *RedisServer) Kill() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
	r.cmd, r.paused = nil, false
}

func (r *RedisServer) stop() {
	r.mu.Lock()
	if r.cmd != nil && r.paused {
		_ = r.cmd.Process.Signal(syscall.SIGCONT)
	}
	r.mu.Unlock()
	r.Kill()
}

// String names the server, for messages.
func (r *RedisServer) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	pid := "stopped"
	if r.cmd != nil {
		pid = "pid " + strconv.Itoa(r.cmd.Process.Pid)
	}
	return fmt.Sprintf("redis-server %s (%s)", r.Addr, pid)
}
