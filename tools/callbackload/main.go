// Command callbackload measures `bot serve`'s Feishu callback against the
// SDK's own, as processes under load (issue 19): it starts an SDK-only
// process (oapi-sdk-go's dispatcher.NewEventDispatcher(token,
// key).OnP2MessageReceiveV1 behind httpserverext.NewEventHandlerFunc,
// its handler only enqueueing) and `bot serve` in webhook mode against a
// local fake of Feishu's API, on the embedded store and then on Redis (a
// redis-server of its own, without persistence),
// and posts signed, encrypted group messages, every one new, from -conc
// connections to each in turn, in rounds (the anchor first in even
// rounds, the bot in odd ones). The messages do not @mention the bot, so
// the bot claims and gates each and sends nothing: what is measured is
// the callback. It prints events/s and p99 of both and their ratio.
//
//	go run ./tools/callbackload                      # 20,000 events a side
//	go run ./tools/callbackload -events 60000 -conc 64
//
// It exits 1 when a delivery fails, 2 when it could not run.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
	"github.com/labgpu/bot/internal/fixture"
)

// The anchor process reads the run's verification token and Encrypt Key
// from these variables (the bot from its FEISHU_ ones).
const (
	envToken = "CALLBACKLOAD_VERIFICATION_TOKEN"
	envKey   = "CALLBACKLOAD_ENCRYPT_KEY"
)

type options struct {
	conc, events, round int
	pause               time.Duration
	redisServer         string
	fixtures            string
	bot                 string
	verbose             bool
}

func main() {
	var o options
	anchor := flag.String("anchor", "", "run the SDK-only callback on this address (what the load run starts)")
	flag.IntVar(&o.conc, "conc", 32, "connections")
	flag.IntVar(&o.events, "events", 20000, "events posted to each side per store")
	flag.IntVar(&o.round, "round", 2000, "events per round")
	flag.DurationVar(&o.pause, "pause", 200*time.Millisecond, "rest after each round, for what it left in the background")
	flag.StringVar(&o.redisServer, "redis-server", "redis-server", "redis-server binary for the second run, on a port of its own (not found: skipped)")
	flag.StringVar(&o.fixtures, "fixtures", fixture.Dir(fixture.Feishu), "the recorded Feishu events and API answers (testdata/feishu)")
	flag.StringVar(&o.bot, "bot", "", "a built bot binary (default: go build ./cmd/bot)")
	flag.BoolVar(&o.verbose, "v", false, "show the servers' logs")
	flag.Parse()
	if *anchor != "" {
		if err := serveAnchor(*anchor); err != nil {
			fmt.Fprintln(os.Stderr, "callbackload: anchor:", err)
			os.Exit(2)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, o)
	var failed deliveryError
	switch {
	case errors.As(err, &failed):
		fmt.Fprintln(os.Stderr, "callbackload:", err)
		os.Exit(1)
	case err != nil:
		fmt.Fprintln(os.Stderr, "callbackload:", err)
		os.Exit(2)
	}
}

// serveAnchor serves the SDK-only callback (feishutest.SDKAnchor) on
// addr, with the credentials in envToken and envKey.
func serveAnchor(addr string) error {
	token, key := os.Getenv(envToken), os.Getenv(envKey)
	if token == "" || key == "" {
		return fmt.Errorf("%s and %s must be set", envToken, envKey)
	}
	return http.ListenAndServe(addr, feishutest.SDKAnchor(token, key, nil))
}

// run starts the anchor once and the bot on each store, and measures.
func run(ctx context.Context, o options) error {
	dir, err := os.MkdirTemp("", "callbackload-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if o.bot == "" {
		o.bot = filepath.Join(dir, "bot")
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", o.bot, "./cmd/bot").CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/bot: %v\n%s", err, out)
		}
	}
	gen, err := newGenerator(filepath.Join(o.fixtures, "event_im_message_receive_group_at_bot.json"))
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	acmd := exec.Command(self, "-anchor", "ADDR")
	acmd.Env = append(os.Environ(), envToken+"="+gen.token, envKey+"="+gen.key)
	anchor, err := start(ctx, acmd, nil, o.verbose)
	if err != nil {
		return fmt.Errorf("anchor: %w", err)
	}
	defer anchor.stop()
	for _, store := range []string{"embedded", "redis"} {
		env, cleanup, err := botEnv(ctx, o, gen, dir, store)
		if errors.Is(err, errSkip) {
			fmt.Printf("%s: skipped (%v)\n", store, err)
			continue
		}
		if err != nil {
			return err
		}
		bot, err := start(ctx, exec.Command(o.bot, "serve"), env, o.verbose)
		if err != nil {
			cleanup()
			return fmt.Errorf("bot serve (%s): %w", store, err)
		}
		res, err := inTurn(ctx, o, gen, anchor.url, bot.url)
		bot.stop()
		cleanup()
		if err != nil {
			return fmt.Errorf("%s: %w", store, err)
		}
		fmt.Printf("%-8s  bot %6.0f events/s, p99 %5.1f ms   sdk %6.0f events/s, p99 %5.1f ms   x-sdk %.2f\n",
			store, res.bot.rate(), res.bot.p99(), res.sdk.rate(), res.sdk.p99(), res.bot.rate()/res.sdk.rate())
	}
	return nil
}

