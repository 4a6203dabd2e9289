package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/labgpu/bot/internal/admin"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/store/backup"
	"github.com/labgpu/bot/internal/store/dump"
	"github.com/labgpu/bot/internal/store/embedded"
)

// configOf reads the config named by --config or BOT_CONFIG (a usage
// error when it is bad).
func configOf(cmd *cobra.Command) (config.Config, error) {
	path, _ := cmd.Flags().GetString("config")
	if path == "" {
		path = os.Getenv("BOT_CONFIG")
	}
	cfg, err := config.Load(path, os.LookupEnv)
	if err != nil {
		return cfg, usageError{err}
	}
	return cfg, nil
}

// storeOf is where the config keeps the state, and how to reach a bot
// running on it.
func storeOf(cfg config.Config) backup.Store {
	return backup.Store{Kind: cfg.Store.Kind, DataDir: cfg.DataDir, RedisURL: cfg.Store.RedisURL, Prefix: cfg.Store.Prefix,
		RedisAddrs: cfg.Store.RedisAddrs, MasterName: cfg.Store.RedisMasterName,
		Admin: admin.DialOptions{Addr: cfg.Admin.Addr, Token: cfg.Admin.Token, DataDir: cfg.DataDir}}
}

// keepCmds are backup, restore and migrate.
func keepCmds() []*cobra.Command { return []*cobra.Command{backupCmd(), restoreCmd(), migrateCmd()} }

func backupCmd() *cobra.Command {
	var allowEmpty bool
	cmd := &cobra.Command{
		Use:   "backup FILE|-",
		Short: "write a backup of the store to FILE (a .tar.gz; - for stdout): consistent while bot serve runs",
		Long: "Writes both files of the embedded store (labgpu.db and labgpu-claims.db), each a consistent copy, " +
			"through the running bot's admin listener when a bot holds them (BOT_ADMIN_TOKEN); with the Redis store, every entry. " +
			"The backup is opened as it is written and what it holds is printed. bot restore puts it back. " +
			"A store with no entries at all (most often the wrong BOT_DATA_DIR, data_dir, REDIS_URL or store.prefix) is refused, " +
			"nothing written, unless --allow-empty.",
		Example: "  bot backup /backups/labgpu-$(date +%F).tar.gz\n  docker compose exec -T bot bot backup - > labgpu.tar.gz",
		Args:    oneFile("backup needs one file, e.g. bot backup labgpu-backup.tar.gz (- writes to stdout)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := configOf(cmd)
			if err != nil {
				return err
			}
			if !allowEmpty {
				if err := storeFileMissing(cfg); err != nil {
					return err
				}
			}
			out, done, err := backupTarget(args[0])
			if err != nil {
				return err
			}
			res, err := backup.Backup(cmd.Context(), storeOf(cfg), out)
			if err == nil && res.Counts.Total() == 0 && !allowEmpty {
				err = emptyStoreError(cfg, res.Via)
			}
			if err = done(err); err != nil {
				return err
			}
			w := os.Stdout
			if args[0] == "-" {
				w = os.Stderr
			}
			fmt.Fprintln(w, i18n.EN.T("cli.backup.written", args[0], res.Via, res.Counts))
			return nil
		},
	}
	cmd.Flags().BoolVar(&allowEmpty, "allow-empty", false, "write the backup even when the store holds no entries")
	return cmd
}

// storeLocation says where the config puts the store and where that
// setting came from: "data_dir /srv/x (from environment variable
// BOT_DATA_DIR)", "store.redis_url redis://… (default)".
func storeLocation(cfg config.Config) string {
	key, val := "data_dir", cfg.DataDir
	if cfg.Store.Kind == "redis" {
		key, val = "store.redis_url", backup.Redacted(cfg.Store.RedisURL)
		if len(cfg.Store.RedisAddrs) > 0 {
			key, val = "store.redis_addrs", strings.Join(cfg.Store.RedisAddrs, ",")
		}
		val += fmt.Sprintf(", store.prefix %q (%s)", cfg.Store.Prefix, sourceOr(cfg, "store.prefix"))
	}
	return fmt.Sprintf("%s %s (%s)", key, val, sourceOr(cfg, key))
}

// sourceOr is where key's value came from, "default" for a built-in one.
func sourceOr(cfg config.Config, key string) string {
	if src := cfg.Source(key); src != "" {
		return "from " + src
	}
	return "default"
}

// storeFileMissing refuses a backup of an embedded store whose file does
// not exist (a wrong data dir): opening it would create an empty one.
func storeFileMissing(cfg config.Config) error {
	if cfg.Store.Kind == "redis" {
		return nil
	}
	path := filepath.Join(cfg.DataDir, embedded.FileName)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("backup: no store at %s: %s holds no %s; is that the bot's data directory? "+
			"Set BOT_DATA_DIR (or data_dir) to it; nothing was written (--allow-empty writes an empty backup anyway)",
			path, storeLocation(cfg), embedded.FileName)
	}
	return nil
}

// emptyStoreError is a backup refused because the store holds nothing.
func emptyStoreError(cfg config.Config, via string) error {
	return fmt.Errorf("the store is empty: %s holds no entries (no subscription, ledger event, snapshot or any other state); "+
		"it was looked for at %s. Is that the bot's store? Check BOT_DATA_DIR or data_dir (REDIS_URL, store.prefix for Redis); "+
		"nothing was written (--allow-empty writes an empty backup anyway)", via, storeLocation(cfg))
}

