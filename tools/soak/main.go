// Command soak runs the bot the way a lab deploys it and breaks it on a
// schedule: N `bot serve` replicas on one Redis, Feishu in webhook mode
// against a fake open platform, the replay provider reading an AutoDL
// recording the soak rewrites, and two platform APIs on loopback that the
// replicas poll with the real providers: vast.ai, which hangs (accepts
// the request, never answers), and RunPod, which flaps (answers, then
// fails with 503s, 429s, timeouts or reset connections, or answers
// slowly, for a while). It kills and restarts replicas and Redis, pauses
// Redis, and counts what the fake Feishu received: each user message
// answered exactly once, each stock transition a poll saw alerted
// exactly once; what each platform saw (requests, the most in flight at
// once per replica: fetches are single-flight); answer latencies; and
// /readyz probed every second on each replica. Everything runs on
// loopback, in a temporary directory, and stops by itself (issues 15
// and 26).
//
//	go run ./tools/soak                  # 5 minutes, 3 replicas
//	go run ./tools/soak -short           # about 40 s (what CI runs)
//
// It exits 1 when a message or alert was lost or duplicated, or a replica
// had two fetches of one platform in flight at once; 2 when it could not
// run.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	o := options{Log: os.Stderr}
	flag.DurationVar(&o.Duration, "duration", 5*time.Minute, "how long traffic and faults run (a drain of up to a minute follows)")
	flag.IntVar(&o.Replicas, "replicas", 3, "bot serve replicas")
	flag.BoolVar(&o.Short, "short", false, "the short run CI does: 20 s, one fault of each kind, then up to a poll interval for a last poll")
	flag.Uint64Var(&o.Seed, "seed", uint64(time.Now().UnixNano()), "random seed (fault order, durations, stock changes)")
	flag.Float64Var(&o.Rate, "rate", 3, "user messages per second")
	flag.StringVar(&o.Fixtures, "fixtures", "", "the recordings directory (default testdata/ of the module)")
	flag.StringVar(&o.RedisBin, "redis-server", "redis-server", "redis-server binary")
	flag.StringVar(&o.RedisPersist, "redis-appendfsync", "everysec", "Redis persistence: everysec or always (AOF), or none")
	flag.StringVar(&o.BotBin, "bot", "", "a built bot binary (default: go build ./cmd/bot)")
	flag.BoolVar(&o.Keep, "keep", false, "keep the temporary directory (logs, Redis files)")
	flag.StringVar(&o.Hang, "hang", "stretches", "the hung platform (vast.ai): stretches (hangs 60-150 s at a time, answers 15-40 s between) or whole (hangs for the whole run; what -short does)")
	repro := flag.String("repro", "", "instead of the soak, reproduce one finding: kill-while-answering (exit 1 while the answer is lost)")
	flag.Parse()
	if err := defaults(&o, flag.CommandLine); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch *repro {
	case "":
	case "kill-while-answering":
		answered, err := reproKill(ctx, o, os.Stdout)
		switch {
		case err != nil:
			fmt.Fprintln(os.Stderr, "soak:", err)
			os.Exit(2)
		case !answered:
			os.Exit(1)
		}
		return
	default:
		fmt.Fprintf(os.Stderr, "soak: -repro %q: want kill-while-answering\n", *repro)
		os.Exit(2)
	}
	rep, err := run(ctx, o)
	if rep != nil {
		rep.write(os.Stdout)
	}
	switch {
	case err != nil:
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(2)
	case !rep.OK:
		os.Exit(1)
	}
}

// defaults fills in what the flags left out: the short run's duration,
// the module root and the fixtures, and checks the tools are there.
func defaults(o *options, fs *flag.FlagSet) error {
	set := map[string]bool{}
	if fs != nil {
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	}
	if o.Short && !set["duration"] {
		o.Duration = 20 * time.Second
	}
	if o.Short && !set["hang"] || o.Hang == "" {
		o.Hang = "whole"
	}
	if o.Hang != "stretches" && o.Hang != "whole" {
		return fmt.Errorf("-hang %q: want stretches or whole", o.Hang)
	}
	if o.Replicas < 1 {
		return errors.New("-replicas must be at least 1")
	}
	if o.Rate <= 0 || o.Rate > 50 {
		return errors.New("-rate must be in (0, 50]")
	}
	switch o.RedisPersist {
	case "everysec", "always", "none":
	default:
		return fmt.Errorf("-redis-appendfsync %q: want everysec, always or none", o.RedisPersist)
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	o.ModuleRoot = root
	if o.Fixtures == "" {
		o.Fixtures = filepath.Join(root, "testdata")
	}
	if _, err := os.Stat(filepath.Join(o.Fixtures, "feishu", "event_im_message_receive_group_at_bot.json")); err != nil {
		return fmt.Errorf("no Feishu fixtures: %w", err)
	}
	if o.RedisBin, err = exec.LookPath(o.RedisBin); err != nil {
		return fmt.Errorf("redis-server: %w", err)
	}
	return nil
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
