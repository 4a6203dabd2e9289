package answer

import (
	"errors"
	"testing"
	"time"
)

// TestBindCodes: a code is good once, within BindCodeTTL; wrong codes
// count down to void; full-width digits are read as digits; a member
// gets at most BindCodesPerHour codes an hour.
func TestBindCodes(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	s := NewStorage(StorageOptions{})
	if v, _ := s.CheckCode("remark:a", "123456", t0); v != CodeNone {
		t.Fatalf("no code issued: %s", v)
	}
	code, err := s.IssueCode("remark:a", t0)
	if err != nil || len(code) != 6 {
		t.Fatalf("code %q, %v", code, err)
	}
	wide := ""
	for _, c := range code {
		wide += string(c - '0' + fullWidthZero)
	}
	if v, left := s.CheckCode("remark:a", "x", t0); v != CodeWrong || left != BindCodeTries-1 {
		t.Errorf("wrong code: %s, %d left", v, left)
	}
	if v, _ := s.CheckCode("remark:b", code, t0); v != CodeNone {
		t.Errorf("another member's code: %s", v)
	}
	if v, _ := s.CheckCode("remark:a", wide, t0.Add(time.Minute)); v != CodeOK {
		t.Errorf("full-width code: %s", v)
	}
	if v, _ := s.CheckCode("remark:a", code, t0.Add(time.Minute)); v != CodeNone {
		t.Errorf("a code is used once: %s", v)
	}
	code, _ = s.IssueCode("remark:a", t0.Add(2*time.Minute))
	if v, _ := s.CheckCode("remark:a", code, t0.Add(2*time.Minute+BindCodeTTL)); v != CodeExpired {
		t.Errorf("expired code: %s", v)
	}
	if _, err := s.IssueCode("remark:a", t0.Add(3*time.Minute)); err != nil {
		t.Errorf("a third code within the hour: %v", err)
	}
	if _, err := s.IssueCode("remark:a", t0.Add(4*time.Minute)); !errors.Is(err, ErrTooManyCodes) {
		t.Errorf("a fourth code within the hour: %v", err)
	}
	if _, err := s.IssueCode("remark:a", t0.Add(61*time.Minute)); err != nil {
		t.Errorf("an hour later: %v", err)
	}
	s.IssueCode("remark:c", t0)
	for i := range BindCodeTries {
		v, _ := s.CheckCode("remark:c", "000000x", t0)
		if want := CodeWrong; i == BindCodeTries-1 {
			want = CodeSpent
			if v != want {
				t.Errorf("try %d: %s, want %s", i+1, v, want)
			}
		}
	}
	if v, _ := s.CheckCode("remark:c", "000000", t0); v != CodeNone {
		t.Errorf("a spent code is void: %s", v)
	}
}

// TestAskerRights: a WeChat nickname owns nothing and is never an admin;
// a remark name and other channels' ids own their entries.
func TestAskerRights(t *testing.T) {
	cases := []struct {
		from  Asker
		owner string
		owns  bool
	}{
		{Asker{Channel: "feishu", SenderID: "ou_a"}, "ou_a", true},
		{Asker{Channel: "feishu", SenderID: "ou_a"}, "ou_b", false},
		{Asker{Channel: "wechat", SenderID: "remark:张三"}, "remark:张三", true},
		{Asker{Channel: "wechat", SenderID: "小王"}, "小王", false},
		{Asker{Channel: "wechat", SenderID: "remark:"}, "remark:", false},
		{Asker{Channel: "console", SenderID: ""}, "", false},
	}
	for _, c := range cases {
		if got := c.from.OwnsDisk(c.owner); got != c.owns {
			t.Errorf("%+v owns %q: %v", c.from, c.owner, got)
		}
	}
}
