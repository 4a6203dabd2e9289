package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/console"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/stock"
)

// Formats accepted by --format.
const (
	FormatText = "text"
	FormatJSON = "json"
)

// CheckFormat validates a --format value.
func CheckFormat(f string) error {
	if f != FormatText && f != FormatJSON {
		return fmt.Errorf("--format: %q is not text or json", f)
	}
	return nil
}

// Console runs the interactive console on in/out.
func (a *App) Console(ctx context.Context, in io.Reader, out io.Writer) error {
	opts := console.Options{}
	if f, ok := in.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			// A terminal: a pasted traceback arrives as many lines at
			// once and is one question.
			opts = console.Options{Prompt: "> ", PasteWindow: 50 * time.Millisecond}
			fmt.Fprintln(out, i18n.ZH.T("cli.console_banner"))
		}
	}
	opts.InterimAfter = a.Cfg.Stock.InterimAfter.D()
	defer settled().Stop()
	con := &console.Channel{In: in, Out: out, Handler: a.Router, Options: opts}
	a.chans.Add(con)
	if a.Cfg.Stock.Poll.Schedule != "" && a.LiveProviders() && a.Store != nil {
		poller := a.NewPoller()
		s := jobs.NewScheduler(a.Location, a.Log)
		if err := s.Add(ctx, a.Cfg.Stock.Poll.Schedule, poller.Run, jobs.Jitter(ctx, a.Cfg.Stock.Poll.Jitter.D())); err != nil {
			return fmt.Errorf("stock.poll.schedule: %w", err)
		}
		s.Start()
		defer func() {
			s.Stop()
			poller.Release(context.WithoutCancel(ctx))
		}()
	}
	return con.Run(ctx)
}

// Ask answers one question on w as text or one JSON object.
func (a *App) Ask(ctx context.Context, question, format string, w io.Writer) error {
	return a.AskIn(ctx, "console", "console", question, format, w)
}

// SettleAfter is how long after start a long-running process (serve, the
// console) hands the start-up's garbage back to the OS. The runtime
// would too, but over minutes; a process that waits for messages should
// sit at its working size.
const SettleAfter = 10 * time.Second

// settled returns the OS the memory the start-up freed, once, SettleAfter
// from now (stop the timer when the process ends first).
func settled() *time.Timer { return time.AfterFunc(SettleAfter, debug.FreeOSMemory) }

// AskOption tunes AskIn.
type AskOption func(*askOptions)

type askOptions struct {
	full    bool
	interim io.Writer
}

// InterimTo writes the "查询中…" of a slow answer to w (stderr) at once,
// so a terminal is never silent while fresh data is fetched.
func InterimTo(w io.Writer) AskOption { return func(o *askOptions) { o.interim = w } }

// Full prints the long form of the answer (what "详情" shows) instead of
// the short one.
func Full() AskOption { return func(o *askOptions) { o.full = true } }

// AskIn answers one question as if asked in the given chat (channel and
// chat id): a subscription made this way alerts that chat.
func (a *App) AskIn(ctx context.Context, channel, chatID, question, format string, w io.Writer, opts ...AskOption) error {
	var o askOptions
	for _, f := range opts {
		f(&o)
	}
	msg := chat.Message{Channel: channel, ID: "cli", ChatID: chatID, ChatType: chat.P2P, SenderID: "console", SenderName: i18n.ZH.T("console.sender_name"), Text: question, Time: time.Now()}
	var res commands.Result
	var interim func()
	if o.interim != nil {
		interim = func() { fmt.Fprintln(o.interim, chat.PlainText(a.Router.Interim(msg))) }
	}
	chat.AnswerWithInterim(ctx, a.Cfg.Stock.InterimAfter.D(), func() chat.Reply { res = a.Router.Answer(ctx, msg); return res.Reply }, interim)
	switch res.Intent {
	case commands.IntentSubscribe, commands.IntentUnsubscribe, commands.IntentSubscriptions, commands.IntentMute,
		commands.IntentStorageAdd, commands.IntentStorageList, commands.IntentStorageResize, commands.IntentStorageStop,
		commands.IntentStorageStart, commands.IntentStorageRemove, commands.IntentStorageRisk, commands.IntentDigest:
		if a.Store == nil {
			return fmt.Errorf("%w; or send this in the chat", errNoStore)
		}
	}
	if format == FormatJSON {
		return writeJSON(w, res)
	}
	text := res.Text
	if o.full && res.Reply.Full != nil {
		text = res.FullText
	}
	_, err := io.WriteString(w, text)
	return err
}

