package slots

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// TestAdminCommand: the storage admin commands are read from the message
// as written, the code and the name as given; anything else is none.
func TestAdminCommand(t *testing.T) {
	cases := []struct{ text, cmd, arg string }{
		{"绑定管理员", AdminBind, ""},
		{"  绑定管理员：123456 ", AdminBind, "123456"},
		{"绑定管理员 １２３４５６", AdminBind, "１２３４５６"},
		{"Bind  Admin 042", AdminBind, "042"},
		{"绑定管理员 abc", AdminBind, "abc"},
		{"管理员列表", AdminList, ""},
		{"存储管理员？", AdminList, ""},
		{"LIST ADMINS", AdminList, ""},
		{"admins", AdminList, ""},
		{"解除管理员 张三", AdminUnbind, "张三"},
		{"解绑管理员：Alice Chen ", AdminUnbind, "Alice Chen"},
		{"取消管理员", AdminUnbind, ""},
		{"unbind admin Bob", AdminUnbind, "Bob"},
		{"解除管理员張三", "", ""}, // the name must follow a space or colon
		{"我的存储", "", ""},
		{"绑定管理员 1 2", "", ""},
		{"who are the admins here", "", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		if cmd, arg := AdminCommand(c.text); cmd != c.cmd || arg != c.arg {
			t.Errorf("AdminCommand(%q) = %q %q, want %q %q", c.text, cmd, arg, c.cmd, c.arg)
		}
	}
}

// TestSmallTalk: thanks before a greeting, English words whole, the
// rest nothing.
func TestSmallTalk(t *testing.T) {
	cases := []struct{ text, want string }{
		{"谢谢！", SmallTalkThanks},
		{"  Thank you ", SmallTalkThanks},
		{"thanks a lot", SmallTalkThanks},
		{"thx", SmallTalkThanks},
		{"辛苦了，你好", SmallTalkThanks},
		{"你好", SmallTalkGreeting},
		{"Hi there", SmallTalkGreeting},
		{"早", SmallTalkGreeting},
		{"在吗", SmallTalkGreeting},
		{"this", ""}, // "hi" inside a word is no greeting
		{"typo", ""}, // nor "ty"
		{"👍", ""},
		{"好的", ""},
	}
	for _, c := range cases {
		if got := SmallTalk(c.text); got != c.want {
			t.Errorf("SmallTalk(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestCJKSlot: Query.CJK says whether the message has Chinese, also when
// it is answered in English ("how much is a 4090 on 恒源云").
func TestCJKSlot(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]bool{"seq 4096": false, "换成4090呢": true, "how much is a 4090 on 恒源云": true, "": false} {
		if got := Extract(cat, text, false).Query().CJK; got != want {
			t.Errorf("%q: CJK %v, want %v", text, got, want)
		}
	}
}