var errSkip = errors.New("no Redis")

// botEnv is `bot serve`'s environment for store, and what removes what it
// left behind.
func botEnv(ctx context.Context, o options, gen *generator, dir, store string) ([]string, func(), error) {
	data := filepath.Join(dir, "data-"+store)
	fake, err := startFake(o.fixtures)
	if err != nil {
		return nil, nil, err
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TZ=UTC", "BOT_DATA_DIR=" + data,
		"FEISHU_APP_ID=cli_load", "FEISHU_APP_SECRET=s", "FEISHU_VERIFICATION_TOKEN=" + gen.token, "FEISHU_ENCRYPT_KEY=" + gen.key,
		"FEISHU_MODE=webhook", "FEISHU_BASE_URL=" + fake.URL}
	cleanup := fake.Close
	if store == "redis" {
		rd, err := startRedis(ctx, o.redisServer, filepath.Join(dir, "redis"))
		if err != nil {
			fake.Close()
			return nil, nil, fmt.Errorf("%w: %v", errSkip, err)
		}
		cfg := filepath.Join(dir, "config-redis.yaml")
		if err := os.WriteFile(cfg, []byte("store:\n  kind: redis\n"), 0o600); err != nil {
			fake.Close()
			rd.stop()
			return nil, nil, err
		}
		env = append(env, "BOT_CONFIG="+cfg, "REDIS_URL=redis://"+rd.addr+"/0")
		cleanup = func() {
			fake.Close()
			rd.stop()
		}
	}
	return env, cleanup, nil
}

// redisProc is a redis-server of the run's own, without persistence.
type redisProc struct {
	cmd  *exec.Cmd
	addr string
}

// startRedis starts bin on a free loopback port with its files in dir
// and waits until it answers PING.
func startRedis(ctx context.Context, bin, dir string) (*redisProc, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().(*net.TCPAddr)
	ln.Close()
	cmd := exec.CommandContext(ctx, path, "--port", strconv.Itoa(addr.Port), "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no")
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	rp := &redisProc{cmd: cmd, addr: addr.String()}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.DialTimeout("tcp", rp.addr, time.Second); err == nil {
			_, werr := c.Write([]byte("PING\r\n"))
			buf := make([]byte, 7)
			_ = c.SetReadDeadline(time.Now().Add(time.Second))
			n, _ := c.Read(buf)
			c.Close()
			if werr == nil && string(buf[:n]) == "+PONG\r\n" {
				return rp, nil
			}
		}
		if time.Now().After(deadline) {
			rp.stop()
			return nil, fmt.Errorf("%s did not answer on %s", path, rp.addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (r *redisProc) stop() {
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
}

// proc is a started server process.
type proc struct {
	cmd *exec.Cmd
	url string // its callback
}

// start runs cmd (an "ADDR" argument becomes a free loopback address, or
// BOT_HTTP_ADDR is set) and waits until its /healthz answers; its log
// goes to stderr with verbose, and is shown anyway when it does not
// start.
func start(ctx context.Context, cmd *exec.Cmd, env []string, verbose bool) (*proc, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	for i, a := range cmd.Args {
		if a == "ADDR" {
			cmd.Args[i] = addr
		}
	}
	if env != nil {
		cmd.Env = append(env, "BOT_HTTP_ADDR="+addr)
	}
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if verbose {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, url: "http://" + addr + "/feishu/events"}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			p.stop()
			return nil, fmt.Errorf("%s did not answer /healthz in 30 s:\n%s", cmd.Path, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}
