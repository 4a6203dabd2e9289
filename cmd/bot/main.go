// Command bot is labgpu bot: a chat bot for lab groups that rent GPUs.
// See README.md for the command line.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/buildinfo"
	"github.com/labgpu/bot/internal/i18n"
)

// exitUsage is the exit code for a bad flag or config.
const exitUsage = 2

type usageError struct{ error }

func (u usageError) Unwrap() error { return u.error }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRoot()
	if cmd, err := root.ExecuteContextC(ctx); err != nil {
		if cmd != nil && jsonErrorCommands[cmd.Name()] && jsonRequested(os.Args[1:]) {
			writeErrorObject(os.Stdout, cmd.Name(), err)
		}
		var done exitOnly
		if errors.As(err, &done) {
			os.Exit(done.code)
		}
		var bad *ledger.CSVError
		if errors.As(err, &bad) {
			// A refused import lists its bad lines, one a line.
			fmt.Fprintln(os.Stderr, "bot: "+strings.TrimSpace(err.Error()))
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "bot: "+oneLine(err.Error()))
		var ue usageError
		if errors.As(err, &ue) {
			os.Exit(exitUsage)
		}
		os.Exit(1)
	}
}

// terminal reports whether f is a terminal (progress lines go there).
func terminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")
}

// noArgs rejects positional arguments with a usage error; on the root
// command an argument is an unknown subcommand.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if !cmd.HasParent() {
		return usageError{fmt.Errorf("unknown command %q; see bot --help", args[0])}
	}
	return usageError{fmt.Errorf("%s takes no arguments, got %q", cmd.Name(), strings.Join(args, " "))}
}

// load reads the config named by --config or BOT_CONFIG and builds the app.
func load(cmd *cobra.Command) (*app.App, error) {
	cfg, err := configOf(cmd)
	if err != nil {
		return nil, err
	}
	if answersAtOnce[cmd.Name()] {
		app.Warm(cfg.Catalog.Dir)
	}
	// Loaded once here, so a bad catalog directory is a usage error (2),
	// and handed to the app.
	cat, err := app.LoadCatalog(cfg.Catalog.Dir, cfg.Catalog.FXUSDCNY)
	if err != nil {
		return nil, usageError{err}
	}
	// One-shot commands work while a console or server holds the store's
	// lock: through its admin listener when it has one, else without
	// persisting snapshots.
	a, err := app.New(cmd.Context(), cfg, app.Options{StoreOptional: cmd.HasParent(), Catalog: cat, ThroughRunningBot: cmd.Name() != "serve"})
	if errors.Is(err, app.ErrBadCatalog) {
		return nil, usageError{err}
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// answersAtOnce are the commands that answer as soon as they have loaded:
// what answers need loads beside the catalog (app.Warm). A server and the
// console load it with the first message instead, to idle small.
var answersAtOnce = map[string]bool{"ask": true, "estimate": true}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "bot",
		Short:         "labgpu bot: GPU rental stock, prices and cost estimates for lab groups",
		Long:          "With no subcommand, bot starts a console chat on the built-in defaults (embedded store, catalog list prices; no config, server or network needed).",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          noArgs,
		RunE:          withApp(func(cmd *cobra.Command, a *app.App) error { return a.Console(cmd.Context(), os.Stdin, os.Stdout) }),
		Version:       buildinfo.Read().String(),
	}
	root.SetVersionTemplate("labgpu bot {{.Version}}\n")
	root.PersistentFlags().String("config", "", "config file (YAML); also BOT_CONFIG")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(consoleCmd(), askCmd(), estimateCmd(), pollCmd(), serveCmd(), healthCmd(), storageCmd(), digestCmd(), historyCmd(),
		versionCmd(), configCmd(), webhookCmd())
	root.AddCommand(keepCmds()...)
	return root
}

// withApp is a command's RunE that loads the app, runs f and closes it.
func withApp(f func(cmd *cobra.Command, a *app.App) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		return withLoaded(cmd, func(a *app.App) error { return f(cmd, a) })
	}
}

// withLoaded loads the app, runs f and closes it: the end of a RunE whose
// own checks of flags and arguments come first.
func withLoaded(cmd *cobra.Command, f func(a *app.App) error) error {
	a, err := load(cmd)
	if err != nil {
		return err
	}
	defer a.Close()
	return f(a)
}

// checkFormat is app.CheckFormat's error as a usage error.
func checkFormat(format string) error {
	if err := app.CheckFormat(format); err != nil {
		return usageError{err}
	}
	return nil
}

