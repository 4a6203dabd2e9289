package config_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/config"
)

// problems are Load's problems (nil when it loads).
func problems(t *testing.T, err error) config.Problems {
	t.Helper()
	if err == nil {
		return nil
	}
	var ps config.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("Load's error %T %v is not Problems", err, err)
	}
	return ps
}

// TestEveryProblemListed: a file with five problems gets all five, in
// the order of their lines, each with its key and its line.
func TestEveryProblemListed(t *testing.T) {
	p := write(t, "stock:\n  timout: 5s\nalerts:\n  debounce: many\n  cooldown: -5m\nlog:\n  level: loud\nstorage:\n  prices: {autodl: cheap}\n")
	ps := problems(t, must(config.Load(p, env(nil))))
	want := []string{
		p + ` line 2: unknown key "timout" under stock (did you mean "timeout"?)`,
		p + ` line 4: alerts.debounce: "many" is not a whole number`,
		p + ` line 5: alerts.cooldown: -5m0s is negative: write a duration of 0s or more, e.g. 30m`,
		p + ` line 7: log.level: "loud" is not debug, info, warn or error`,
		p + ` line 9: storage.prices.autodl: "cheap" is not a number`,
	}
	if len(ps) != len(want) {
		t.Fatalf("%d problems, want %d:\n%v", len(ps), len(want), ps)
	}
	for i, w := range want {
		if !strings.HasPrefix(ps[i].String(), w) {
			t.Errorf("problem %d = %q, want it to start %q", i, ps[i], w)
		}
	}
	if e := ps.Error(); strings.Contains(e, "\n") || !strings.HasPrefix(e, "config: ") {
		t.Errorf("Error() = %q, want one line", e)
	}
}

func must(_ config.Config, err error) error { return err }

// TestProblemSource: a value from the environment is blamed on its
// variable, not on the file; one from the file on its line.
func TestProblemSource(t *testing.T) {
	p := write(t, "log:\n  level: info\ntimezone: UTC\n")
	ps := problems(t, must(config.Load(p, env(map[string]string{"BOT_TIMEZONE": "Mars/Base"}))))
	if len(ps) != 1 || ps[0].Source != "environment variable BOT_TIMEZONE" || ps[0].Key != "timezone" || strings.Contains(ps[0].String(), p) {
		t.Errorf("got %v, want one problem of timezone from BOT_TIMEZONE", ps)
	}
	ps = problems(t, must(config.Load(write(t, "log:\n  level: info\ntimezone: Mars/Base\n"), env(nil))))
	if len(ps) != 1 || !strings.HasSuffix(ps[0].Source, " line 3") {
		t.Errorf("got %v, want the file's line 3", ps)
	}
	ps = problems(t, must(config.Load("", env(map[string]string{"REDIS_URL": "http://x"}))))
	if len(ps) != 1 || ps[0].Source != "environment variable REDIS_URL" || ps[0].Key != "store.redis_url" {
		t.Errorf("got %v, want store.redis_url from REDIS_URL", ps)
	}
}

// TestPartialFeishu: a Feishu app with some of its credentials is an
// error naming each missing variable (never a silently absent channel);
// none of them is Feishu off.
func TestPartialFeishu(t *testing.T) {
	all := map[string]string{"FEISHU_APP_ID": "cli_a", "FEISHU_APP_SECRET": "s", "FEISHU_VERIFICATION_TOKEN": "v", "FEISHU_ENCRYPT_KEY": "e", "FEISHU_MODE": "webhook"}
	if _, err := config.Load("", env(all)); err != nil {
		t.Fatalf("all set: %v", err)
	}
	if _, err := config.Load("", env(map[string]string{"FEISHU_MODE": "webhook"})); err != nil {
		t.Fatalf("none set: %v", err)
	}
	for _, missing := range []string{"FEISHU_APP_ID", "FEISHU_APP_SECRET", "FEISHU_VERIFICATION_TOKEN", "FEISHU_ENCRYPT_KEY"} {
		t.Run(missing, func(t *testing.T) {
			e := map[string]string{}
			for k, v := range all {
				if k != missing {
					e[k] = v
				}
			}
			ps := problems(t, must(config.Load("", env(e))))
			if len(ps) != 1 || !strings.Contains(ps[0].Msg, "Set "+missing) {
				t.Errorf("got %v, want one problem saying to set %s", ps, missing)
			}
		})
	}
	// The long connection needs only the app's id and secret.
	if _, err := config.Load("", env(map[string]string{"FEISHU_APP_ID": "cli_a", "FEISHU_APP_SECRET": "s"})); err != nil {
		t.Errorf("websocket with id and secret: %v", err)
	}
	ps := problems(t, must(config.Load("", env(map[string]string{"FEISHU_APP_SECRET": "s"}))))
	if len(ps) != 1 || ps[0].Key != "feishu.app_id" {
		t.Errorf("secret without id: %v", ps)
	}
}

