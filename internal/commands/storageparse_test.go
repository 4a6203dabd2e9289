package commands_test

import (
	"testing"

	"github.com/labgpu/bot/internal/commands"
)

func TestParseStorage(t *testing.T) {
	c := parseCatalog(t)
	cases := []struct {
		in       string
		intent   string
		platform string
		size     float64
		disk     string
		note     string
		mine     bool
		week     string
		problems int
	}{
		{in: "登记存储 AutoDL 数据盘 80G 实验数据", intent: commands.IntentStorageAdd, platform: "autodl", size: 80, note: "实验数据"},
		{in: "记一下：矩池云 200GB 数据集盘", intent: commands.IntentStorageAdd, platform: "matpool", size: 200, note: "数据集盘"},
		{in: "storage add autodl 80GB", intent: commands.IntentStorageAdd, platform: "autodl", size: 80},
		{in: "登记存储 恒源云 1.5T 共享数据", intent: commands.IntentStorageAdd, platform: "hengyuan", size: 1500, note: "共享数据"},
		{in: "登记存储 80G", intent: commands.IntentStorageAdd, size: 80, problems: 1},
		{in: "登记存储 autodl", intent: commands.IntentStorageAdd, platform: "autodl", problems: 1},
		{in: "我的存储", intent: commands.IntentStorageList, mine: true},
		{in: "存储列表", intent: commands.IntentStorageList},
		{in: "my storage", intent: commands.IntentStorageList, mine: true},
		{in: "存储 3 扩容到 200G", intent: commands.IntentStorageResize, disk: "3", size: 200},
		{in: "storage resize 2 500GB", intent: commands.IntentStorageResize, disk: "2", size: 500},
		{in: "存储 2 已关机", intent: commands.IntentStorageStop, disk: "2"},
		{in: "storage stop 4", intent: commands.IntentStorageStop, disk: "4"},
		{in: "存储2开机", intent: commands.IntentStorageStart, disk: "2"},
		{in: "删除存储 3", intent: commands.IntentStorageRemove, disk: "3"},
		{in: "storage remove 12", intent: commands.IntentStorageRemove, disk: "12"},
		{in: "本周存储花费", intent: commands.IntentDigest},
		{in: "storage spend this week", intent: commands.IntentDigest},
		{in: "存储周报 2026-W47", intent: commands.IntentDigest, week: "2026-W47"},
		// Not storage commands.
		{in: "AutoDL 4090 有货了提醒我", intent: commands.IntentSubscribe, platform: "autodl"},
		{in: "AutoDL 数据盘多少钱", intent: commands.IntentPrices, platform: "autodl"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			q := commands.Parse(c, tc.in)
			if q.Intent != tc.intent || q.Platform != tc.platform || q.SizeGB != tc.size || q.DiskRef != tc.disk ||
				q.Note != tc.note || q.Mine != tc.mine || q.Week != tc.week || len(q.Problems) != tc.problems {
				t.Errorf("got intent %s platform %q size %v disk %q note %q mine %v week %q problems %q",
					q.Intent, q.Platform, q.SizeGB, q.DiskRef, q.Note, q.Mine, q.Week, q.Problems)
			}
		})
	}
}
