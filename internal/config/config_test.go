package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/stock/provider"
)

func env(m map[string]string) config.Env {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func write(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExampleLoads: the documented example is a valid config and equals the
// defaults.
func TestExampleLoads(t *testing.T) {
	cfg, err := config.Load("../../configs/config.example.yaml", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DataDir != "./data" || cfg.Stock.Timeout.D() != 15*time.Second || cfg.Stock.Providers.Of("vastai").Limit != 100 {
		t.Errorf("example differs from defaults: %+v", cfg)
	}
	if runs, _ := cfg.Stock.Providers.Runs(mustLookup(t, "catalog")); cfg.Stock.Providers.Live() || !runs {
		t.Errorf("example enables live providers without credentials")
	}
	// Every provider of the registry is documented in the example.
	for _, s := range provider.Registry() {
		if _, ok := cfg.Stock.Providers[s.Name]; !ok {
			t.Errorf("configs/config.example.yaml has no stock.providers.%s block", s.Name)
		}
	}
}

func mustLookup(t *testing.T, name string) provider.Stock {
	t.Helper()
	s, ok := provider.Lookup(name)
	if !ok {
		t.Fatalf("no provider %s", name)
	}
	return s
}

// TestProviderSwitches: when each kind of provider runs and is live.
func TestProviderSwitches(t *testing.T) {
	cases := []struct {
		name, yaml string
		env        map[string]string
		provider   string
		runs, live bool
	}{
		{"autodl without token", "", nil, "autodl", true, false},
		{"autodl with token", "", map[string]string{"AUTODL_TOKEN": "t"}, "autodl", true, true},
		{"autodl enabled without token", "stock:\n  providers:\n    autodl:\n      enabled: true\n", nil, "autodl", true, true},
		{"autodl off with token", "stock:\n  providers:\n    autodl:\n      enabled: false\n", map[string]string{"AUTODL_TOKEN": "t"}, "autodl", false, false},
		{"vastai by default", "", map[string]string{"VASTAI_API_KEY": "k"}, "vastai", false, false},
		{"vastai enabled", "stock:\n  providers:\n    vastai:\n      enabled: true\n", nil, "vastai", true, true},
		{"matpool token only", "", map[string]string{"MATPOOL_TOKEN": "t"}, "matpool", true, false},
		{"matpool both", "", map[string]string{"MATPOOL_TOKEN": "t", "MATPOOL_USER_ID": "u"}, "matpool", true, true},
		{"replay without dir", "", nil, "replay", false, false},
		{"replay dir", "", map[string]string{"BOT_REPLAY_DIR": "rec"}, "replay", true, true},
		{"replay file dir", "stock:\n  providers:\n    replay:\n      dir: rec\n", nil, "replay", true, true},
		{"catalog", "", nil, "catalog", true, false},
		{"catalog off", "stock:\n  providers:\n    catalog:\n      enabled: false\n", nil, "catalog", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := config.Load(write(t, c.yaml), env(c.env))
			if err != nil {
				t.Fatal(err)
			}
			runs, live := cfg.Stock.Providers.Runs(mustLookup(t, c.provider))
			if runs != c.runs || live != c.live {
				t.Errorf("runs, live = %v, %v; want %v, %v", runs, live, c.runs, c.live)
			}
		})
	}
}

func TestEnvironment(t *testing.T) {
	cfg, err := config.Load("", env(map[string]string{"BOT_DATA_DIR": "/tmp/x", "AUTODL_TOKEN": "tok", "BOT_REPLAY_DIR": "rec"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DataDir != "/tmp/x" || cfg.Stock.Providers.Of("autodl").Token != "tok" || cfg.Stock.Providers.Of("replay").Dir != "rec" {
		t.Errorf("env not applied: %+v", cfg)
	}
	if w, err := config.Load("", env(map[string]string{"WECHAT_ENABLED": "true"})); err != nil || !w.WeChat.Enabled {
		t.Errorf("WECHAT_ENABLED=true: %v, enabled %v", err, w.WeChat.Enabled)
	}
	if _, err := config.Load("", env(map[string]string{"WECHAT_ENABLED": "yes please"})); err == nil || !strings.Contains(err.Error(), "WECHAT_ENABLED") {
		t.Errorf("bad WECHAT_ENABLED: %v", err)
	}
	if _, live := cfg.Stock.Providers.Runs(mustLookup(t, "autodl")); !live {
		t.Error("AutoDL with a token should be live")
	}
}

func TestBadConfig(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"unknown key", "stock:\n  timout: 5s\n", "timout"},
		{"bad duration", "stock:\n  timeout: soon\n", "stock.timeout"},
		{"bad provider duration", "stock:\n  providers:\n    autodl:\n      timeout: 5 parsecs\n", "stock.providers.autodl.timeout"},
		{"bad url", "stock:\n  providers:\n    vastai:\n      base_url: ftp//x\n", "stock.providers.vastai.base_url"},
		{"bad level", "log:\n  level: loud\n", "log.level"},
		{"zero timeout", "stock:\n  timeout: 0s\n", "stock.timeout"},
		{"limit", "stock:\n  providers:\n    vastai:\n      limit: 5000\n", "stock.providers.vastai.limit"},
		{"unknown provider", "stock:\n  providers:\n    paperspace:\n      enabled: true\n", "stock.providers.paperspace: no such provider"},
		{"another provider's key", "stock:\n  providers:\n    gpushare:\n      regions: [a]\n", "line 4: stock.providers.gpushare.regions: gpushare has no such setting (it takes"},
		{"unknown provider key", "stock:\n  providers:\n    autodl:\n      tokn: x\n", "stock.providers.autodl.tokn"},
		{"provider block a list", "stock:\n  providers:\n    autodl: [1]\n", "line 3: stock.providers.autodl: a provider's settings are a mapping"},
		{"provider value type", "stock:\n  providers:\n    vastai:\n      limit: many\n", `line 4: stock.providers.vastai.limit: "many" is not a whole number`},
		{"negative timeout", "stock:\n  providers:\n    lambda:\n      timeout: -1s\n", "line 4: stock.providers.lambda.timeout: -1s is negative"},
		{"not yaml", "data_dir: [unclosed\n", "config"},
		{"wechat admin form", "wechat:\n  admin: ops\n", "wechat.admin"},
		{"wechat admin unknown webhook", "wechat:\n  admin: webhook/ops\n", "no webhook named"},
		{"wechat admin feishu off", "wechat:\n  admin: feishu/oc_1\n", "feishu.app_id"},
		{"wechat admin channel", "wechat:\n  admin: slack/x\n", "wechat.admin"},
		{"wechat blank group", "wechat:\n  groups: [\" \"]\n", "wechat.groups[0]"},
		{"wechat qr dir", "wechat:\n  qr_code_png: /nonexistent/dir/qr.png\n", "wechat.qr_code_png"},
		{"http addr", "http:\n  addr: nonsense\n", "http.addr"},
		{"poll schedule", "stock:\n  poll:\n    schedule: every two minutes\n", "stock.poll.schedule"},
		{"poll every 0s", "stock:\n  poll:\n    schedule: \"@every 0s\"\n", "stock.poll.schedule"},
		{"budget schedule", "storage:\n  budget_schedule: hourly please\n", "storage.budget_schedule"},
		{"poll every 5s", "stock:\n  poll:\n    schedule: \"@every 5s\"\n", "more often than every 30s"},
		{"interim", "stock:\n  interim_after: soon\n", "stock.interim_after"},
		{"duration as a list", "alerts:\n  cooldown: [5s]\n", "line 2: alerts.cooldown: a list or a mapping is not a duration"},
		{"duration as a mapping", "stock:\n  timeout: {}\n", "line 2: stock.timeout: a list or a mapping is not a duration"},
		{"number as text", "alerts:\n  debounce: many\n", `line 2: alerts.debounce: "many" is not a whole number`},
		{"second document", "stock:\n  timeout: 5s\n---\nfoo: 1\n", "line 3: a second YAML document"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, c.body)
			_, err := config.Load(p, env(nil))
			if err == nil {
				t.Fatalf("no error for %q", c.body)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.want) || !strings.Contains(msg, p) || strings.Contains(msg, "\n") {
				t.Errorf("error %q should be one line naming %q and the file", msg, c.want)
			}
		})
	}
}

func TestMissingFile(t *testing.T) {
	if _, err := config.Load(filepath.Join(t.TempDir(), "nope.yaml"), env(nil)); err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Fatalf("err = %v, want one naming the file", err)
	}
}

// TestByteOrderMark: a file saved with a UTF-8 BOM loads like one without.
func TestByteOrderMark(t *testing.T) {
	cfg, err := config.Load(write(t, "\ufeffstock:\n  timeout: 7s\n"), env(nil))
	if err != nil || cfg.Stock.Timeout.D() != 7*time.Second {
		t.Fatalf("BOM file: %v, timeout %v", err, cfg.Stock.Timeout.D())
	}
}

func TestEmptyFile(t *testing.T) {
	for _, body := range []string{"", "# only a comment\n", "---\n"} {
		cfg, err := config.Load(write(t, body), env(nil))
		if err != nil || cfg.DataDir != "./data" {
			t.Fatalf("empty file %q: %v, data_dir %q", body, err, cfg.DataDir)
		}
	}
}

// TestDeployConfig: the config deploy/compose.yaml mounts (from
// deploy/config.yaml.example) loads as it is.
func TestDeployConfig(t *testing.T) {
	if _, err := config.Load("../../deploy/config.yaml.example", func(string) (string, bool) { return "", false }); err != nil {
		t.Fatal(err)
	}
}