// Estimate runs the estimator on a job given by flags.
func (a *App) Estimate(ctx context.Context, job estimator.Job, format string, w io.Writer) error {
	q := commands.Query{Intent: commands.IntentEstimate, Model: job.Model, ParamsB: job.ParamsB, Method: job.Method, Bits: job.Bits,
		SeqLen: job.SeqLen, Batch: job.Batch, Samples: job.Samples, TokensPerSample: job.TokensPerSample, Tokens: job.Tokens,
		Epochs: job.Epochs, GPUCount: job.GPUCount, LoRARank: job.LoRARank, LoRATargets: job.LoRATargets, Optimizer: job.Optimizer,
		NoGradCkpt: job.NoGradCkpt, NoFlashAttn: job.NoFlashAttn, ZeRO: job.ZeRO, GPUs: job.GPUs, Stack: job.Stack}
	if job.Platform != "" {
		q.Platform, q.Platforms = job.Platform, []string{job.Platform}
	}
	if len(job.GPUs) > 0 {
		q.GPU = job.GPUs[0]
	}
	if _, known := a.Cat.Model(job.Model); job.Model != "" && !known {
		// A name the catalog lacks (ResolveJob): estimated from its size,
		// and the answer says so.
		q.Model, q.ModelText = "", job.Model
	}
	res := a.Router.AnswerQuery(ctx, q)
	if _, ok := res.Payload.(estimateview.Estimate); !ok {
		return &NoEstimateError{Answer: strings.TrimSpace(res.Text)}
	}
	if format == FormatJSON {
		return writeJSON(w, res)
	}
	_, err := io.WriteString(w, chat.PlainText(res.Reply))
	return err
}

// NoEstimateError is Estimate's error when the job got an answer but no
// estimate (the estimator refused it); Answer is the bot's reply.
type NoEstimateError struct{ Answer string }

func (e *NoEstimateError) Error() string { return "no estimate: " + e.Answer }

// writePollTables prints one status line per provider (ok / not
// configured / error, offers, latency, skipped example rows) and the
// offers with their caveats, times in the configured zone.
func (a *App) writePollTables(w io.Writer, snap stock.Snapshot, offers []stock.Offer) {
	t := &chat.Table{Header: i18n.EN.L("cli.poll.providers_header")}
	for _, p := range snap.Providers {
		fetched := ""
		if !p.FetchedAt.IsZero() {
			fetched = a.Clock().Second(p.FetchedAt)
		}
		status := string(p.Status)
		if p.Status == stock.StatusNotConfigured {
			status = i18n.EN.T("cli.poll.not_configured")
		}
		errText := p.Err
		if p.Placeholders > 0 {
			errText = strings.TrimSpace(errText + " " + i18n.EN.T("cli.poll.placeholders", p.Placeholders))
		}
		t.Rows = append(t.Rows, []string{p.Provider, status, fmt.Sprint(len(p.Offers)), p.Latency.Round(time.Millisecond).String(), fmt.Sprint(p.Failures), fetched, errText})
	}
	fmt.Fprint(w, chat.AlignTable(t))
	o := &chat.Table{Header: i18n.EN.L("cli.poll.offers_header")}
	for _, of := range offers {
		if of.Source == stock.SourceCatalog {
			continue
		}
		free, price, seen := "?", "?", i18n.EN.T("cli.poll.unknown")
		switch {
		case of.Level != "":
			free = i18n.EN.T("cli.poll.level", of.Level)
		case of.Free != nil:
			free = fmt.Sprint(*of.Free)
		}
		if of.HasPrice() {
			price = fmt.Sprintf("%.2f", of.CNYPerGPUHour)
		}
		if !of.ObservedAt.IsZero() {
			seen = a.Clock().DateMinute(of.ObservedAt)
		}
		var caveats []string
		for _, c := range of.Caveats {
			caveats = append(caveats, string(c))
		}
		o.Rows = append(o.Rows, []string{of.Platform, of.GPU, price, free, of.Region, string(of.Source), seen, strings.Join(caveats, ",")})
	}
	if len(o.Rows) > 0 {
		fmt.Fprintln(w)
		fmt.Fprint(w, chat.AlignTable(o))
	}
}

// PollOption tunes PollOnce.
type PollOption func(*pollOptions)

type pollOptions struct{ progress io.Writer }

// ProgressTo prints one line per provider to w as each fetch ends
// (stderr on a terminal), so a slow provider never means a silent wait.
func ProgressTo(w io.Writer) PollOption { return func(o *pollOptions) { o.progress = w } }

