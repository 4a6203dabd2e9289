// Command callbackload measures `bot serve`'s Feishu callback against the
// SDK's own, as processes under load (issue 19): it starts an SDK-only
// process (oapi-sdk-go's dispatcher.NewEventDispatcher(token,
// key).OnP2MessageReceiveV1 behind httpserverext.NewEventHandlerFunc,
// its handler only enqueueing) and `bot serve` in webhook mode against a
// local fake of Feishu's API, on the embedded store and then on Redis,
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
	"sync/atomic"
	"syscall"
	"time"

	larkcore "github.com/larksuite/oapi-sdk-go/v3/core"
	"github.com/larksuite/oapi-sdk-go/v3/core/httpserverext"
	larkevent "github.com/larksuite/oapi-sdk-go/v3/event"
	"github.com/larksuite/oapi-sdk-go/v3/event/dispatcher"
	larkim "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"
	goredis "github.com/redis/go-redis/v9"
)

// The bot's Feishu credentials in this run; token is the recorded
// events' header.token.
const (
	token      = "labbot-verify-token-0001"
	encryptKey = "labbot-load-encrypt-key"
)

type options struct {
	conc, events, round int
	pause               time.Duration
	redisURL, fixtures  string
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
	flag.StringVar(&o.redisURL, "redis", envOr("REDIS_URL", "redis://127.0.0.1:6379/0"), "Redis for the second run; \"\" or unreachable: skipped")
	flag.StringVar(&o.fixtures, "fixtures", "../shared/fixtures/feishu", "the recorded Feishu events and API answers")
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

func envOr(k, def string) string {
	if v, ok := os.LookupEnv(k); ok {
		return v
	}
	return def
}

// serveAnchor serves anchorHandler on addr.
func serveAnchor(addr string) error { return http.ListenAndServe(addr, anchorHandler(nil)) }

// anchorHandler is the SDK-only callback: the dispatcher's handler puts
// the event on a queue that a goroutine drains (counting into got when
// set).
func anchorHandler(got *atomic.Int64) http.Handler {
	q := make(chan *larkim.P2MessageReceiveV1, 1<<16)
	go func() {
		for range q {
			if got != nil {
				got.Add(1)
			}
		}
	}()
	d := dispatcher.NewEventDispatcher(token, encryptKey).OnP2MessageReceiveV1(
		func(_ context.Context, ev *larkim.P2MessageReceiveV1) error {
			q <- ev
			return nil
		})
	mux := http.NewServeMux()
	mux.HandleFunc("/feishu/events", httpserverext.NewEventHandlerFunc(d, larkevent.WithLogLevel(larkcore.LogLevelWarn)))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	return mux
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
	anchor, err := start(ctx, exec.Command(self, "-anchor", "ADDR"), nil, o.verbose)
	if err != nil {
		return fmt.Errorf("anchor: %w", err)
	}
	defer anchor.stop()
	for _, store := range []string{"embedded", "redis"} {
		env, cleanup, err := botEnv(ctx, o, dir, store)
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
func botEnv(ctx context.Context, o options, dir, store string) ([]string, func(), error) {
	data := filepath.Join(dir, "data-"+store)
	fake, err := startFake(o.fixtures)
	if err != nil {
		return nil, nil, err
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TZ=UTC", "BOT_DATA_DIR=" + data,
		"FEISHU_APP_ID=cli_load", "FEISHU_APP_SECRET=s", "FEISHU_VERIFICATION_TOKEN=" + token, "FEISHU_ENCRYPT_KEY=" + encryptKey,
		"FEISHU_MODE=webhook", "FEISHU_BASE_URL=" + fake.URL}
	cleanup := fake.Close
	if store == "redis" {
		if o.redisURL == "" {
			return nil, nil, fmt.Errorf("%w: -redis is empty", errSkip)
		}
		prefix := fmt.Sprintf("callbackload:%d:", time.Now().UnixNano())
		rc, err := redisClient(ctx, o.redisURL)
		if err != nil {
			fake.Close()
			return nil, nil, fmt.Errorf("%w: %v", errSkip, err)
		}
		cfg := filepath.Join(dir, "config-redis.yaml")
		if err := os.WriteFile(cfg, []byte("store:\n  kind: redis\n  prefix: \""+prefix+"\"\n"), 0o600); err != nil {
			fake.Close()
			return nil, nil, err
		}
		env = append(env, "BOT_CONFIG="+cfg, "REDIS_URL="+o.redisURL)
		cleanup = func() {
			fake.Close()
			dropKeys(rc, prefix)
			rc.Close()
		}
	}
	return env, cleanup, nil
}

func redisClient(ctx context.Context, url string) (*goredis.Client, error) {
	opt, err := goredis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	rc := goredis.NewClient(opt)
	pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := rc.Ping(pctx).Err(); err != nil {
		rc.Close()
		return nil, err
	}
	return rc, nil
}

// dropKeys deletes the run's keys.
func dropKeys(rc *goredis.Client, prefix string) {
	ctx := context.Background()
	iter := rc.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		rc.Del(ctx, iter.Val())
	}
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
