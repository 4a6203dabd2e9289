package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/labgpu/bot/tools/soak/fakes"
)

// reproKill reproduces, with one replica, what the soak counted as lost
// before the inbox: a replica SIGKILLed while it answers an event it had
// acknowledged (HTTP 200; Feishu does not deliver an event again once it
// had its 200). A stock question waits up to the answer budget for a
// platform whose fetch just started; the replica is killed meanwhile.
// The callback keeps every event it will answer in the store's inbox
// before its 200, so the restarted replica takes the entry over once the
// killed process's lease ended, and answers it once.
//
// Steps: vast.ai answers once (its data is fresh), then hangs; after
// stock.max_age a question ("control") starts a fetch and is answered
// after the budget, naming vast.ai late. After that fetch gave up
// (stock.timeout), the same question again ("crash"): once it is
// acknowledged the replica is SIGKILLed, started again, and given 15 s.
// It reports both and returns whether the crash question was answered,
// exactly once.
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
	if err := s.freshThenHung(ctx); err != nil {
		return false, err
	}
	if err := s.reproControl(ctx, w); err != nil {
		return false, err
	}
	// Let the control's fetch give up, so that the next question starts
	// a fresh one and waits the whole budget.
	sleep(ctx, stockTimeout+time.Second)
	return s.reproCrash(ctx, w)
}

// freshThenHung lets vast.ai answer until one fetch of it succeeded (the
// start-up poll's fetch hangs until stock.timeout; a question then starts
// the next one), then hangs it and waits until its data is older than
// stock.max_age.
func (s *soak) freshThenHung(ctx context.Context) error {
	s.hung.SetMode(fakes.ModeOK)
	for deadline := time.Now().Add(3 * stockTimeout); ; {
		s.drv.Send("oc_soak_repro", phrases.ReproQuestion, true)
		if !sleep(ctx, 2*time.Second) {
			return ctx.Err()
		}
		if st := s.hung.Stats(s.start, time.Now()); st.Answered > 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("vast.ai was never fetched successfully")
		}
	}
	s.hung.SetMode(fakes.ModeHang)
	sleep(ctx, maxAge+time.Second)
	return nil
}

// reproControl asks the stock question while vast.ai hangs and reports
// its answer: after the budget, naming vast.ai late.
func (s *soak) reproControl(ctx context.Context, w io.Writer) error {
	q := phrases.ReproQuestion
	control, err := s.askAcked(ctx, "oc_soak_repro_control", q)
	if err != nil {
		return err
	}
	text, after := s.firstAnswer(ctx, control, 10*time.Second)
	fmt.Fprintf(w, "control: %q acknowledged after %.0f ms; ", q, control.Acked.Sub(control.Created).Seconds()*1000)
	if text == "" {
		fmt.Fprintf(w, "NOT answered within 10 s (the repro needs it answered)\n")
		return fmt.Errorf("the control question was not answered")
	}
	fmt.Fprintf(w, "answered after %.1f s, naming vast.ai late: %v\n", after.Seconds(), lateText(text))
	return nil
}

// reproCrash asks the stock question again, SIGKILLs the replica once it
// acknowledged it, starts it again and reports whether it was answered.
func (s *soak) reproCrash(ctx context.Context, w io.Writer) (bool, error) {
	q := phrases.ReproQuestion
	r := s.replicas[0]
	crash, err := s.askAcked(ctx, "oc_soak_repro_crash", q)
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
	if err := r.WaitHealthy(30 * time.Second); err != nil {
		return false, err
	}
	text, after := s.firstAnswer(ctx, crash, 15*time.Second)
	fmt.Fprintf(w, "crash: %q acknowledged (HTTP 200) after %.0f ms; answered before the kill: %v; replica SIGKILLed %.1f s after the message, started again; ",
		q, acked.Seconds()*1000, early, killed.Seconds())
	if text == "" {
		fmt.Fprintf(w, "no answer 15 s after the restart: LOST (Feishu does not deliver an event again after a 200)\n")
		return false, nil
	}
	sleep(ctx, 2*time.Second) // a second answer would land by now
	if n := len(s.answers(crash.ID)); n != 1 {
		fmt.Fprintf(w, "answered after %.1f s, but %d times: DUPLICATED\n", after.Seconds(), n)
		return false, nil
	}
	fmt.Fprintf(w, "answered after %.1f s, once\n", after.Seconds())
	return true, nil
}

// askAcked sends q in chat and waits up to 5 s for a replica to
// acknowledge it.
func (s *soak) askAcked(ctx context.Context, chat, q string) (*sentMsg, error) {
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

// firstAnswer waits up to within for m's first answer: its text and how
// long after m's creation it came ("" when none came).
func (s *soak) firstAnswer(ctx context.Context, m *sentMsg, within time.Duration) (string, time.Duration) {
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

// lateText reports whether an answer names a platform late.
func lateText(content string) bool { return containsAny(content, phrases.Late) }
