package redis_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
)

// BenchmarkAddStorageDisk: one registration on a lab whose ledger holds
// 2,000 events (years of a large lab). The number is allocated by a
// script that reads the whole list, so this is how long Redis is busy
// with one registration.
func BenchmarkAddStorageDisk(b *testing.B) {
	st := newStore(b)
	ctx := context.Background()
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	var events []ledger.StorageEvent
	for i := range 2000 {
		events = append(events, ledger.StorageEvent{Time: at, Lab: "lab", Owner: "ou_member", OwnerName: "张三", Platform: "autodl",
			Disk: fmt.Sprint(i/4 + 1), Action: []ledger.StorageAction{ledger.ActionAdd, ledger.ActionStop, ledger.ActionStart, ledger.ActionRemove}[i%4],
			SizeGB: 80, Note: "ImageNet 子集 checkpoints"})
	}
	for i := range events {
		if events[i].Action != ledger.ActionAdd && events[i].Action != ledger.ActionResize {
			events[i].SizeGB = 0
		}
	}
	if err := st.AppendStorageEvents(ctx, events); err != nil {
		b.Fatal(err)
	}
	e := ledger.StorageEvent{Time: at, Lab: "lab", Owner: "ou_new", Platform: "autodl", Action: ledger.ActionAdd, SizeGB: 80}
	b.ResetTimer()
	for b.Loop() {
		if _, err := st.AddStorageDisk(ctx, e); err != nil {
			b.Fatal(err)
		}
	}
}
