package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/labgpu/bot/tools/soak/fakes"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		line string
		want said
		err  bool
	}{
		{"", said{}, false},
		{"   ", said{}, false},
		{"@bot 哪家有4090", said{mention: true, text: "哪家有4090"}, false},
		{"@BOT哪家有4090", said{mention: true, text: "哪家有4090"}, false},
		{"p2p: 我的ID", said{p2p: true, text: "我的ID"}, false},
		{"P2P:my id", said{p2p: true, text: "my id"}, false},
		{"大家好", said{text: "大家好"}, false},
		{"ou_abc @bot 我的ID", said{sender: "ou_abc", mention: true, text: "我的ID"}, false},
		{"ou_abc p2p: 我的ID", said{sender: "ou_abc", p2p: true, text: "我的ID"}, false},
		{"ou_abc 大家好", said{sender: "ou_abc", text: "大家好"}, false},
		{"!stock off", said{command: "stock off"}, false},
		{"! help ", said{command: "help"}, false},
		{"@bot", said{mention: true}, true},
		{"p2p:", said{p2p: true}, true},
		{"ou_abc", said{sender: "ou_abc"}, true},
		{"ou_ @bot hi", said{}, true},
	}
	for _, tt := range tests {
		got, err := parseLine(tt.line)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("parseLine(%q) = %+v, %v; want %+v, error %v", tt.line, got, err, tt.want, tt.err)
		}
	}
}

func TestMessageText(t *testing.T) {
	card := `{"schema":"2.0","header":{"title":{"tag":"plain_text","content":"RTX 4090 有货"}},"body":{"elements":[` +
		`{"tag":"markdown","content":"<at id=ou_alice></at> 共 2 家\n&lt;注意&gt;"},` +
		`{"tag":"markdown","content":"| 平台 | 元/卡时 |\n| --- | --- |\n| vast.ai | 2.43 |\n| 京东\\|自营 | 12 |"},` +
		`{"tag":"chart","chart_spec":{}},` +
		`{"tag":"markdown","content":"来源：实时"},` +
		`{"tag":"collapsible_panel","expanded":false,"header":{"title":{"tag":"plain_text","content":"详情"}},"elements":[{"tag":"markdown","content":"全部 3 家"}]}]}}`
	tests := []struct {
		name, typ, content, want string
	}{
		{"text", "text", `{"text":"<at user_id=\"ou_1\"></at> 版本\nlabgpu bot"}`, "@ou_1 版本\nlabgpu bot"},
		{"card", "interactive", card, strings.Join([]string{
			"# RTX 4090 有货",
			"@ou_alice 共 2 家",
			"<注意>",
			"平台       元/卡时",
			"vast.ai    2.43",
			"京东|自营  12",
			"[chart]",
			"来源：实时",
			"▸ 详情 (folded; in Feishu a tap opens it):",
			"    全部 3 家",
		}, "\n")},
		{"other type", "image", `{"image_key":"k"}`, `(image message) {"image_key":"k"}`},
		{"broken card", "interactive", `{`, `(interactive message) {`},
	}
	for _, tt := range tests {
		if got := messageText(tt.typ, tt.content); got != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

func TestShowPost(t *testing.T) {
	var buf bytes.Buffer
	f := &fake{o: options{chat: "oc_group"}, out: &printer{w: &buf}, privates: map[string]string{}}
	private := f.private("ou_bob")
	tests := []struct {
		post fakes.Post
		want []string
	}{
		{fakes.Post{Kind: "reply", ChatID: "oc_group", Type: "text", Text: `{"text":"hi"}`}, []string{"bot → the group\n    hi"}},
		{fakes.Post{Kind: "patch", ChatID: "oc_group", Type: "text", Text: `{"text":"late"}`}, []string{"bot → the group (updated)\n    late"}},
		{fakes.Post{Kind: "reply", ChatID: private, Type: "text", Text: `{"text":"id"}`}, []string{"bot → private chat with ou_bob"}},
		{fakes.Post{Kind: "create", ChatID: "oc_else", Type: "text", Text: `{"text":"alert"}`}, []string{"bot → chat oc_else"}},
		{fakes.Post{Kind: "reply", ChatID: "oc_group", Repeat: true}, []string{"the same message again"}},
	}
	for _, tt := range tests {
		buf.Reset()
		f.showPost(tt.post)
		for _, w := range tt.want {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("%+v printed %q; want %q in it", tt.post, buf.String(), w)
			}
		}
	}
}

func TestShowWeCom(t *testing.T) {
	var buf bytes.Buffer
	f := &fake{out: &printer{w: &buf}}
	tests := []struct {
		post fakes.WeComPost
		want string
	}{
		{fakes.WeComPost{MsgType: "text", Content: "提醒", Mentioned: []string{"@all"}}, "(text)\n    @@all 提醒"},
		{fakes.WeComPost{MsgType: "markdown", Content: "**周报**\n<font color=\"comment\">注</font>"}, "(markdown)\n    **周报**\n    注"},
		{fakes.WeComPost{MsgType: "image", ImageBytes: 2048}, "(an image of 2048 bytes: the chart)"},
	}
	for _, tt := range tests {
		buf.Reset()
		f.showWeCom(tt.post)
		if !strings.Contains(buf.String(), tt.want) {
			t.Errorf("%+v printed %q; want %q in it", tt.post, buf.String(), tt.want)
		}
	}
}

func TestConfigAndEnv(t *testing.T) {
	f := &fake{o: options{bot: "127.0.0.1:8080", dir: "/tmp/it's here", token: "tok", key: "key", chat: "oc_g"},
		feishu: &fakes.Feishu{URL: "http://127.0.0.1:9100"}, secret: "s", admin: "a"}
	env := f.envText()
	for _, w := range []string{"export FEISHU_MODE=webhook\n", "export FEISHU_BASE_URL=http://127.0.0.1:9100\n",
		"export FEISHU_VERIFICATION_TOKEN=tok\n", "export FEISHU_ENCRYPT_KEY=key\n", "export BOT_HTTP_ADDR=127.0.0.1:8080\n",
		`export BOT_CONFIG='/tmp/it'\''s here/config.yaml'` + "\n"} {
		if !strings.Contains(env, w) {
			t.Errorf("env lacks %q:\n%s", w, env)
		}
	}
	if strings.Contains(env, "RUNPOD") || strings.Contains(f.configYAML(), "providers") || strings.Contains(f.configYAML(), "webhooks") {
		t.Errorf("without -platforms and -wecom, no platform or robot:\n%s\n%s", env, f.configYAML())
	}
}