// backupTarget opens where a backup goes: a temporary file beside path
// that done renames into place once the backup is whole (and removes
// otherwise); for "-" (stdout, never a terminal) a temporary file that
// done copies to stdout once the backup is whole, so a refused backup
// writes nothing there either.
func backupTarget(path string) (w io.Writer, done func(error) error, err error) {
	if path == "-" {
		if terminal(os.Stdout) {
			return nil, nil, usageError{errors.New("backup -: stdout is a terminal; redirect it to a file (bot backup - > labgpu.tar.gz)")}
		}
		f, err := os.CreateTemp("", "labgpu-backup-stdout-")
		if err != nil {
			return nil, nil, fmt.Errorf("backup -: %w", err)
		}
		return f, func(err error) error {
			defer os.Remove(f.Name())
			defer f.Close()
			if err != nil {
				return fmt.Errorf("backup -: %w", err)
			}
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return fmt.Errorf("backup -: %w", err)
			}
			if _, err := io.Copy(os.Stdout, f); err != nil {
				return fmt.Errorf("backup -: %w", err)
			}
			return nil
		}, nil
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".partial-")
	if err != nil {
		return nil, nil, fmt.Errorf("backup %s: %w", path, err)
	}
	return f, func(err error) error {
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.Name(), path)
		}
		if err != nil {
			os.Remove(f.Name())
			return fmt.Errorf("backup %s: %w", path, err)
		}
		return nil
	}, nil
}

func restoreCmd() *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "restore FILE|- [--force]",
		Short: "put a backup (bot backup) back into the configured store; the bot must be stopped",
		Long: "Into the embedded store: replaces labgpu.db and labgpu-claims.db in BOT_DATA_DIR (refused while a bot runs on them; " +
			"a store with entries is replaced only with --force, its files kept beside as *.before-restore-*). " +
			"Into the Redis store: writes every entry of the backup (one with entries only with --force, which deletes them first).",
		Example: "  bot restore labgpu-2026-11-30.tar.gz\n  docker compose run --rm -T bot restore - < labgpu.tar.gz",
		Args:    oneFile("restore needs one backup file, e.g. bot restore labgpu-backup.tar.gz (- reads stdin)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := configOf(cmd)
			if err != nil {
				return err
			}
			var in io.Reader = os.Stdin
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return usageError{err}
				}
				defer f.Close()
				in = f
			}
			res, err := backup.Restore(cmd.Context(), storeOf(cfg), in, force)
			if errors.Is(err, embedded.ErrNotEmpty) || errors.Is(err, dump.ErrNotEmpty) {
				return usageError{err}
			}
			if err != nil {
				return fmt.Errorf("restore %s: %w", args[0], err)
			}
			fmt.Fprintln(os.Stdout, i18n.EN.T("cli.restore.done", args[0], res.Via, res.Counts))
			return nil
		},
	}
	c.Flags().BoolVar(&force, "force", false, "replace a store that holds entries")
	return c
}

func migrateCmd() *cobra.Command {
	var to, prefix string
	var force bool
	c := &cobra.Command{
		Use:   "migrate --to redis://HOST:6379/0 [--prefix labgpu:] [--force]",
		Short: "move every kind of state into Redis (for two replicas), with counts per kind before and after",
		Long: "Copies subscriptions, alert records, mutes, digest settings and marks, the storage ledger, blobs (the WeChat login state " +
			"and admin bindings), the availability history, snapshots, claims and delivered parts (not the Feishu inbox, which is transient) from the configured store " +
			"into Redis (locks stay: they belong to running bots). The embedded store is read in one transaction, through the running bot " +
			"when one holds it, and left as it was. A Redis prefix holding anything is refused without --force, which deletes it first.",
		Example: "  bot migrate --to redis://:secret@127.0.0.1:6379/0",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if to == "" {
				return usageError{errors.New("migrate needs --to, the Redis URL, e.g. --to redis://127.0.0.1:6379/0")}
			}
			cfg, err := configOf(cmd)
			if err != nil {
				return err
			}
			if prefix == "" {
				prefix = cfg.Store.Prefix
			}
			m, err := backup.Migrate(cmd.Context(), storeOf(cfg), to, prefix, force)
			if m.After != nil || m.Source.Total() > 0 {
				printMigration(os.Stdout, m)
			}
			if errors.Is(err, dump.ErrNotEmpty) {
				return usageError{err}
			}
			if err != nil {
				return fmt.Errorf("migrate: %w", err)
			}
			fmt.Fprintln(os.Stdout, i18n.EN.T("cli.migrate.next", m.Moved.Total(), m.To, backup.Redacted(to), prefix))
			if m.RunningBot {
				fmt.Fprintln(os.Stdout, i18n.EN.T("cli.migrate.running_bot"))
			}
			return nil
		},
	}
	c.Flags().StringVar(&to, "to", "", "the Redis server, redis://[:password@]host:port/db (rediss:// for TLS)")
	c.Flags().StringVar(&prefix, "prefix", "", "key prefix in Redis (default store.prefix, labgpu:)")
	c.Flags().BoolVar(&force, "force", false, "delete what the prefix holds in Redis first")
	return c
}

// printMigration is the counts per kind: read from the store, written,
// and held by Redis afterwards.
func printMigration(w io.Writer, m backup.Migration) {
	fmt.Fprintln(w, i18n.EN.T("cli.migrate.from", m.From))
	head := i18n.EN.L("cli.migrate.header")
	fmt.Fprintf(w, "%-16s %8s %8s %8s\n", head[0], head[1], head[2], head[3])
	for _, k := range dump.Kinds {
		moved, after := fmt.Sprint(m.Moved[k]), fmt.Sprint(m.After[k])
		note := ""
		if k == dump.Locks {
			moved, note = "-", "  "+i18n.EN.T("cli.migrate.locks")
		}
		fmt.Fprintf(w, "%-16s %8d %8s %8s%s\n", k, m.Source[k], moved, after, note)
	}
	fmt.Fprintln(w, strings.Repeat("-", 43))
}
