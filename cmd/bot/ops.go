package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/buildinfo"
	"github.com/labgpu/bot/internal/config"
)

// exitOnly is an error already reported on stderr: main exits with its
// code and prints nothing more.
type exitOnly struct{ code int }

func (e exitOnly) Error() string { return fmt.Sprintf("exit %d", e.code) }

// configPath is the config file --config or BOT_CONFIG names ("" none).
func configPath(cmd *cobra.Command) string {
	path, _ := cmd.Flags().GetString("config")
	if path == "" {
		path = os.Getenv("BOT_CONFIG")
	}
	return path
}

// versionCmd is `bot version`: the build, as `bot --version` and the
// in-chat "版本" print it.
func versionCmd() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "version [--format text|json]",
		Short: "print the build: module version, VCS revision, time and state, Go version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			bi := buildinfo.Read()
			if format == app.FormatJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(bi)
			}
			_, err := fmt.Fprintln(cmd.OutOrStdout(), "labgpu bot "+bi.String())
			return err
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return c
}

// configCmd is `bot config check`.
func configCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "config check [--config FILE]",
		Short: "check the config file and the environment without starting anything",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageError{errors.New("config needs a subcommand: check")}
		},
	}
	check := &cobra.Command{
		Use:   "check [--config FILE]",
		Short: "check the config and the environment; print what would run and the settings in effect (secrets masked), or every problem (exit 2)",
		Long: "Loads the config file (--config or BOT_CONFIG) and the environment as bot serve would, checks the catalog directory and the plans " +
			"against it, and starts nothing: no store, no channel, no network. With no problem it prints what would run (store, channels and why, " +
			"providers) and the settings in effect as YAML, secrets masked, each value marked with its source (FILE:LINE, env VARIABLE or default); " +
			"it warns (exit 0) of a secret written in the file that a variable could set and of a file with secrets others may read; else every problem, one a line, each naming the key, where its value came from and the fix, and exits 2.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return checkConfig(configPath(cmd), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	c.AddCommand(check)
	return c
}

// checkConfig is `bot config check` on the file at path.
func checkConfig(path string, out, errOut io.Writer) error {
	cfg, err := config.Load(path, os.LookupEnv)
	var ps config.Problems
	if err != nil && !errors.As(err, &ps) {
		return usageError{err}
	}
	ps = append(ps, app.CheckConfig(cfg, len(ps) == 0)...)
	for _, w := range configWarnings(cfg) {
		fmt.Fprintln(errOut, "bot config check: warning: "+w)
	}
	if len(ps) > 0 {
		fmt.Fprintf(errOut, "bot config check: %d problem(s):\n", len(ps))
		for _, p := range ps {
			fmt.Fprintln(errOut, "  - "+p.String())
		}
		return exitOnly{exitUsage}
	}
	eff, err := cfg.Effective()
	if err != nil {
		return err
	}
	fmt.Fprint(out, app.Describe(cfg).String())
	fmt.Fprintln(out, "\n# The settings in effect (secrets masked; after each value where it came from: FILE:LINE, env VARIABLE, or default, with what an empty or zero default stands for):")
	fmt.Fprint(out, eff)
	fmt.Fprintln(errOut, "bot config check: no problems")
	return nil
}

// configWarnings are what config check warns of without failing: each
// secret the config file writes that an environment variable could set
// instead, and a config file holding secrets that its group or others
// may read (mode & 0o044).
func configWarnings(cfg config.Config) []string {
	var out []string
	secrets := cfg.SecretsInFile()
	file := cfg.File()
	for _, s := range secrets {
		if s.Env != "" {
			out = append(out, fmt.Sprintf("%s line %d: %s is a secret written in the config file: set %s in the environment instead "+
				"(the systemd EnvironmentFile or the compose env_file, mode 600) and delete it from the file", file, s.Line, s.Key, s.Env))
		}
	}
	if len(secrets) == 0 {
		return out
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm()&0o044 == 0 {
		return out
	}
	keys := make([]string, len(secrets))
	for i, s := range secrets {
		keys[i] = fmt.Sprintf("%s (line %d)", s.Key, s.Line)
	}
	return append(out, fmt.Sprintf("%s is readable by others (mode %04o) and holds secrets: %s; chmod 600 %s (or 640 with the bot's group)",
		file, fi.Mode().Perm(), strings.Join(keys, ", "), file))
}

// webhookCmd is `bot webhook test NAME`.
func webhookCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "webhook test NAME",
		Short: "post a test message to a configured webhook (Feishu custom bot, WeCom group robot) and say what happened",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageError{errors.New("webhook needs a subcommand: test NAME")}
		},
	}
	test := &cobra.Command{
		Use:     "test NAME",
		Short:   "post a short test message to the webhook called NAME, once; exit 0 when it was delivered",
		Example: "  bot webhook test lab",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("webhook test needs the webhook's name (webhooks[].name), e.g. bot webhook test lab")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := config.Load(configPath(cmd), os.LookupEnv)
			if err != nil {
				return usageError{err}
			}
			err = app.TestWebhook(cmd.Context(), cfg, args[0], cmd.OutOrStdout())
			if errors.Is(err, app.ErrNoSuchWebhook) {
				return usageError{err}
			}
			return err
		},
	}
	c.AddCommand(test)
	return c
}

// hangUps catches SIGHUP from now until stop, so that it does not end
// the process (its default): `bot serve` logs to stderr, which has
// nothing to reopen, and reads its config only at start. Each one is
// logged once the log is known (setLog).
type hangUps struct {
	ch  chan os.Signal
	log chan *slog.Logger
}

func catchHangUps() *hangUps {
	h := &hangUps{ch: make(chan os.Signal, 1), log: make(chan *slog.Logger, 1)}
	signal.Notify(h.ch, syscall.SIGHUP)
	go func() {
		var log *slog.Logger
		for {
			select {
			case l := <-h.log:
				log = l
			case _, ok := <-h.ch:
				if !ok {
					return
				}
				if log != nil {
					log.Info("SIGHUP ignored: the log goes to stderr (nothing to reopen) and the config is read at start; restart the bot to apply a changed config")
				}
			}
		}
	}()
	return h
}

// setLog is where the hang-ups are logged from now on.
func (h *hangUps) setLog(l *slog.Logger) { h.log <- l }

// stop restores SIGHUP's default.
func (h *hangUps) stop() {
	signal.Stop(h.ch)
	close(h.ch)
}
