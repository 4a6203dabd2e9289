package main

import (
	"bufio"
	"io"
	"net"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
	"github.com/labgpu/bot/internal/fixture"
)

// The footprint benchmarks run the built binary as a user would, one
// process per iteration (issue 19's figures):
//
//	go test -run '^$' -bench 'Process' -benchtime 20x ./cmd/bot
//	go test -run '^$' -bench 'IdleRSS' -benchtime 1x ./cmd/bot   # 60 s (BOT_IDLE_WAIT)
var (
	stockFixtures  = fixture.Dir(fixture.Stock)
	feishuFixtures = fixture.Dir(fixture.Feishu)
)

// benchEnv is the environment of a benchmarked process: no REDIS_URL,
// Feishu or BOT_ settings of the caller's, the recorded stock pages, a
// fresh data directory.
func benchEnv(b *testing.B, extra ...string) []string {
	b.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "REDIS_URL=") && !strings.HasPrefix(kv, "FEISHU_") && !strings.HasPrefix(kv, "BOT_") {
			env = append(env, kv)
		}
	}
	return append(append(env, "BOT_DATA_DIR="+b.TempDir(), "BOT_REPLAY_DIR="+stockFixtures), extra...)
}

// BenchmarkProcess: `bot --help` and `bot ask "哪家有4090"` as whole
// processes; ms/op is the median wall time, peak-MiB the largest RSS. The
// issue asks ask ≤ 4× help.
func BenchmarkProcess(b *testing.B) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"help", []string{"--help"}},
		{"ask", []string{"ask", "哪家有4090"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			env := benchEnv(b)
			var walls []time.Duration
			var peak int64
			for b.Loop() {
				cmd := exec.Command(botBin, c.args...)
				cmd.Env = env
				start := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", c.args, err, out)
				}
				walls = append(walls, time.Since(start))
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					peak = max(peak, ru.Maxrss) // KiB on Linux
				}
			}
			sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
			b.ReportMetric(float64(walls[len(walls)/2].Microseconds())/1000, "median-ms")
			b.ReportMetric(float64(peak)/1024, "peak-MiB")
		})
	}
}

// BenchmarkIdleRSS: the resident memory of `bot serve` (Feishu
// configured against a local fake of its API, the replay provider) and
// of the console after they sat idle BOT_IDLE_WAIT (default 60 s). The
// issue asks under 30 MiB.
func BenchmarkIdleRSS(b *testing.B) {
	wait := 60 * time.Second
	if s := os.Getenv("BOT_IDLE_WAIT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			b.Fatal(err)
		}
		wait = d
	}
	b.Run("serve", func(b *testing.B) {
		fake, err := feishutest.NewServer(feishuFixtures)
		if err != nil {
			b.Fatal("the Feishu fake:", err)
		}
		defer fake.Close()
		for b.Loop() {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			addr := ln.Addr().String()
			ln.Close()
			cmd := exec.Command(botBin, "serve")
			cmd.Env = benchEnv(b, "BOT_HTTP_ADDR="+addr, "FEISHU_APP_ID=cli_idle", "FEISHU_APP_SECRET=s", "FEISHU_VERIFICATION_TOKEN=t",
				"FEISHU_ENCRYPT_KEY=k", "FEISHU_MODE=webhook", "FEISHU_BASE_URL="+fake.URL)
			b.ReportMetric(idleRSS(b, cmd, nil, wait), "MiB")
		}
	})
	b.Run("console", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(botBin)
			cmd.Env = benchEnv(b)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(idleRSS(b, cmd, stdin, wait), "MiB")
		}
	})
}

// idleRSS starts cmd, waits, reads its VmRSS and stops it.
func idleRSS(b *testing.B, cmd *exec.Cmd, stdin io.Closer, wait time.Duration) float64 {
	b.Helper()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		if stdin != nil {
			stdin.Close()
		}
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	time.Sleep(wait)
	kib, err := vmRSS(cmd.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}
	return float64(kib) / 1024
}

// vmRSS reads a process's resident set size, KiB, from /proc.
func vmRSS(pid int) (int64, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		}
	}
	return 0, io.ErrUnexpectedEOF
}
