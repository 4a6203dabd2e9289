package procs

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Replica is one `bot serve` process the soak supervises. The exported
// fields are its set-up, fixed before the first Start.
type Replica struct {
	Idx  int      // its number among the replicas, from 0
	Bin  string   // the bot binary
	Env  []string // the whole environment of `bot serve`
	Port int      // the loopback port it listens on (BOT_HTTP_ADDR)
	Dir  string   // its working directory, where serve.log goes
	// OnLine, when set, is called with each log line of the process
	// (start: the process's start number) and when it was read.
	OnLine func(idx, start int, line string, at time.Time)

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
func (rp *Replica) Start() error {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.stopped {
		return nil
	}
	if rp.logf == nil {
		f, err := os.Create(filepath.Join(rp.Dir, "serve.log"))
		if err != nil {
			return err
		}
		rp.logf = f
	}
	cmd := exec.Command(rp.Bin, "serve")
	cmd.Env = rp.Env
	cmd.Dir = rp.Dir
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
			if rp.OnLine != nil {
				rp.OnLine(rp.Idx, start, sc.Text(), now)
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
			rp.unexpExit = append(rp.unexpExit, fmt.Sprintf("%s replica %d exited by itself: %v", time.Now().Format("15:04:05.000"), rp.Idx, err))
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
func (rp *Replica) Kill() {
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
func (rp *Replica) Stop() {
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

// StartCount is the number of the replica's latest start (its process
// now, or the last one).
func (rp *Replica) StartCount() int {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return rp.starts
}

// UnexpectedExits describes the exits the soak did not cause, each with
// its time.
func (rp *Replica) UnexpectedExits() []string {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return append([]string(nil), rp.unexpExit...)
}

// Up reports whether the replica is running and was not killed by the
// soak.
func (rp *Replica) Up() bool {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return rp.up
}

// Base is the replica's HTTP address ("http://127.0.0.1:port").
func (rp *Replica) Base() string { return fmt.Sprintf("http://127.0.0.1:%d", rp.Port) }

// WaitHealthy waits for /healthz to answer 200.
func (rp *Replica) WaitHealthy(d time.Duration) error {
	c := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := c.Get(rp.Base() + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
	}
	return fmt.Errorf("replica %d: /healthz not 200 within %v (log %s)", rp.Idx, d, filepath.Join(rp.Dir, "serve.log"))
}