// pollProgress writes "[2/7] hengyuan: ok, 12 offers, 1.2s" lines.
func pollProgress(w io.Writer, total int) stock.Progress {
	var mu sync.Mutex
	done := 0
	return func(ps stock.ProviderSnapshot) {
		mu.Lock()
		defer mu.Unlock()
		done++
		status := string(ps.Status)
		switch ps.Status {
		case stock.StatusNotConfigured:
			status = i18n.EN.T("cli.poll.not_configured")
		case stock.StatusError, stock.StatusStale:
			status += " (" + string(ps.Reason) + ")"
		}
		fmt.Fprintln(w, i18n.EN.T("cli.poll.progress", done, total, ps.Provider, status, len(ps.Offers), ps.Latency.Round(time.Millisecond).String()))
	}
}

// PollResult is what `bot poll --once --format json` prints.
type PollResult struct {
	TakenAt   time.Time                `json:"taken_at"`
	Providers []stock.ProviderSnapshot `json:"providers"`
	Offers    []stock.Offer            `json:"offers"`
	Alerts    stock.ProcessResult      `json:"alerts"`
	// AlertText is the console alerts this poll sent, as printed.
	AlertText string `json:"alert_text,omitempty"`
	Note      string `json:"note,omitempty"`
}

// PollOnce fetches every provider once and prints the offers. It returns
// an error when every configured live provider failed.
func (a *App) PollOnce(ctx context.Context, format string, w io.Writer, opts ...PollOption) error {
	var o pollOptions
	for _, f := range opts {
		f(&o)
	}
	if o.progress != nil {
		ctx = stock.WithProgress(ctx, pollProgress(o.progress, len(a.Board.Providers())))
	}
	// Alerts for console subscriptions print here; others wait for their
	// channel.
	alerts := &bytes.Buffer{}
	a.chans.Add(console.NewOut(alerts))
	poller := a.NewPoller()
	ran, snap, pres, err := poller.RunOnce(ctx)
	if ran {
		defer poller.Release(context.WithoutCancel(ctx))
		if herr := a.History.Record(ctx, snap); herr != nil {
			a.Log.Warn("poll: history", "err", herr)
		}
	}
	if err != nil {
		return err
	}
	note := ""
	if !ran {
		// Another replica polls and alerts; still show the providers.
		snap = a.Board.Refresh(ctx)
		note = i18n.EN.T("cli.poll.lock_elsewhere", jobs.PollLock)
	}
	res := PollResult{TakenAt: snap.TakenAt, Providers: snap.Providers, Offers: snap.Offers(), Alerts: pres, AlertText: alerts.String(), Note: note}
	sort.SliceStable(res.Offers, func(i, j int) bool {
		if res.Offers[i].GPU != res.Offers[j].GPU {
			return res.Offers[i].GPU < res.Offers[j].GPU
		}
		return res.Offers[i].CNYPerGPUHour < res.Offers[j].CNYPerGPUHour
	})
	if format == FormatJSON {
		if err := writeJSON(w, a.inZone(res)); err != nil {
			return err
		}
	} else {
		a.writePollTables(w, snap, res.Offers)
	}
	if format != FormatJSON {
		if alerts.Len() > 0 {
			fmt.Fprint(w, alerts.String())
		}
		if note != "" {
			fmt.Fprintln(w, note)
		}
	}
	failed, live := 0, 0
	for _, p := range snap.Providers {
		if p.Provider == "catalog" || p.Status == stock.StatusNotConfigured {
			continue
		}
		live++
		if p.Status != stock.StatusOK {
			failed++
		}
	}
	if live > 0 && failed == live {
		return fmt.Errorf("poll: all %d providers failed", live)
	}
	return nil
}

// inZone is res with its times in the configured zone (the same
// instants), so the JSON reads like the tables, the answers and the log.
// A recording's date-only time is kept as recorded.
func (a *App) inZone(res PollResult) PollResult {
	c := a.Clock()
	at := func(o stock.Offer) stock.Offer {
		if !o.DateOnly && !o.ObservedAt.IsZero() {
			o.ObservedAt = c.In(o.ObservedAt)
		}
		return o
	}
	offers := func(in []stock.Offer) []stock.Offer {
		out := make([]stock.Offer, len(in))
		for i, o := range in {
			out[i] = at(o)
		}
		return out
	}
	res.TakenAt = c.In(res.TakenAt)
	res.Offers = offers(res.Offers)
	ps := make([]stock.ProviderSnapshot, len(res.Providers))
	for i, p := range res.Providers {
		if !p.FetchedAt.IsZero() {
			p.FetchedAt = c.In(p.FetchedAt)
		}
		p.Offers = offers(p.Offers)
		ps[i] = p
	}
	res.Providers = ps
	return res
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
