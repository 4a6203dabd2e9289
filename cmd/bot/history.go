package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/i18n"
)

// historyCmd is `bot history export | import FILE.csv | png --gpu 4090
// [--platform autodl] FILE.png`: the availability history.
func historyCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "history export | import FILE.csv | png --gpu GPU [--platform P] FILE.png",
		Short: "export, import or draw the availability history (CSV: time,minutes,platform,gpu,polls,in_stock,sold_out,free,price_cny)",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageError{errors.New("history needs a subcommand: export, import FILE.csv or png --gpu GPU FILE.png")}
		},
	}
	exp := &cobra.Command{
		Use:   "export",
		Short: "print the availability history as CSV",
		Args:  noArgs,
		RunE:  withApp(func(_ *cobra.Command, a *app.App) error { return a.ExportHistory(os.Stdout) }),
	}
	imp := &cobra.Command{
		Use:     "import FILE.csv",
		Short:   "add a CSV's rows to the history (all or none; rows older than 12 weeks are skipped)",
		Example: "  bot history import lab-history.csv",
		Args:    oneFile("history import needs one CSV file, e.g. bot history import history.csv"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return usageError{err}
			}
			defer f.Close()
			return withLoaded(cmd, func(a *app.App) error {
				added, skipped, err := a.ImportHistory(cmd.Context(), f)
				if err != nil {
					return fmt.Errorf("%s: %w", args[0], err)
				}
				fmt.Fprintln(os.Stdout, i18n.EN.T("cli.history.imported", added, skipped))
				return nil
			})
		},
	}
	var gpu, platform string
	png := &cobra.Command{
		Use:     "png --gpu GPU [--platform P] FILE.png",
		Short:   "draw a GPU's 7×24 availability heat map to a PNG",
		Example: "  bot history png --gpu 4090 --platform autodl docs/heatmap.png",
		Args:    oneFile("history png needs one output file, e.g. bot history png --gpu 4090 heatmap.png"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if gpu == "" {
				return usageError{errors.New("history png needs --gpu, e.g. --gpu 4090")}
			}
			return withLoaded(cmd, func(a *app.App) error {
				err := a.HistoryPNG(gpu, platform, args[0])
				if errors.Is(err, app.ErrUnknownName) {
					return usageError{err}
				}
				return err
			})
		},
	}
	png.Flags().StringVar(&gpu, "gpu", "", "the GPU (4090, A100 80G, …)")
	png.Flags().StringVar(&platform, "platform", "", "one platform (default: all, in stock on any)")
	c.AddCommand(exp, imp, png)
	return c
}

// oneFile accepts exactly one positional argument, else a usage error.
func oneFile(msg string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return usageError{errors.New(msg)}
		}
		return nil
	}
}
