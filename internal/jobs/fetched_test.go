package jobs_test

import (
	"testing"
	"time"

	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/stock"
)

func TestFetchedText(t *testing.T) {
	at := time.Date(2025, 6, 1, 18, 0, 0, 120_000_000, time.FixedZone("CST", 8*3600))
	tests := []struct {
		name string
		ps   []stock.ProviderSnapshot
		want string
	}{
		{"none", nil, ""},
		{"ok in UTC", []stock.ProviderSnapshot{{Provider: "runpod", Status: stock.StatusOK, FetchedAt: at}}, "runpod:ok@2025-06-01T10:00:00.12Z"},
		{"stale keeps no time, breaker named", []stock.ProviderSnapshot{
			{Provider: "catalog", Status: stock.StatusOK},
			{Provider: "vastai", Status: stock.StatusStale, FetchedAt: at, Breaker: stock.BreakerOpen},
			{Provider: "lambda"},
		}, "catalog:ok vastai:stale/open lambda:none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := jobs.FetchedText(stock.Snapshot{Providers: tt.ps}); got != tt.want {
				t.Errorf("FetchedText = %q, want %q", got, tt.want)
			}
		})
	}
}
