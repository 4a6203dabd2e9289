package commands_test

import (
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/commands"
)

// TestStorageRisk: "哪些盘快被释放了" lists the chat's stopped disks that
// their platforms will release or wipe, soonest first, never one on a
// platform without rules; "我的" only the asker's; a start ends the risk.
func TestStorageRisk(t *testing.T) {
	r, _, now := storageRouter(t)
	from(r, "lab1", "alice", "登记存储 AutoDL 数据盘 80G 实验数据")
	from(r, "lab1", "bob", "登记存储 恒源云 /hy-tmp 200G 数据集")
	from(r, "lab1", "carol", "登记存储 矩池云 100G 日志")
	from(r, "lab2", "dave", "登记存储 矩池云 100G 日志")
	for _, m := range [][2]string{{"alice", "存储 1 已关机"}, {"bob", "存储 2 已关机"}, {"carol", "存储 3 已关机"}} {
		if res := from(r, "lab1", m[0], m[1]); res.Intent != commands.IntentStorageStop {
			t.Fatalf("%s: %s", m[1], res.Text)
		}
	}
	from(r, "lab2", "dave", "存储 1 已关机")
	*now = now.Add(2 * time.Hour)

	res := from(r, "lab1", "carol", "哪些盘快被释放了")
	if res.Intent != commands.IntentStorageRisk || res.Reply.Table == nil || len(res.Reply.Table.Rows) != 2 {
		t.Fatalf("list: %q %s", res.Intent, whole(res))
	}
	// 恒源云 /hy-tmp goes in 22 hours (11-24 10:00), AutoDL in 15 days (12-08 10:00).
	for _, want := range []string{"2 块盘快被释放或清空，最早：#2 恒源云 200 GB（bob）：11-24 10:00 清空，还剩约 22 小时", "#1", "12-08 10:00 释放", "按账本记的关机时间算"} {
		if !strings.Contains(whole(res), want) {
			t.Errorf("list lacks %q:\n%s", want, whole(res))
		}
	}
	if strings.Contains(whole(res), "矩池云") {
		t.Errorf("a platform without rules is listed:\n%s", whole(res))
	}
	if res := from(r, "lab1", "alice", "我的盘会不会被清空"); res.Intent != commands.IntentStorageRisk || res.Reply.Table == nil || len(res.Reply.Table.Rows) != 1 || res.Reply.Table.Rows[0][0] != "#1" {
		t.Errorf("mine: %s", whole(res))
	}
	if res := from(r, "lab1", "bob", "which disks are about to be wiped"); !res.English || !strings.Contains(res.Text, "2 disks about to be wiped") {
		t.Errorf("English: %s", whole(res))
	}
	if res := from(r, "lab2", "dave", "哪些盘快被释放了"); res.Reply.Table != nil || !strings.HasPrefix(res.Text, "没有快被释放的盘") {
		t.Errorf("lab without rules: %s", whole(res))
	}
	from(r, "lab1", "alice", "存储 1 开机")
	if res := from(r, "lab1", "alice", "哪些盘快被释放了"); res.Reply.Table == nil || len(res.Reply.Table.Rows) != 1 || res.Reply.Table.Rows[0][0] != "#2" {
		t.Errorf("after a start: %s", whole(res))
	}
}
