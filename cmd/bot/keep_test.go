package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

const adminToken = "test-admin-token-0123456789"

// startServe runs `bot serve` (the built binary) with env until the test
// ends, and waits for /healthz on httpAddr.
func startServe(t *testing.T, env []string, httpAddr string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(botBin, "serve")
	var base []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "REDIS_URL=") && !strings.HasPrefix(kv, "FEISHU_") && !strings.HasPrefix(kv, "BOT_") {
			base = append(base, kv)
		}
	}
	cmd.Env = append(base, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get("http://" + httpAddr + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return cmd
			}
		}
	}
	t.Fatalf("bot serve did not come up:\n%s", stderr.String())
	return nil
}

// TestCommandsBesideRunningBot: with `bot serve` holding the embedded
// store, bot storage import/export, bot digest, bot backup and bot
// migrate go through its admin listener; a wrong or missing token is
// refused with what to do; the listener is not on the callback port; the
// backup restores once the bot is stopped.
func TestCommandsBesideRunningBot(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	cfgPath := filepath.Join(dir, "bot.yaml")
	csvPath := filepath.Join(dir, "ledger.csv")
	os.WriteFile(cfgPath, []byte("storage:\n  prices: {autodl: 0.01, matpool: 0.02}\n"), 0o600)
	os.WriteFile(csvPath, []byte(`time,owner,platform,disk,action,size_gb,note
2026-11-16T00:00:00+08:00,alice,autodl,1,add,80,实验数据
2026-11-25T12:00:00+08:00,bob,matpool,2,add,105,数据集
2026-11-27T00:00:00+08:00,bob,,2,stop,,
2026-11-28T00:00:00+08:00,alice,,1,remove,,
`), 0o600)
	more := filepath.Join(dir, "more.csv")
	os.WriteFile(more, []byte(`time,owner,platform,disk,action,size_gb,note
2026-11-20T00:00:00+08:00,carol,autodl,1,add,60,
`), 0o600)
	httpAddr, adminAddr := freeAddr(t), freeAddr(t)
	env := []string{"BOT_DATA_DIR=" + data, "BOT_CONFIG=" + cfgPath, "BOT_ADMIN_ADDR=" + adminAddr}
	withToken := append(env[:len(env):len(env)], "BOT_ADMIN_TOKEN="+adminToken)
	if out, stderr, code := run(t, "", env, "storage", "import", "--lab", "feishu/oc_lab", csvPath); code != 0 {
		t.Fatalf("import before the bot runs: %d %s %s", code, out, stderr)
	}
	startServe(t, append(withToken, "BOT_HTTP_ADDR="+httpAddr, "REDIS_URL="), httpAddr)

	// A write and reads through the running bot.
	if out, stderr, code := run(t, "", withToken, "storage", "import", "--lab", "feishu/oc_other", more); code != 0 || !strings.Contains(out, "imported 1 events") {
		t.Fatalf("import beside the bot: %d %s %s", code, out, stderr)
	}
	out, stderr, code := run(t, "", withToken, "storage", "export", "--lab", "feishu/oc_lab")
	if code != 0 || strings.Count(out, "\n") != 5 {
		t.Errorf("export beside the bot: %d\n%s\n%s", code, out, stderr)
	}
	out, stderr, code = run(t, "", withToken, "digest", "--lab", "feishu/oc_lab", "--week", "2026-W48", "--format", "json")
	var d struct {
		Total float64 `json:"total_cny"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || d.Total < 10.49 || d.Total > 10.51 {
		t.Errorf("digest beside the bot: %d total %v\n%s", code, d.Total, stderr)
	}
	backupFile := filepath.Join(dir, "labgpu.tar.gz")
	out, stderr, code = run(t, "", withToken, "backup", backupFile)
	if code != 0 || !strings.Contains(out, "the running bot at "+adminAddr) || !strings.Contains(out, "ledger_events 5") {
		t.Errorf("backup beside the bot: %d %s %s", code, out, stderr)
	}
	migrateBesideBot(t, withToken)

	// Refusals: a wrong token, none at all.
	wrong := append(env[:len(env):len(env)], "BOT_ADMIN_TOKEN=not-the-token-0123456789")
	if _, stderr, code := run(t, "", wrong, "storage", "export", "--lab", "feishu/oc_lab"); code == 0 || !strings.Contains(stderr, "refused BOT_ADMIN_TOKEN") {
		t.Errorf("a wrong token: %d %s", code, stderr)
	}
	if _, stderr, code := run(t, "", wrong, "backup", filepath.Join(dir, "x.tar.gz")); code == 0 || !strings.Contains(stderr, "refused BOT_ADMIN_TOKEN") {
		t.Errorf("backup with a wrong token: %d %s", code, stderr)
	}
	if _, stderr, code := run(t, "", env, "digest", "--lab", "feishu/oc_lab"); code == 0 || !strings.Contains(stderr, "start bot serve with BOT_ADMIN_TOKEN set") {
		t.Errorf("no token: %d %s", code, stderr)
	}
	// The callback port serves no admin path, with the token or without.
	for _, p := range []string{"/admin/v1/ping", "/admin/v1/backup"} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+httpAddr+p, nil)
		req.Header.Set("Authorization", "Bearer "+adminToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s on the callback port: %v %v", p, resp, err)
		} else {
			resp.Body.Close()
		}
	}
	// bot health finds the bot by BOT_HTTP_ADDR.
	if out, stderr, code := run(t, "", []string{"BOT_HTTP_ADDR=" + httpAddr}, "health"); code != 0 {
		t.Errorf("health by BOT_HTTP_ADDR: %d %s %s", code, out, stderr)
	}
	// A restore never replaces the store under the running bot.
	if _, stderr, code := run(t, "", withToken, "restore", "--force", backupFile); code == 0 || !strings.Contains(stderr, "stop the bot first") {
		t.Errorf("restore under the bot: %d %s", code, stderr)
	}
	restoreAfterwards(t, backupFile, data)
}

// migrateBesideBot moves the running bot's store into Redis under a
// fresh prefix: the counts per kind, and the note that the bot still
// runs on the embedded store.
func migrateBesideBot(t *testing.T, env []string) {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	prefix := "labgpu-test:" + hex.EncodeToString(b[:]) + ":"
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	rs, err := redisstore.Open(ctx, redisstore.DefaultURL, prefix)
	if err != nil {
		t.Logf("no Redis, migrate not tried: %v", err)
		return
	}
	defer func() {
		iter := rs.Client().Scan(context.Background(), 0, prefix+"*", 500).Iterator()
		for iter.Next(context.Background()) {
			rs.Client().Del(context.Background(), iter.Val())
		}
		rs.Close()
	}()
	out, stderr, code := run(t, "", env, "migrate", "--to", redisstore.DefaultURL, "--prefix", prefix)
	if code != 0 || !strings.Contains(out, "ledger_events           5        5        5") || !strings.Contains(out, "still running on the embedded store") {
		t.Errorf("migrate beside the bot: %d\n%s\n%s", code, out, stderr)
	}
	ev, err := rs.StorageEvents(context.Background(), "feishu/oc_lab")
	if err != nil || len(ev) != 4 {
		t.Errorf("the ledger in Redis: %d events, %v", len(ev), err)
	}
	if _, stderr, code := run(t, "", env, "migrate", "--to", redisstore.DefaultURL, "--prefix", prefix); code != 2 || !strings.Contains(stderr, "--force") {
		t.Errorf("migrate into a non-empty prefix: %d %s", code, stderr)
	}
}

// restoreAfterwards: once the bot is stopped, the backup restores into an
// empty directory; into the bot's own (with entries) only with --force.
func restoreAfterwards(t *testing.T, backupFile, data string) {
	t.Helper()
	fresh := filepath.Join(t.TempDir(), "data")
	out, stderr, code := run(t, "", []string{"BOT_DATA_DIR=" + fresh}, "restore", backupFile)
	if code != 0 || !strings.Contains(out, "ledger_events 5") {
		t.Errorf("restore into an empty dir: %d %s %s", code, out, stderr)
	}
	if out, _, _ := run(t, "", []string{"BOT_DATA_DIR=" + fresh}, "storage", "export", "--lab", "feishu/oc_lab"); strings.Count(out, "\n") != 5 {
		t.Errorf("the restored ledger:\n%s", out)
	}
	if _, stderr, code := run(t, "", []string{"BOT_DATA_DIR=" + fresh}, "restore", backupFile); code != 2 || !strings.Contains(stderr, "--force") {
		t.Errorf("restore over entries: %d %s", code, stderr)
	}
}

// TestBackupRefusesEmptyStore: bot backup of a store that holds nothing
// (most often the wrong BOT_DATA_DIR) writes nothing and says what was
// empty and where it looked, and where that setting came from; a data
// directory without the store's file is not created; --allow-empty writes
// the backup all the same; a store with state backs up.
func TestBackupRefusesEmptyStore(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-dir")
	out := filepath.Join(dir, "b.tar.gz")
	_, stderr, code := run(t, "", []string{"BOT_DATA_DIR=" + missing}, "backup", out)
	if code == 0 || !strings.Contains(stderr, "no store at "+filepath.Join(missing, "labgpu.db")) || !strings.Contains(stderr, "environment variable BOT_DATA_DIR") ||
		!strings.Contains(stderr, "--allow-empty") {
		t.Errorf("a data dir without a store: %d %s", code, stderr)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("the missing data dir was created: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	if _, stderr, code := run(t, "", []string{"BOT_DATA_DIR=" + empty}, "backup", "--allow-empty", out); code != 0 {
		t.Fatalf("--allow-empty: %d %s", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatalf("--allow-empty wrote no backup: %v", err)
	}
	// Now the store's files exist, and hold nothing.
	again := filepath.Join(dir, "again.tar.gz")
	for _, target := range []string{again, "-"} {
		stdout, stderr, code := run(t, "", []string{"BOT_DATA_DIR=" + empty}, "backup", target)
		if code == 0 || !strings.Contains(stderr, "the store is empty: "+empty+" holds no entries") || !strings.Contains(stderr, "data_dir "+empty+" (from environment variable BOT_DATA_DIR)") {
			t.Errorf("backup %s of an empty store: %d %s", target, code, stderr)
		}
		if stdout != "" {
			t.Errorf("backup %s of an empty store wrote %d bytes to stdout", target, len(stdout))
		}
	}
	if _, err := os.Stat(again); !os.IsNotExist(err) {
		t.Errorf("a backup of an empty store was written: %v", err)
	}
	csv := filepath.Join(dir, "l.csv")
	os.WriteFile(csv, []byte("time,owner,platform,disk,action,size_gb,note\n2026-11-16T00:00:00+08:00,alice,autodl,1,add,80,\n"), 0o600)
	if _, stderr, code := run(t, "", []string{"BOT_DATA_DIR=" + empty}, "storage", "import", "--lab", "feishu/oc_lab", csv); code != 0 {
		t.Fatalf("import: %d %s", code, stderr)
	}
	if stdout, stderr, code := run(t, "", []string{"BOT_DATA_DIR=" + empty}, "backup", again); code != 0 || !strings.Contains(stdout, "ledger_events 1") {
		t.Errorf("backup of a store with state: %d %s %s", code, stdout, stderr)
	}
}

// TestDigestPreviewEveryChat: bot digest --preview without --lab shows
// every chat that turned the digest on, each with its lab's digest (a
// chat grouped by storage.labs named with its lab); with none on it says
// so and how; --lab still previews that lab's chats only.
func TestDigestPreviewEveryChat(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "bot.yaml")
	os.WriteFile(cfgPath, []byte("storage:\n  prices: {autodl: 0.01}\n  labs:\n    nlp: [feishu/oc_nlp]\n"), 0o600)
	env := []string{"BOT_DATA_DIR=" + filepath.Join(dir, "data"), "BOT_CONFIG=" + cfgPath}
	if out, stderr, code := run(t, "", env, "digest", "--preview"); code != 0 || !strings.Contains(out, "no chat has turned the digest on") {
		t.Errorf("preview with no chat on: %d %s %s", code, out, stderr)
	}
	for _, ck := range []string{"feishu/oc_nlp", "feishu/oc_cv"} {
		if out, stderr, code := run(t, "", env, "ask", "--chat", ck, "开启周报"); code != 0 {
			t.Fatalf("开启周报 in %s: %d %s %s", ck, code, out, stderr)
		}
	}
	out, stderr, code := run(t, "", env, "digest", "--preview")
	if code != 0 || !strings.Contains(out, "== feishu/oc_cv gets") || !strings.Contains(out, "== feishu/oc_nlp (lab nlp) gets") || strings.Contains(out, "console") {
		t.Errorf("preview of every chat: %d\n%s\n%s", code, out, stderr)
	}
	out, stderr, code = run(t, "", env, "digest", "--preview", "--lab", "nlp")
	if code != 0 || !strings.Contains(out, "== feishu/oc_nlp (lab nlp) gets") || strings.Contains(out, "oc_cv") {
		t.Errorf("preview of lab nlp: %d\n%s\n%s", code, out, stderr)
	}
}
