package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// reproKill reproduces, with one replica, what the soak counts as lost
// when a replica is SIGKILLed while it answers: the callback acknowledges
// an event (HTTP 200) as soon as it is claimed and queued, and the answer
// is made afterwards, in memory. A stock question waits up to the answer
// budget for a platform whose fetch just started; a replica killed
// meanwhile never answers, and Feishu does not deliver an event again
// once it had its 200.
//
// Steps: vast.ai answers once (its data is fresh), then hangs; after
// stock.max_age a question ("control") starts a fetch and is answered
// after the budget, naming vast.ai late. After that fetch gave up
// (stock.timeout), the same question again ("crash"): once it is
// acknowledged the replica is SIGKILLed, started again, and given 15 s.
// It reports both and returns whether the crash question was answered.
func reproKill(ctx context.Context, o options, w io.Writer) (answered bool, err error) {
	o.Replicas, o.Short, o.Hang = 1, true, "whole"
	s := &soak{o: o, rng: nil, state: map[string]bool{}, notable: map[string][]noted{}, noteCount: map[string]int{}, subs: map[string]subInfo{}}
	s.rng = s.stream("faults")
	s.dir, err = os.MkdirTemp("", "labgpu-soak-repro-")
	if err != nil {
		return false, err
	}
	defer func() {
		s.shutdown()
		if o.Keep || !answered {
			s.logf("repro: files kept in %s", s.dir)
		} else {
			os.RemoveAll(s.dir)
		}
	}()
	if err := s.setup(ctx); err != nil {
		return false, err
	}
	s.start = time.Now()
	r := s.replicas[0]
	const q = "哪家有4090"
	// vast.ai answers until one fetch of it succeeded (the start-up
	// poll's fetch hangs until stock.timeout; a question then starts the
	// next one).
	s.hung.setMode(modeOK)
	for deadline := time.Now().Add(3 * stockTimeout); ; {
		s.drv.Send("oc_soak_repro", q, true)
		if !sleep(ctx, 2*time.Second) {
			return false, ctx.Err()
		}
		if st := s.hung.stats(s.start, time.Now()); st.Answered > 0 {
			break
		}
		if time.Now().After(deadline) {
			return false, fmt.Errorf("vast.ai was never fetched successfully")
		}
	}
	s.hung.setMode(modeHang)
	sleep(ctx, maxAge+time.Second)

	ask := func(chat string) (*sentMsg, error) {
		m := s.drv.Send(chat, q, false)
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			m.mu.Lock()
			acked := m.Acked
			m.mu.Unlock()
			if !acked.IsZero() {
				return m, nil
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				return nil, fmt.Errorf("%s: not acknowledged", m.ID)
			}
		}
	}
	firstAnswer := func(m *sentMsg, within time.Duration) (string, time.Duration) {
		for deadline := time.Now().Add(within); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(20 * time.Millisecond) {
			if a := s.answers(m.ID); len(a) > 0 {
				if st := classify(s.fake.Posts())[m.ID]; st != nil && !st.first.IsZero() {
					return a[0], st.first.Sub(m.Created)
				}
				return a[0], 0
			}
		}
		return "", 0
	}

	control, err := ask("oc_soak_repro_control")
	if err != nil {
		return false, err
	}
	text, after := firstAnswer(control, 10*time.Second)
	fmt.Fprintf(w, "control: %q acknowledged after %.0f ms; ", q, control.Acked.Sub(control.Created).Seconds()*1000)
	if text == "" {
		fmt.Fprintf(w, "NOT answered within 10 s (the repro needs it answered)\n")
		return false, fmt.Errorf("the control question was not answered")
	}
	fmt.Fprintf(w, "answered after %.1f s, naming vast.ai late: %v\n", after.Seconds(), lateText(text))

	// Let the control's fetch give up, so that the next question starts
	// a fresh one and waits the whole budget.
	sleep(ctx, stockTimeout+time.Second)
	crash, err := ask("oc_soak_repro_crash")
	if err != nil {
		return false, err
	}
	acked := crash.Acked.Sub(crash.Created)
	sleep(ctx, 500*time.Millisecond)
	early := len(s.answers(crash.ID)) > 0
	r.Kill()
	killed := time.Since(crash.Created)
	sleep(ctx, time.Second)
	if err := r.Start(); err != nil {
		return false, err
	}
	if err := r.waitHealthy(30 * time.Second); err != nil {
		return false, err
	}
	text, after = firstAnswer(crash, 15*time.Second)
	fmt.Fprintf(w, "crash: %q acknowledged (HTTP 200) after %.0f ms; answered before the kill: %v; replica SIGKILLed %.1f s after the message, started again; ",
		q, acked.Seconds()*1000, early, killed.Seconds())
	if text == "" {
		fmt.Fprintf(w, "no answer 15 s after the restart: LOST (Feishu does not deliver an event again after a 200)\n")
		return false, nil
	}
	fmt.Fprintf(w, "answered after %.1f s\n", after.Seconds())
	return true, nil
}

func lateText(content string) bool {
	return strings.Contains(content, "还没回应") || strings.Contains(content, "暂时连不上")
}
