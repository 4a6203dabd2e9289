// Command fakefeishu lets a lab's student try the bot on one machine
// before there is a Feishu app, a WeCom robot or a platform account: a
// fake Feishu open platform on a local port (tenant token, bot info,
// message create, reply and update, recording what the bot sends) that is
// also the chat. Each line typed on stdin ("@bot 哪家有4090", "p2p:
// 我的ID") is posted to bot serve's callback as Feishu posts an event,
// signed and encrypted with the app's verification token and Encrypt Key;
// the bot's messages are printed as they arrive, cards as text.
//
// With -platforms it also runs fake vast.ai and RunPod APIs answering the
// recordings in testdata/stock; with -wecom a fake WeCom group robot
// webhook that prints what it is sent (alerts, digests, `bot webhook
// test`).
//
// At start it writes the environment and the config bot serve needs into
// -dir and prints them:
//
//	go run ./tools/fakefeishu -platforms -wecom           # terminal 1: the fakes and the chat
//	. /tmp/labgpu-fake/bot.env && go run ./cmd/bot serve  # terminal 2: the bot
//
// docs/deploy.md ("Try it on your machine first") walks through it.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
	"github.com/labgpu/bot/tools/soak/fakes"
)

// The fixtures' group and member (testdata/feishu/README.md): the chat
// lines go to this group, from this member, unless told otherwise.
const (
	fixtureChat = "oc_5ad11d72b830411d72b836c20ad11d72"
	fixtureUser = "ou_84aad35d084aa403a838cf73ee18467d"
)

// options are the command line's.
type options struct {
	addr     string // the fake open platform's listen address
	bot      string // bot serve's address (BOT_HTTP_ADDR)
	dir      string // where bot.env, config.yaml and the bot's data go
	fixtures string // the module's testdata/
	// token and key are the app's verification token and Encrypt Key.
	token, key string
	// chat is the group's chat_id, user the default sender's open_id.
	chat, user       string
	platforms, wecom bool
}

func main() {
	o := parseFlags()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f, err := start(o, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakefeishu:", err)
		os.Exit(2)
	}
	defer f.close()
	f.printSetup()
	go f.watchBot(ctx)
	go func() {
		f.chat(ctx, os.Stdin)
		f.out.say("(no more input: the fakes keep running until Ctrl-C)")
	}()
	<-ctx.Done()
}

// parseFlags reads the command line; the token and key default to the
// FEISHU_* variables the bot reads, else to new random ones.
func parseFlags() options {
	var o options
	flag.StringVar(&o.addr, "addr", "127.0.0.1:9100", "where the fake Feishu open platform listens (FEISHU_BASE_URL)")
	flag.StringVar(&o.bot, "bot", "127.0.0.1:8080", "where bot serve listens (BOT_HTTP_ADDR); events go to http://ADDR/feishu/events")
	flag.StringVar(&o.dir, "dir", filepath.Join(os.TempDir(), "labgpu-fake"), "where bot.env, config.yaml and the bot's data go")
	flag.StringVar(&o.fixtures, "fixtures", "", "the recordings directory (default testdata/ of the module)")
	flag.StringVar(&o.token, "token", os.Getenv("FEISHU_VERIFICATION_TOKEN"), "the app's verification token (default FEISHU_VERIFICATION_TOKEN, else random)")
	flag.StringVar(&o.key, "key", os.Getenv("FEISHU_ENCRYPT_KEY"), "the app's Encrypt Key (default FEISHU_ENCRYPT_KEY, else random)")
	flag.StringVar(&o.chat, "chat", fixtureChat, "the group's chat_id")
	flag.StringVar(&o.user, "user", fixtureUser, "the open_id of who types (a line may start with another ou_…)")
	flag.BoolVar(&o.platforms, "platforms", false, "also run fake vast.ai and RunPod APIs (testdata/stock recordings)")
	flag.BoolVar(&o.wecom, "wecom", false, "also run a fake WeCom group robot webhook (webhook lab-wecom)")
	flag.Parse()
	if o.fixtures == "" {
		root, err := fakes.Testdata()
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakefeishu:", err, "(run it from the repository, or give -fixtures)")
			os.Exit(2)
		}
		o.fixtures = root
	}
	if o.token == "" {
		o.token = randomHex(12)
	}
	if o.key == "" {
		o.key = randomHex(16)
	}
	return o
}

// fake is a running fakefeishu: the fakes, the files it wrote and the
// chat's state.
type fake struct {
	o      options
	out    *printer
	feishu *fakes.Feishu
	events *feishutest.Events
	client *http.Client
	// secret, admin and run are made for each run: the app secret, the
	// admin listener's token, and the prefix of event and message ids
	// (the bot keeps ids it saw across restarts).
	secret, admin, run string
	seq                atomic.Int64
	plat               *platforms // -platforms
	wecom              *fakes.WeCom
	mu                 sync.Mutex
	privates           map[string]string // private chat_id → the member's open_id
}

// start starts the fakes and writes bot.env and config.yaml into o.dir;
// what happens is printed to w.
func start(o options, w io.Writer) (_ *fake, err error) {
	f := &fake{o: o, out: &printer{w: w}, client: &http.Client{Timeout: 10 * time.Second},
		secret: randomHex(8), admin: randomHex(16), run: randomHex(3), privates: map[string]string{}}
	defer func() {
		if err != nil {
			f.close()
		}
	}()
	if f.events, err = feishutest.LoadEvents(filepath.Join(o.fixtures, "feishu")); err != nil {
		return nil, err
	}
	if f.feishu, err = fakes.NewFeishuAt(filepath.Join(o.fixtures, "feishu"), o.addr); err != nil {
		return nil, fmt.Errorf("%w (another fakefeishu running? -addr picks another port)", err)
	}
	f.feishu.OnPost(f.showPost)
	if o.platforms {
		if f.plat, err = startPlatforms(o.fixtures); err != nil {
			return nil, err
		}
	}
	if o.wecom {
		if f.wecom, err = fakes.NewWeCom("127.0.0.1:0", randomHex(8)); err != nil {
			return nil, err
		}
		f.wecom.OnPost(f.showWeCom)
	}
	return f, f.writeFiles()
}

// close stops the fakes.
func (f *fake) close() {
	if f.feishu != nil {
		f.feishu.Close()
	}
	if f.plat != nil {
		f.plat.close()
	}
	if f.wecom != nil {
		f.wecom.Close()
	}
}

// callback is bot serve's event callback URL.
func (f *fake) callback() string { return "http://" + f.o.bot + "/feishu/events" }

// randomHex is n random bytes as hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand does not fail on Linux
	return hex.EncodeToString(b)
}

// printer writes whole blocks to the terminal, one at a time (replies
// arrive on the fakes' goroutines).
type printer struct {
	mu sync.Mutex
	w  io.Writer
}

// say writes one formatted line.
func (p *printer) say(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, format+"\n", args...)
}
