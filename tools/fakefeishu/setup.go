package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/labgpu/bot/tools/soak/fakes"
)

// wecomName is the fake robot's name in the config (webhooks[].name).
const wecomName = "lab-wecom"

// examples are chat lines the help shows (phrases.json).
var examples = func() []string {
	var p struct {
		Examples []string `json:"examples"`
	}
	if err := json.Unmarshal(phrasesJSON, &p); err != nil || len(p.Examples) == 0 {
		panic(fmt.Sprintf("fakefeishu: phrases.json: no examples (%v)", err)) // embedded: fails every run and test
	}
	return p.Examples
}()

//go:embed phrases.json
var phrasesJSON []byte

// envFile and configFile are the files start writes into -dir.
func (f *fake) envFile() string    { return filepath.Join(f.o.dir, "bot.env") }
func (f *fake) configFile() string { return filepath.Join(f.o.dir, "config.yaml") }

// botEnv is the environment bot serve needs to use the fakes, in order:
// name and value.
func (f *fake) botEnv() [][2]string {
	env := [][2]string{
		{"FEISHU_MODE", "webhook"},
		{"FEISHU_BASE_URL", f.feishu.URL},
		{"FEISHU_APP_ID", fakes.AppID},
		{"FEISHU_APP_SECRET", f.secret},
		{"FEISHU_VERIFICATION_TOKEN", f.o.token},
		{"FEISHU_ENCRYPT_KEY", f.o.key},
		{"BOT_HTTP_ADDR", f.o.bot},
		{"BOT_CONFIG", f.configFile()},
		{"BOT_DATA_DIR", filepath.Join(f.o.dir, "data")},
		{"BOT_ADMIN_TOKEN", f.admin},
	}
	if f.plat != nil {
		env = append(env, [2]string{"RUNPOD_API_KEY", f.plat.runpodKey})
	}
	return env
}

// envText is botEnv as shell export lines.
func (f *fake) envText() string {
	var b strings.Builder
	for _, kv := range f.botEnv() {
		fmt.Fprintf(&b, "export %s=%s\n", kv[0], shellQuote(kv[1]))
	}
	return b.String()
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote is s as one shell word.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// configYAML is the config bot serve reads (BOT_CONFIG): a quick poll and
// a short alert cooldown for trying alerts, the fake platforms and robot.
func (f *fake) configYAML() string {
	var b strings.Builder
	b.WriteString("# Written by go run ./tools/fakefeishu: bot serve against the fakes on this machine.\n")
	b.WriteString("alerts:\n  cooldown: 1m\n")
	b.WriteString("stock:\n  poll:\n    schedule: \"@every 30s\"\n    jitter: 0s\n")
	if f.plat != nil {
		b.WriteString(f.plat.providersYAML())
	}
	if f.wecom != nil {
		fmt.Fprintf(&b, "webhooks:\n  - {name: %s, kind: wecom, url: %q}\n", wecomName, f.wecom.URL)
		fmt.Fprintf(&b, "storage:\n  labs:\n    lab: [\"feishu/%s\", \"webhook/%s\"]\n", f.o.chat, wecomName)
	}
	return b.String()
}

// writeFiles writes bot.env and config.yaml (mode 0600: the env holds
// the fake app's secrets).
func (f *fake) writeFiles() error {
	if err := os.MkdirAll(f.o.dir, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(f.envFile(), []byte(f.envText()), 0o600); err != nil {
		return err
	}
	return os.WriteFile(f.configFile(), []byte(f.configYAML()), 0o600)
}

// printSetup prints what runs, the bot's environment and config, and how
// to chat.
func (f *fake) printSetup() {
	var b strings.Builder
	fmt.Fprintf(&b, "fakefeishu: a fake Feishu open platform at %s; this terminal is the group chat.\n", f.feishu.URL)
	if f.plat != nil {
		fmt.Fprintf(&b, "  fake vast.ai API  %s\n  fake RunPod API   %s\n", f.plat.vast.URLs[0], f.plat.runpod.URLs[0])
	}
	if f.wecom != nil {
		fmt.Fprintf(&b, "  fake WeCom group robot %q at %s\n", wecomName, f.wecom.URL)
	}
	fmt.Fprintf(&b, "\n1. In a second terminal, in the repository, start the bot with this environment\n   (written to %s):\n\n", f.envFile())
	b.WriteString(indent(f.envText(), "   "))
	fmt.Fprintf(&b, "\n   . %s && go run ./cmd/bot serve\n", shellQuote(f.envFile()))
	fmt.Fprintf(&b, "\n2. Its config, %s, points it at the fakes:\n\n", f.configFile())
	b.WriteString(indent(f.configYAML(), "   "))
	fmt.Fprintf(&b, "\n3. Type a message and Enter: it is posted, signed and encrypted, to\n   %s; the bot's messages are printed as they arrive.\n", f.callback())
	b.WriteString(f.helpText())
	f.out.say("%s", strings.TrimRight(b.String(), "\n"))
}

// helpText is what a chat line may be.
func (f *fake) helpText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "   @bot TEXT          in the group (%s), @mentioning the bot\n", f.o.chat)
	b.WriteString("   p2p: TEXT          in a private chat with the bot\n")
	b.WriteString("   TEXT               in the group without @bot (the bot stays quiet)\n")
	fmt.Fprintf(&b, "   ou_… LINE          sent by another member (default %s)\n", f.o.user)
	b.WriteString("   !help              this help\n")
	if f.plat != nil {
		b.WriteString("   !stock off|on      the fake platforms sell out / restock the RTX 4090 (the bot polls every 30 s)\n")
	}
	if f.wecom != nil {
		fmt.Fprintf(&b, "   (third terminal, same environment: bot webhook test %s)\n", wecomName)
	}
	fmt.Fprintf(&b, "   e.g. %s\n", strings.Join(examples, "  ·  "))
	return b.String()
}

// indent prefixes every non-empty line of s.
func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
