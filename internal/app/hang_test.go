package app_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/config"
)

// TestQuestionsWhilePlatformHangs: `bot serve`'s Serve on Feishu with
// vast.ai accepting requests and never answering. Six questions sent
// together are each answered within the budget, naming vast.ai as late,
// while vast.ai sees one request at a time (one fetch shared by all);
// when that fetch ends (here: its timeout) each answer card is updated in
// place to say what happened — no second message. Bounds prove "did not
// wait for the 30 s hang"; tools/hangload measures the figures.
func TestQuestionsWhilePlatformHangs(t *testing.T) {
	needShared(t, feishuFixtures)
	hung := newHungPlatform(t)
	fake := newFakeFeishu(t)
	cfg := feishuConfig(t, fake.URL, t.TempDir())
	on := true
	cfg.Stock.Providers.Of("vastai").Enabled = &on
	cfg.Stock.Providers.Of("vastai").BaseURL = hung.url
	cfg.Stock.Providers.Of("vastai").Timeout = config.Dur(3 * time.Second)
	cfg.Stock.Timeout = config.Dur(3 * time.Second)
	cfg.Stock.AnswerBudget = config.Dur(300 * time.Millisecond)
	cfg.Stock.InterimAfter = config.Dur(100 * time.Millisecond)
	_, base, stop := startServe(t, cfg)
	defer stop()

	const questions = 6
	var wg sync.WaitGroup
	start := time.Now()
	for i := range questions {
		wg.Go(func() {
			body, hdr := sealed(t, groupEvent(t, fmt.Sprintf("ev-h%d", i), fmt.Sprintf("om_h%d", i), "哪家有4090"), time.Now())
			if code := post(t, base+"/feishu/events", body, hdr); code != http.StatusOK {
				t.Errorf("question %d: HTTP %d", i, code)
			}
		})
	}
	wg.Wait()
	count := func(sub string) int {
		n := 0
		for _, m := range fake.Messages() {
			if strings.Contains(m.Content, sub) {
				n++
			}
		}
		return n
	}
	deadline := time.Now().Add(10 * time.Second)
	for count("还没回应") < questions {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d answered naming vast.ai late after %v", count("还没回应"), questions, time.Since(start))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n, m := hung.requests.Load(), hung.maxIn.Load(); n != 1 || m != 1 {
		t.Errorf("vast.ai saw %d requests, %d at once, for %d questions; want one shared fetch", n, m, questions)
	}
	// The fetch times out (3 s): each card is updated in place.
	deadline = time.Now().Add(20 * time.Second)
	for count("数据获取失败") < questions {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d answers updated after the fetch ended", count("数据获取失败"), questions)
		}
		time.Sleep(50 * time.Millisecond)
	}
	replies := 0
	for _, m := range fake.Messages() {
		if strings.HasSuffix(m.Path, "/reply") {
			replies++
		}
	}
	if replies != questions {
		t.Errorf("%d messages posted for %d questions; the rest must be updates in place", replies, questions)
	}
	if m := hung.maxIn.Load(); m != 1 {
		t.Errorf("vast.ai saw %d requests at once", m)
	}
}
