// Command bot is labgpu bot: a chat bot for lab groups that rent GPUs.
// See README.md and ../shared/DESIGN.md for the command line.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/config"
)

// exitUsage is the exit code for a bad flag or config.
const exitUsage = 2

type usageError struct{ error }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRoot()
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "bot: "+oneLine(err.Error()))
		if _, ok := err.(usageError); ok || isFlagError(err) {
			os.Exit(exitUsage)
		}
		os.Exit(1)
	}
}

func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")
}

// isFlagError recognises cobra's own command-line errors that do not pass
// through our validators (an unknown subcommand).
func isFlagError(err error) bool {
	return strings.Contains(err.Error(), "unknown command")
}

// noArgs rejects positional arguments with a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError{fmt.Errorf("%s takes no arguments, got %q", cmd.Name(), strings.Join(args, " "))}
	}
	return nil
}

// load reads the config named by --config or BOT_CONFIG and builds the app.
func load(cmd *cobra.Command) (*app.App, error) {
	path, _ := cmd.Flags().GetString("config")
	if path == "" {
		path = os.Getenv("BOT_CONFIG")
	}
	cfg, err := config.Load(path, os.LookupEnv)
	if err != nil {
		return nil, usageError{err}
	}
	a, err := app.New(cmd.Context(), cfg, app.Options{})
	if err != nil {
		return nil, usageError{err}
	}
	return a, nil
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "bot",
		Short:         "labgpu bot: GPU rental stock, prices and cost estimates for lab groups",
		Long:          "With no subcommand, bot starts a console chat on the built-in defaults (embedded store, catalog list prices; no config, server or network needed).",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := load(cmd)
			if err != nil {
				return err
			}
			defer a.Close()
			return a.Console(cmd.Context(), os.Stdin, os.Stdout)
		},
	}
	root.PersistentFlags().String("config", "", "config file (YAML); also BOT_CONFIG")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(askCmd(), estimateCmd(), pollCmd())
	return root
}

func askCmd() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:     "ask [--format text|json] QUESTION",
		Short:   "answer one question and exit",
		Example: `  bot ask "哪家有4090"` + "\n" + `  bot ask --format json "7B LoRA 要多少钱"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 || strings.TrimSpace(strings.Join(args, " ")) == "" {
				return usageError{fmt.Errorf("ask needs a question, e.g. bot ask \"哪家有4090\"")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.CheckFormat(format); err != nil {
				return usageError{err}
			}
			a, err := load(cmd)
			if err != nil {
				return err
			}
			defer a.Close()
			return a.Ask(cmd.Context(), strings.Join(args, " "), format, os.Stdout)
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return c
}

func estimateCmd() *cobra.Command {
	var format, gpu string
	var j billing.Job
	c := &cobra.Command{
		Use:   "estimate --model NAME|--params 7 --method full|lora|qlora|inference [flags]",
		Short: "estimate VRAM, time and cost of a training or inference job",
		Example: `  bot estimate --model Qwen2.5-7B --method qlora --samples 50000 --epochs 3
  bot estimate --params 7 --method lora --format json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := app.CheckFormat(format); err != nil {
				return usageError{err}
			}
			switch j.Method {
			case "", billing.MethodFull, billing.MethodLoRA, billing.MethodQLoRA, billing.MethodInference:
			default:
				return usageError{fmt.Errorf("--method: %q is not full, lora, qlora or inference", j.Method)}
			}
			switch j.Bits {
			case 0, 4, 8, 16:
			default:
				return usageError{fmt.Errorf("--bits: %d is not 16, 8 or 4", j.Bits)}
			}
			if j.SeqLen < 0 || j.Batch < 0 || j.Samples < 0 || j.Tokens < 0 || j.Epochs < 0 || j.ParamsB < 0 || j.GPUCount < 0 {
				return usageError{fmt.Errorf("--seq, --batch, --samples, --tokens, --epochs, --params and --gpus must not be negative")}
			}
			a, err := load(cmd)
			if err != nil {
				return err
			}
			defer a.Close()
			if j.Model != "" {
				id, ok := a.Cat.ResolveModel(j.Model)
				if !ok && j.ParamsB == 0 {
					return usageError{fmt.Errorf("--model: unknown model %q; give its size with --params (e.g. --params 7)", j.Model)}
				}
				j.Model = id
			}
			if j.Model == "" && j.ParamsB == 0 {
				return usageError{fmt.Errorf("give --model NAME or --params SIZE_IN_BILLIONS")}
			}
			if gpu != "" {
				id, ok := a.Cat.ResolveGPU(gpu)
				members := a.Cat.FamilyMembers(gpu)
				switch {
				case ok:
					j.GPUs = []string{id}
				case len(members) > 0:
					j.GPUs = members
				default:
					return usageError{fmt.Errorf("--gpu: unknown GPU %q", gpu)}
				}
			}
			if j.Platform != "" {
				id, ok := a.Cat.ResolvePlatform(j.Platform)
				if !ok {
					return usageError{fmt.Errorf("--platform: unknown platform %q", j.Platform)}
				}
				j.Platform = id
			}
			return a.Estimate(cmd.Context(), j, format, os.Stdout)
		},
	}
	f := c.Flags()
	f.StringVar(&format, "format", "text", "output format: text or json")
	f.StringVar(&j.Model, "model", "", "model name, e.g. Qwen2.5-7B")
	f.Float64Var(&j.ParamsB, "params", 0, "parameter count in billions when the model is not in the catalog")
	f.StringVar(&j.Method, "method", "", "full, lora, qlora or inference (default lora)")
	f.IntVar(&j.Bits, "bits", 0, "weight precision: 16, 8 or 4")
	f.IntVar(&j.SeqLen, "seq", 0, "sequence length / context (default 2048)")
	f.IntVar(&j.Batch, "batch", 0, "micro-batch per GPU (default 4; inference 1)")
	f.IntVar(&j.Samples, "samples", 0, "training samples (default 10000)")
	f.Float64Var(&j.Tokens, "tokens", 0, "dataset tokens per epoch (overrides --samples)")
	f.Float64Var(&j.Epochs, "epochs", 0, "epochs (default 3)")
	f.IntVar(&j.GPUCount, "gpus", 0, "number of GPUs (default: as many as needed)")
	f.StringVar(&gpu, "gpu", "", "only this GPU, e.g. 4090 or A100")
	f.StringVar(&j.Platform, "platform", "", "only this platform, e.g. autodl")
	return c
}

func pollCmd() *cobra.Command {
	var format string
	var once bool
	c := &cobra.Command{
		Use:   "poll --once [--format text|json]",
		Short: "poll every configured stock provider once and print the offers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := app.CheckFormat(format); err != nil {
				return usageError{err}
			}
			if !once {
				return usageError{fmt.Errorf("poll needs --once (continuous polling runs under bot serve)")}
			}
			a, err := load(cmd)
			if err != nil {
				return err
			}
			defer a.Close()
			return a.PollOnce(cmd.Context(), format, os.Stdout)
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	c.Flags().BoolVar(&once, "once", false, "poll once and exit")
	return c
}