// TestRedisNeedsAddress: store.kind redis without an address is an
// error, never a silent 127.0.0.1.
func TestRedisNeedsAddress(t *testing.T) {
	ps := problems(t, must(config.Load(write(t, "store:\n  kind: redis\n"), env(nil))))
	if len(ps) != 1 || ps[0].Key != "store.kind" || !strings.Contains(ps[0].Msg, "REDIS_URL") {
		t.Errorf("got %v", ps)
	}
	cfg, err := config.Load(write(t, "store:\n  kind: redis\n"), env(map[string]string{"REDIS_URL": "redis://:pw@10.0.0.5:6379/2"}))
	if err != nil || cfg.Store.RedisURL != "redis://:pw@10.0.0.5:6379/2" {
		t.Errorf("with REDIS_URL: %v %q", err, cfg.Store.RedisURL)
	}
	if _, err := config.Load(write(t, "store:\n  kind: redis\n  redis_addrs: [\"a:26379\"]\n  redis_master_name: m\n"), env(nil)); err != nil {
		t.Errorf("sentinel without a URL: %v", err)
	}
}

// TestChatKeys: storage.labs, alerts.quiet_hours and --chat name chats of
// known channels and configured webhooks.
func TestChatKeys(t *testing.T) {
	hooks := "webhooks:\n  - {name: lab, kind: wecom, url: \"https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k\"}\n"
	cases := []struct{ name, body, key, want string }{
		{"lab's unknown webhook", hooks + "storage:\n  labs: {nlp: [\"webhook/nosuch\"]}\n", "storage.labs.nlp[0]", `no webhook named "nosuch" (the webhooks are lab)`},
		{"lab's unknown channel", hooks + "storage:\n  labs: {nlp: [\"feishuu/oc_1\"]}\n", "storage.labs.nlp[0]", `no channel "feishuu"`},
		{"lab's chat without id", "storage:\n  labs: {nlp: [\"feishu\"]}\n", "storage.labs.nlp[0]", "is not CHANNEL/CHAT_ID"},
		{"quiet hours key", "alerts:\n  quiet_hours: {lab: \"23:00-08:00\"}\n", "alerts.quiet_hours.lab", `the key "lab" is not CHANNEL/CHAT_ID`},
		{"quiet hours webhook", "alerts:\n  quiet_hours: {webhook/x: \"23:00-08:00\"}\n", "alerts.quiet_hours.webhook/x", `no webhook named "x" (no webhooks are configured`},
		{"quiet hours window", "alerts:\n  quiet_hours: {\"*\": \"late\"}\n", "alerts.quiet_hours.*", "is not a window such as 23:00-08:00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, c.body)
			ps := problems(t, must(config.Load(p, env(nil))))
			if len(ps) != 1 || ps[0].Key != c.key || !strings.Contains(ps[0].Msg, c.want) || !strings.HasPrefix(ps[0].Source, p+" line ") {
				t.Errorf("got %v, want %s: …%s… from a line of the file", ps, c.key, c.want)
			}
		})
	}
	cfg, err := config.Load(write(t, hooks+"alerts:\n  quiet_hours: {\"*\": \"23:00-08:00\", webhook/lab: \"22:00-07:00\", feishu/oc_1: \"0:00-6:00\"}\n"), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	for key, ok := range map[string]bool{"webhook/lab": true, "webhook/nosuch": false, "console/console": true, "feishu/oc_1": true, "slack/x": false, "webhook/": false} {
		if err := cfg.CheckChatKey(key); (err == nil) != ok {
			t.Errorf("CheckChatKey(%q) = %v", key, err)
		}
	}
}

// TestEffectiveMasks: the effective settings show every key, mark where a
// value came from, and hold no secret.
func TestEffectiveMasks(t *testing.T) {
	p := write(t, "alerts:\n  cooldown: 45m\nwebhooks:\n  - {name: lab, kind: feishu, url: \"https://open.feishu.cn/open-apis/bot/v2/hook/HOOKID\", secret: SIGNSECRET}\n")
	cfg, err := config.Load(p, env(map[string]string{"FEISHU_APP_ID": "cli_x", "FEISHU_APP_SECRET": "APPSECRET", "REDIS_URL": "redis://:REDISPW@10.0.0.5:6379/1",
		"AUTODL_TOKEN": "AUTODLTOKEN"}))
	if err != nil {
		t.Fatal(err)
	}
	out, err := cfg.Effective()
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"HOOKID", "SIGNSECRET", "APPSECRET", "REDISPW", "AUTODLTOKEN"} {
		if strings.Contains(out, secret) {
			t.Errorf("the effective settings show %s:\n%s", secret, out)
		}
	}
	for _, want := range []string{"cooldown: 45m # " + p + ":2", "app_id: cli_x # env FEISHU_APP_ID", "redis_url: redis://:***@10.0.0.5:6379/1 # env REDIS_URL", "debounce: 1 # default", "groups: [] # default",
		"url: https://open.feishu.cn/***", "token: '***' # env AUTODL_TOKEN", "digest_schedule: 0 9 * * 1 # default"} {
		if !strings.Contains(out, want) {
			t.Errorf("the effective settings lack %q:\n%s", want, out)
		}
	}
}

// TestProviderBlockNames: a provider block is named after the provider,
// not the catalog's platform id; the platform id (恒源云's "hengyuan")
// is refused naming the block to use, any other name listing them.
func TestProviderBlockNames(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"the platform id", "stock:\n  providers:\n    hengyuan:\n      enabled: true\n", "its provider block is stock.providers.gpushare"},
		{"a name nobody knows", "stock:\n  providers:\n    nosuch:\n      enabled: true\n", "the providers are catalog, autodl, vastai, gpushare"},
		{"the provider's name", "stock:\n  providers:\n    gpushare:\n      enabled: true\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := config.Load(write(t, c.body), env(nil))
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}