// consoleCmd is the console chat by name, for where a bare "bot" cannot be
// typed (the Docker image's default command is serve).
func consoleCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "console",
		Short: "console chat (what bot with no subcommand does)",
		Args:  noArgs,
		RunE:  withApp(func(cmd *cobra.Command, a *app.App) error { return a.Console(cmd.Context(), os.Stdin, os.Stdout) }),
	}
}

func askCmd() *cobra.Command {
	var format, chatKey string
	var full bool
	c := &cobra.Command{
		Use:     "ask [--format text|json] [--full] QUESTION",
		Short:   "answer one question and exit",
		Example: i18n.ZH.T("cli.ask.example"),
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 || strings.TrimSpace(strings.Join(args, " ")) == "" {
				return usageError{fmt.Errorf("ask needs a question, e.g. bot ask \"%s\"", i18n.ZH.T("cli.ask.sample"))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			return withLoaded(cmd, func(a *app.App) error {
				if err := a.Cfg.CheckChatKey(chatKey); err != nil {
					return usageError{fmt.Errorf("--chat: %w", err)}
				}
				channel, chatID, _ := strings.Cut(chatKey, "/")
				opts := []app.AskOption{app.InterimTo(os.Stderr)}
				if full {
					opts = append(opts, app.Full())
				}
				return a.AskIn(cmd.Context(), channel, chatID, strings.Join(args, " "), format, os.Stdout, opts...)
			})
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	c.Flags().BoolVar(&full, "full", false, i18n.EN.T("cli.ask.full"))
	c.Flags().StringVar(&chatKey, "chat", "console/console", "the chat the question comes from (subscriptions alert there), e.g. webhook/lab for a configured webhook")
	return c
}

func estimateCmd() *cobra.Command {
	var format string
	var f app.EstimateFlags
	var wf app.WorkloadFlags
	c := &cobra.Command{
		Use:   "estimate --model NAME|--params 7 --method full|lora|qlora|inference [flags]",
		Short: "estimate VRAM, time and cost of a training or inference job",
		Example: `  bot estimate --model Qwen2.5-7B --method qlora --samples 50000 --epochs 3
  bot estimate --params 7 --method lora --format json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			if app.IsWorkloadModel(f.Model) {
				// Not a language model: the workload estimator.
				return withLoaded(cmd, func(a *app.App) error {
					if err := a.EstimateWorkload(cmd.Context(), f, wf, format, os.Stdout); err != nil {
						return usageError{err}
					}
					return nil
				})
			}
			// A flag given explicitly must carry a usable value: "--seq 0"
			// is an error, not the default.
			for _, name := range []string{"seq", "batch", "samples", "tokens", "epochs", "params", "gpus", "rank", "tokens-per-sample"} {
				if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
					f.Given = append(f.Given, name)
				}
			}
			job, err := f.Job()
			if err != nil {
				return usageError{err}
			}
			return withLoaded(cmd, func(a *app.App) error {
				if job, err = a.ResolveJob(job, f.GPU); err != nil {
					return usageError{err}
				}
				return a.Estimate(cmd.Context(), job, format, os.Stdout)
			})
		},
	}
	fl := c.Flags()
	fl.StringVar(&format, "format", "text", "output format: text or json")
	fl.StringVar(&f.Model, "model", "", "model name, e.g. Qwen2.5-7B")
	fl.Float64Var(&f.ParamsB, "params", 0, "parameter count in billions, for a model not in the catalog")
	fl.StringVar(&f.Method, "method", "", "full, lora, qlora or inference (default lora)")
	fl.IntVar(&f.Bits, "bits", 0, "weight precision: 32, 16, 8 or 4")
	fl.IntVar(&f.SeqLen, "seq", 0, "sequence length / context (default 2048)")
	fl.IntVar(&f.Batch, "batch", 0, "effective batch per GPU (default 4; inference 1)")
	fl.IntVar(&f.Samples, "samples", 0, "training samples (default 10000)")
	fl.IntVar(&f.TokensPerSample, "tokens-per-sample", 0, "average tokens per sample (default 512)")
	fl.Float64Var(&f.Tokens, "tokens", 0, "dataset tokens per epoch (instead of --samples)")
	fl.Float64Var(&f.Epochs, "epochs", 0, "epochs (default 3)")
	fl.IntVar(&f.GPUCount, "gpus", 0, "number of GPUs, 1-8 (default: as many as needed)")
	fl.IntVar(&f.LoRARank, "rank", 0, "LoRA rank (default 16)")
	fl.StringVar(&f.Targets, "targets", "", "LoRA target layers: all (default), attn or qv")
	fl.StringVar(&f.Optimizer, "optimizer", "", "full fine-tune optimizer: adamw (default), adamw8bit (bf16 weights, 8-bit states, no fp32 master) or bf16")
	fl.StringVar(&f.Stack, "stack", "", "training stack: hf (plain Transformers), fa2 (FlashAttention-2, default) or tuned (Unsloth, Liger, torchtune, XTuner)")
	fl.BoolVar(&f.NoGradCkpt, "no-grad-ckpt", false, "gradient checkpointing off")
	fl.BoolVar(&f.NoFlashAttn, "no-flash-attn", false, "no FlashAttention (attention scores stored)")
	fl.IntVar(&f.ZeRO, "zero", 0, "multi-GPU sharding: 3 (default) or 2")
	fl.StringVar(&f.GPU, "gpu", "", "only this GPU, e.g. 4090 or A100")
	fl.StringVar(&f.Platform, "platform", "", "only this platform, e.g. autodl")
	fl.StringVar(&wf.Dataset, "dataset", "", "with a non-LLM --model (resnet50, vit-b16, yolov8n, bert-base, sdxl, sd15-lora …): imagenet, coco, cifar10 …")
	fl.IntVar(&wf.Images, "images", 0, "with a non-LLM --model: images to train on, or to generate")
	fl.IntVar(&wf.Steps, "steps", 0, "with a non-LLM --model: sampling steps per image, or a LoRA run's steps")
	fl.IntVar(&wf.Resolution, "resolution", 0, "with a non-LLM --model: pixels per side")
	fl.Float64Var(&wf.Fraction, "fraction", 0, "with --dataset: the share used, 0-1 (0.1 for a 10% subset)")
	return c
}

func serveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "serve [--config FILE]",
		Short: "run the chat channels (Feishu, webhooks), polling and alerts, with /healthz, /readyz and /metrics",
		Long: "Runs until SIGTERM or Ctrl-C (SIGHUP is logged and ignored). Feishu runs when FEISHU_APP_ID is set (FEISHU_MODE webhook or websocket); " +
			"the HTTP server listens on BOT_HTTP_ADDR (default :8080). The first log line says the version, config file, store and channels.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			hup := catchHangUps() // before the app loads: a SIGHUP at start must not end it
			defer hup.stop()
			return withLoaded(cmd, func(a *app.App) error {
				hup.setLog(a.Log)
				return a.Serve(cmd.Context(), app.ServeOptions{})
			})
		},
	}
}

func healthCmd() *cobra.Command {
	var url string
	var ready bool
	c := &cobra.Command{
		Use:   "health [--ready] [--url URL]",
		Short: "ask a running bot serve whether it is alive (/healthz) or ready (/readyz); exit 0 when it is",
		Long: "For container health checks (the image has no curl). Without --ready it asks /healthz (liveness: the process serves); " +
			"with --ready it asks /readyz (store, channels, providers) and prints what is wrong. Exits 1 when not alive or not ready.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if url == "" {
				url = healthURL(cmd)
			}
			return app.Probe(cmd.Context(), url, ready, cmd.OutOrStdout())
		},
	}
	c.Flags().StringVar(&url, "url", "", "the bot's HTTP address (default: BOT_HTTP_ADDR or http.addr, on this machine)")
	c.Flags().BoolVar(&ready, "ready", false, "ask /readyz instead of /healthz")
	return c
}

func pollCmd() *cobra.Command {
	var format string
	var once bool
	c := &cobra.Command{
		Use:   "poll --once [--format text|json]",
		Short: "poll every configured stock provider once and print the offers",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			if !once {
				return usageError{fmt.Errorf("poll needs --once (bot serve, or the console, polls on the schedule)")}
			}
			return withLoaded(cmd, func(a *app.App) error {
				var opts []app.PollOption
				if terminal(os.Stderr) {
					opts = append(opts, app.ProgressTo(os.Stderr))
				}
				return a.PollOnce(cmd.Context(), format, os.Stdout, opts...)
			})
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	c.Flags().BoolVar(&once, "once", false, "poll once and exit")
	return c
}

// labFlag is the --lab flag of storage and digest: a lab name from
// storage.labs or a chat key; default the console's chat.
func labFlag(c *cobra.Command, lab *string) {
	c.Flags().StringVar(lab, "lab", "console/console", "the lab: a name from storage.labs, or a chat key such as feishu/oc_123 (each chat is its own lab by default)")
}

func storageCmd() *cobra.Command {
	var lab string
	c := &cobra.Command{
		Use:   "storage import FILE.csv | storage export",
		Short: "import or export a lab's storage ledger as CSV (time,owner,platform,disk,action,size_gb,note)",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageError{errors.New("storage needs a subcommand: import FILE.csv or export")}
		},
	}
	imp := &cobra.Command{
		Use:     "import FILE.csv",
		Short:   "add a CSV's rows to the lab's ledger (all or none)",
		Example: "  bot storage import --lab feishu/oc_123 ledger.csv",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("storage import needs one CSV file, e.g. bot storage import ledger.csv")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return usageError{err}
			}
			defer f.Close()
			return withLoaded(cmd, func(a *app.App) error {
				n, err := a.ImportStorage(cmd.Context(), a.LabFor(lab), f)
				if err != nil {
					return fmt.Errorf("%s: %w", args[0], err)
				}
				fmt.Fprintln(os.Stdout, i18n.EN.T("cli.storage.imported", n, a.LabFor(lab)))
				return nil
			})
		},
	}
	exp := &cobra.Command{
		Use:   "export",
		Short: "print the lab's ledger as CSV",
		Args:  noArgs,
		RunE: withApp(func(cmd *cobra.Command, a *app.App) error {
			return a.ExportStorage(cmd.Context(), a.LabFor(lab), os.Stdout)
		}),
	}
	labFlag(imp, &lab)
	labFlag(exp, &lab)
	c.AddCommand(imp, exp)
	return c
}

func digestCmd() *cobra.Command {
	var lab, week, format, pngPath string
	var send, preview bool
	c := &cobra.Command{
		Use:     "digest [--week 2026-W48] [--format text|json] [--lab LAB] [--png FILE] [--send | --preview]",
		Short:   "print a lab's weekly storage spend digest",
		Example: "  bot digest --week 2026-W48 --format json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			if preview && (send || week != "" || pngPath != "" || format != app.FormatText) {
				return usageError{errors.New("--preview shows what the next scheduled run sends; it takes only --lab")}
			}
			return withLoaded(cmd, func(a *app.App) error {
				if preview {
					// Without --lab: every chat that turned the digest on.
					previewLab := ""
					if cmd.Flags().Changed("lab") {
						previewLab = a.LabFor(lab)
					}
					ps, err := a.PreviewDigest(cmd.Context(), previewLab)
					if err != nil {
						return err
					}
					a.WritePreview(os.Stdout, ps)
					return nil
				}
				if week != "" {
					if _, _, err := ledger.ISOWeek(week, a.Location); err != nil {
						return usageError{fmt.Errorf("--week: %w", err)}
					}
				}
				// Built once for the PNG, the chats and the output.
				d, err := a.BuildDigest(cmd.Context(), a.LabFor(lab), week)
				if err != nil {
					return err
				}
				if pngPath != "" {
					if err := a.WriteDigestPNG(d, pngPath); err != nil {
						return fmt.Errorf("--png: %w", err)
					}
				}
				if send {
					sent, err := a.SendDigest(cmd.Context(), a.LabFor(lab), d)
					if len(sent) > 0 {
						fmt.Fprintln(os.Stderr, i18n.EN.T("cli.digest.sent", strings.Join(sent, ", ")))
					}
					if err != nil {
						return fmt.Errorf("--send: %w", err)
					}
				}
				return a.WriteDigest(os.Stdout, d, format)
			})
		},
	}
	c.Flags().BoolVar(&send, "send", false, "also post it to the lab's chats now, every time it is run (webhooks and Feishu; WeChat only from bot serve); the scheduled digest is not affected")
	c.Flags().BoolVar(&preview, "preview", false, "show what the next scheduled run would post to each of the lab's chats, or without --lab to every chat that turned the digest on (its period, figures as of now); sends nothing, claims nothing")
	c.Flags().StringVar(&pngPath, "png", "", "also draw the last 8 weeks as a PNG bar chart in FILE")
	c.Flags().StringVar(&week, "week", "", "ISO week, e.g. 2026-W48 (default: this week so far)")
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	labFlag(c, &lab)
	return c
}
