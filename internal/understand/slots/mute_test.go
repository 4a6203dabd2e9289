package slots

import (
	"github.com/labgpu/bot/internal/understand/slots/when"
	"testing"
	"time"
)

func TestMuteUntilSlot(t *testing.T) {
	for _, c := range []struct {
		text     string
		until    string
		tomorrow bool
		minutes  int
		weekday  int
	}{
		{text: "mute alerts until monday 9am", until: "09:00", weekday: 1},
		{text: "静音到周一早上", until: "08:00", weekday: 1},
		{text: "静音到周五晚上10点", until: "22:00", weekday: 5},
		{text: "mute for the weekend", until: "08:00", weekday: 1},
		{text: "这周都别提醒了吧", until: "08:00", weekday: 1},
		{text: "静音到周末", until: "08:00", weekday: 6},
		{text: "周末两天别发提醒", minutes: 2 * 24 * 60},
		{text: "这周出差，群里提醒先静音3天", minutes: 3 * 24 * 60},
		{text: "今晚别再推送了，免打扰到明早", until: "08:00", tomorrow: true},
		{text: "今晚别推了", until: "08:00"},
		{text: "静音到明早8点", until: "08:00", tomorrow: true},
		{text: "静音到明天上午9点半", until: "09:30", tomorrow: true},
		{text: "静音到8点30分", until: "08:30"},
		{text: "提醒先停到晚上10点", until: "22:00"},
		{text: "静音到晚上12点", until: "00:00"},
		{text: "静音到晚上十二点", until: "00:00"},
		{text: "静音到0点", until: "00:00"},
		{text: "静音到中午1点", until: "13:00"},
		{text: "静音到中午12点", until: "12:00"},
		{text: "静音到凌晨2点", until: "02:00"},
		{text: "静音到今晚10点", until: "22:00"},
		{text: "今晚11点前别推了", until: "23:00"},
		{text: "静音到明天", until: "08:00", tomorrow: true},
		{text: "静音到明天晚上", until: "20:00", tomorrow: true},
		{text: "静音到中午", until: "12:00"},
		{text: "mute until 7pm", until: "19:00"},
		{text: "mute until 21:00, team meeting", until: "21:00"},
		{text: "mute until 7:30pm", until: "19:30"},
		{text: "mute alerts until 9:30am", until: "09:30"},
		{text: "mute until 12am", until: "00:00"},
		{text: "mute until 12pm", until: "12:00"},
		{text: "mute until tonight 10pm", until: "22:00"},
		{text: "mute alerts till tomorrow morning", until: "08:00", tomorrow: true},
		{text: "静音到25点", minutes: 60},
		{text: "静音 2小时", minutes: 120},
		{text: "静音 1个半小时", minutes: 90},
		{text: "静音", minutes: 60},
	} {
		q := &Query{}
		muteMinutes(q, c.text)
		if q.MuteUntil != c.until || q.MuteTomorrow != c.tomorrow || c.until == "" && q.MuteMinutes != c.minutes || q.MuteWeekday != c.weekday {
			t.Errorf("%q: until %q tomorrow %v minutes %d weekday %d, want %q %v %d %d", c.text, q.MuteUntil, q.MuteTomorrow, q.MuteMinutes, q.MuteWeekday, c.until, c.tomorrow, c.minutes, c.weekday)
		}
		if c.text == "静音到25点" && len(q.Problems) == 0 {
			t.Errorf("%q: no note that the time was not understood", c.text)
		}
	}
}

func TestMuteEnd(t *testing.T) {
	sh := time.FixedZone("CST", 8*3600)
	at := func(d, h, m int) time.Time { return time.Date(2026, 12, d, h, m, 0, 0, sh) }
	for _, c := range []struct {
		now      time.Time
		clock    string
		tomorrow bool
		weekday  int
		want     time.Time
	}{
		// 2026-12-01 is a Tuesday.
		{at(1, 1, 0), "09:00", false, 1, at(7, 9, 0)},   // "until monday 9am" on a Tuesday: next Monday
		{at(7, 7, 0), "09:00", false, 1, at(14, 9, 0)},  // on Monday itself: the next one
		{at(4, 20, 0), "08:00", false, 1, at(7, 8, 0)},  // "for the weekend" on Friday evening
		{at(1, 9, 0), "22:00", false, 5, at(4, 22, 0)},  // Friday 22:00
		{at(1, 23, 17), "08:00", false, 0, at(2, 8, 0)}, // late evening: the next morning
		{at(2, 1, 30), "08:00", false, 0, at(2, 8, 0)},  // after midnight: this morning
		{at(2, 1, 30), "08:00", true, 0, at(2, 8, 0)},   // "明早8点" said after midnight: the coming morning
		{at(1, 7, 0), "08:00", true, 0, at(2, 8, 0)},    // "明早8点" said at 7: tomorrow's
		{at(1, 9, 0), "22:00", false, 0, at(1, 22, 0)},  // later today
		{at(1, 23, 0), "22:00", false, 0, at(2, 22, 0)}, // passed: tomorrow
		{at(1, 23, 0), "09:30", true, 0, at(2, 9, 30)},  // tomorrow, already the next occurrence
		{at(1, 8, 0), "08:00", false, 0, at(2, 8, 0)},   // now exactly: the next one
	} {
		if got := when.MuteEnd(c.now.UTC(), sh, c.clock, c.tomorrow, c.weekday); !got.Equal(c.want) {
			t.Errorf("now %v clock %s tomorrow %v: %v, want %v", c.now, c.clock, c.tomorrow, got, c.want)
		}
	}
}
