package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/tools/soak/fakes"
)

// answerState is what the fake Feishu saw in answer to one user message.
type answerState struct {
	// answers counts the distinct answers a user would see: a reply
	// whose uuid is the answer's first part ("reply:<id>#0"), and the
	// "查询中…" card replaced by an answer (counted once per card).
	answers int
	// repeats counts sends Feishu's uuid deduplication absorbed (the
	// bot sent the same part again) and patches of a card already
	// patched with an answer.
	repeats int
	// other counts replies whose uuid the soak does not recognise.
	other int
	first time.Time
}

// classify reads the fake's posts into answers per user message id.
func classify(posts []fakes.Post) map[string]*answerState {
	out := map[string]*answerState{}
	get := func(id string) *answerState {
		a := out[id]
		if a == nil {
			a = &answerState{}
			out[id] = a
		}
		return a
	}
	interimOf := map[string]string{} // interim card message id → user message id
	patched := map[string]bool{}
	for _, p := range posts {
		switch p.Kind {
		case "reply":
			a := get(p.Target)
			switch {
			case p.UUID == partUUID("interim:"+p.Target):
				interimOf[p.MessageID] = p.Target
				if p.Repeat {
					a.repeats++
				}
			case p.Repeat:
				a.repeats++
			case p.UUID == partUUID("reply:"+p.Target+"#0"):
				a.answers++
				if a.first.IsZero() {
					a.first = p.At
				}
			case strings.HasPrefix(p.Target, "om_soak_") && !isContinuation(p):
				a.other++
			}
		case "patch":
			user, ok := interimOf[p.Target]
			if !ok || containsAny(p.Text, phrases.NotAnAnswer) {
				continue
			}
			a := get(user)
			if patched[p.Target] {
				a.repeats++
				continue
			}
			patched[p.Target] = true
			a.answers++
			if a.first.IsZero() {
				a.first = p.At
			}
		}
	}
	return out
}

type merged struct {
	messages int
	ids      map[string]bool
}

// mergedAnswers matches the messages the bot created in question chats
// that merge N answers ("N 条回复（同时问的人多，合并成一条）": answers
// that piled up for one chat) to up to N of the chat's messages that
// have no answer of their own and were sent before it, oldest first. A
// merged message names none of the messages it answers.
func mergedAnswers(posts []fakes.Post, msgs []*sentMsg, ans map[string]*answerState) merged {
	out := merged{ids: map[string]bool{}}
	for _, p := range posts {
		if p.Kind != "create" || p.Repeat || !strings.HasPrefix(p.ChatID, "oc_soak_q_") {
			continue
		}
		m := mergedTitle.FindStringSubmatch(p.Text)
		if m == nil {
			continue
		}
		out.messages++
		n, _ := strconv.Atoi(m[1])
		for _, sm := range msgs {
			if n == 0 {
				break
			}
			if sm.Chat == p.ChatID && sm.Created.Before(p.At) && !out.ids[sm.ID] && (ans[sm.ID] == nil || ans[sm.ID].answers == 0) {
				out.ids[sm.ID] = true
				n--
			}
		}
	}
	return out
}

// isContinuation reports whether a reply is a later part of an answer
// ("reply:<id>#N" for N ≥ 1, or "reply:<id>/more#N" after a card update).
func isContinuation(p fakes.Post) bool {
	for i := 0; i < 20; i++ {
		if p.UUID == partUUID(fmt.Sprintf("reply:%s#%d", p.Target, i)) || p.UUID == partUUID(fmt.Sprintf("reply:%s/more#%d", p.Target, i)) {
			return true
		}
	}
	return false
}

// partUUID is the uuid the bot gives a part with outbox key key
// (internal/chat/feishu: the first 16 bytes of its SHA-256, in hex).
func partUUID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// report is the soak's outcome.
type report struct {
	OK       bool    `json:"ok"`
	Seconds  float64 `json:"seconds"`
	Replicas int     `json:"replicas"`
	Seed     uint64  `json:"seed"`
	Persist  string  `json:"redis_appendfsync"`

	MessagesSent     int `json:"messages_sent"`
	MessagesAnswered int `json:"messages_answered"`
	MessagesLost     int `json:"messages_lost"`
	// LostToKill are lost messages the replica that acknowledged them was
	// SIGKILLed within killWindow of the acknowledgement, before it
	// answered, and that no replica took over from the inbox (see
	// -repro kill-while-answering); counted as lost like any other.
	LostToKill         int `json:"messages_lost_to_kill"`
	MessagesDuplicated int `json:"messages_duplicated"`
	// Undelivered: every redelivery failed (Feishu would give up too).
	Undelivered    int `json:"messages_undelivered"`
	AnswerRepeats  int `json:"answer_repeats_absorbed_by_uuid"`
	UnknownReplies int `json:"unknown_replies"`
	Redeliveries   int `json:"redeliveries"`
	// Merged: answers the bot sent several in one message (no reply
	// reference, so they are matched to the chat's unanswered messages).
	MergedMessages int `json:"merged_messages"`
	MergedAnswers  int `json:"answers_in_merged_messages"`
	// Latency is from a message's creation to its first answer (not
	// "查询中…"), in seconds, of every answer; Calm of those with no
	// replica or Redis fault from 2 s before the message to the answer,
	// where only the platforms can make an answer wait; CalmStock of the
	// calm ones asking for live stock ("哪家有4090"), which wait for the
	// platforms at most the answer budget.
	Latency   latency `json:"latency_s"`
	Calm      latency `json:"latency_calm_s"`
	CalmStock latency `json:"latency_calm_stock_s"`
	// CalmOverBudget counts calm answers that took longer than the
	// answer budget plus a second.
	CalmOverBudget int      `json:"calm_answers_over_budget"`
	SlowCalm       []string `json:"slow_calm,omitempty"`

	AlertsExpected    int `json:"alerts_expected"`
	AlertsSent        int `json:"alerts_sent"`
	AlertsForExpected int `json:"alerts_sent_for_expected"`
	AlertsLost        int `json:"alerts_lost"`
	AlertsDuplicated  int `json:"alerts_duplicated"`
	AlertsExtra       int `json:"alerts_not_expected"`
	AlertsStray       int `json:"alerts_stray"`
	AlertRepeats      int `json:"alert_repeats_absorbed_by_uuid"`
	Transitions       int `json:"transitions"`
	Polls             int `json:"polls"`
	PollsFailed       int `json:"polls_failed"`
	// Tracks are the alerts per platform and GPU.
	Tracks []*trackStats `json:"tracks"`

	// Platforms are what the fake platforms saw; SingleFlight is false
	// when a replica process had two requests to one endpoint in flight
	// at once.
	Platforms    []fakes.Stats `json:"platforms"`
	SingleFlight bool          `json:"single_flight"`
	Ready        readyStats    `json:"readyz"`

	ReplicaKills             int      `json:"replica_kills"`
	RedisKills               int      `json:"redis_kills"`
	RedisShutdowns           int      `json:"redis_shutdowns"`
	RedisPauses              int      `json:"redis_pauses"`
	ReplicaRestartsRedisDown int      `json:"replica_restarts_while_redis_down"`
	UnexpectedExits          []string `json:"unexpected_exits,omitempty"`

	Lost       []string           `json:"lost,omitempty"`
	Duplicated []string           `json:"duplicated,omitempty"`
	AlertNotes []string           `json:"alert_notes,omitempty"`
	ExtraNotes []string           `json:"alerts_not_expected_notes,omitempty"`
	LogCounts  map[string]int     `json:"log_counts,omitempty"`
	LogSamples map[string][]noted `json:"-"`
	Chaos      []chaosEvent       `json:"-"`
}

// period is one state of a track.
type period struct {
	track      string
	in         bool
	start, end time.Time
}

// latency is p50, p99 and max of some answers, in seconds.
type latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

func latencyOf(xs []float64) latency {
	l := latency{N: len(xs)}
	l.P50, l.P99, l.Max = quantiles(xs)
	return l
}

// trackStats are one track's alerts.
type trackStats struct {
	Track       string `json:"track"`
	Transitions int    `json:"transitions"`
	Expected    int    `json:"expected"`
	Sent        int    `json:"sent_for_expected"`
	Lost        int    `json:"lost"`
	Duplicated  int    `json:"duplicated"`
	Extra       int    `json:"not_expected_but_sent"`
}

func (r *report) track(key string) *trackStats {
	for _, t := range r.Tracks {
		if t.Track == key {
			return t
		}
	}
	t := &trackStats{Track: key}
	r.Tracks = append(r.Tracks, t)
	return t
}

// stockQuestion reports a question answered from live stock.
func stockQuestion(text string) bool { return containsAny(text, phrases.LiveStock) }

// killWindow: a message lost because the replica that acknowledged it
// was killed is one whose replica was SIGKILLed this soon after the
// acknowledgement (the answer budget and a margin for a slow store).
const killWindow = answerBudget + 3*time.Second

// killedAfter returns when replica idx was SIGKILLed within killWindow
// after t.
func (s *soak) killedAfter(idx int, t time.Time) (time.Time, bool) {
	for _, e := range s.chaos {
		if (e.Kind == "replica-kill" || e.Kind == "replica-restart-redis-down") && e.Replica == idx &&
			!e.Start.Before(t) && e.Start.Sub(t) <= killWindow {
			return e.Start, true
		}
	}
	return time.Time{}, false
}

// calm reports whether no replica or Redis fault was under way from 2 s
// before a to b.
func (s *soak) calm(a, b time.Time) bool {
	for _, e := range s.chaos {
		if e.Start.Before(b) && e.End.After(a.Add(-2*time.Second)) {
			return false
		}
	}
	return true
}

func (s *soak) analyse() *report {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &report{Seconds: s.stop.Sub(s.start).Seconds(), Replicas: len(s.replicas), Seed: s.o.Seed, Persist: s.o.RedisPersist,
		LogCounts: s.noteCount, LogSamples: s.notable, Chaos: s.chaos, Transitions: len(s.transitions)}
	r.countFaults(s.chaos)
	for _, rp := range s.replicas {
		r.UnexpectedExits = append(r.UnexpectedExits, rp.UnexpectedExits()...)
	}
	posts := s.fake.Posts()
	ans := classify(posts)
	merged := mergedAnswers(posts, s.drv.Msgs(), ans)
	r.MergedMessages, r.MergedAnswers = merged.messages, len(merged.ids)
	for _, t := range tracks {
		r.track(t.key())
	}
	for _, tr := range s.transitions {
		r.track(tr.Track).Transitions++
	}
	s.analyseMessages(r, ans, merged)
	s.analyseAlerts(r, posts)
	s.analysePlatforms(r)
	r.Ready = readyReport(s.probes)
	for _, p := range s.polls {
		if p.OK {
			r.Polls++
		} else {
			r.PollsFailed++
		}
	}
	r.OK = r.MessagesLost == 0 && r.MessagesDuplicated == 0 && r.AlertsLost == 0 && r.AlertsDuplicated == 0 && r.AlertsStray == 0 && r.SingleFlight
	return r
}

// countFaults counts the faults injected by kind; a replica restarted
// while Redis was down counts as a replica kill and a Redis kill too.
func (r *report) countFaults(chaos []chaosEvent) {
	for _, e := range chaos {
		switch e.Kind {
		case "replica-kill":
			r.ReplicaKills++
		case "redis-kill":
			r.RedisKills++
		case "redis-shutdown":
			r.RedisShutdowns++
		case "redis-pause":
			r.RedisPauses++
		case "replica-restart-redis-down":
			r.ReplicaKills++
			r.RedisKills++
			r.ReplicaRestartsRedisDown++
		}
	}
}

// latencies are the answer latencies the report sums up, in seconds: all
// answers, the calm ones, the calm live-stock ones.
type latencies struct{ all, calm, calmStock []float64 }

// analyseMessages counts, per user message the driver sent, whether it
// was answered (by itself or merged), lost or answered twice, and the
// answers' latencies.
func (s *soak) analyseMessages(r *report, ans map[string]*answerState, mg merged) {
	var lat latencies
	for _, m := range s.drv.Msgs() {
		m.mu.Lock()
		r.MessagesSent++
		r.Redeliveries += max(0, len(m.Attempts)-1)
		a := ans[m.ID]
		switch {
		case mg.ids[m.ID]:
			r.MessagesAnswered++
		case a != nil && a.answers > 0:
			r.MessagesAnswered++
			if !m.Acked.IsZero() {
				s.timeAnswer(r, m, a, &lat)
			}
		case m.GaveUp:
			r.Undelivered++
			r.Lost = append(r.Lost, fmt.Sprintf("%s (%s, %q): not delivered, attempts %s", m.ID, m.Chat, m.Text, attemptsText(m.Attempts, s.start)))
		default:
			s.noteLost(r, m)
		}
		if a != nil {
			s.noteRepeats(r, m, a)
		}
		m.mu.Unlock()
	}
	r.MessagesLost = r.MessagesSent - r.MessagesAnswered
	r.Latency, r.Calm, r.CalmStock = latencyOf(lat.all), latencyOf(lat.calm), latencyOf(lat.calmStock)
}

// timeAnswer adds the latency of m's first answer a; a calm one (no
// replica or Redis fault around, not a setup message) over the budget
// plus a second is noted.
func (s *soak) timeAnswer(r *report, m *sentMsg, a *answerState, lat *latencies) {
	d := a.first.Sub(m.Created).Seconds()
	lat.all = append(lat.all, d)
	if !s.calm(m.Created, a.first) || m.Setup {
		return
	}
	lat.calm = append(lat.calm, d)
	if stockQuestion(m.Text) {
		lat.calmStock = append(lat.calmStock, d)
	}
	if d > (answerBudget + time.Second).Seconds() {
		r.CalmOverBudget++
		if len(r.SlowCalm) < 10 {
			r.SlowCalm = append(r.SlowCalm, fmt.Sprintf("%s (%s, %q) sent +%.1fs: answered after %.1fs, attempts %s; %s", m.ID, m.Chat, m.Text,
				m.Created.Sub(s.start).Seconds(), d, attemptsText(m.Attempts, s.start), s.context(m.Created)))
		}
	}
}

// noteLost notes an acknowledged message never answered, and whether
// the replica that acknowledged it was SIGKILLed before it answered.
func (s *soak) noteLost(r *report, m *sentMsg) {
	why := ""
	if k, ok := s.killedAfter(m.Attempts[len(m.Attempts)-1].Replica, m.Acked); ok {
		r.LostToKill++
		why = fmt.Sprintf("its replica was SIGKILLed %.1fs after the acknowledgement, before answering; ", k.Sub(m.Acked).Seconds())
	}
	r.Lost = append(r.Lost, fmt.Sprintf("%s (%s, %q): acknowledged at +%.1fs, never answered; %sattempts %s; %s",
		m.ID, m.Chat, m.Text, m.Acked.Sub(s.start).Seconds(), why, attemptsText(m.Attempts, s.start), s.context(m.Acked)))
}

// noteRepeats counts a message answered more than once, the repeats
// Feishu's uuid absorbed and the replies the soak does not recognise.
func (s *soak) noteRepeats(r *report, m *sentMsg, a *answerState) {
	if a.answers > 1 {
		r.MessagesDuplicated++
		r.Duplicated = append(r.Duplicated, fmt.Sprintf("%s (%s, %q): answered %d times; attempts %s; %s", m.ID, m.Chat, m.Text, a.answers,
			attemptsText(m.Attempts, s.start), s.context(m.Created)))
	}
	r.AnswerRepeats += a.repeats
	r.UnknownReplies += a.other
}

// analysePlatforms adds what the fake platforms saw, and whether every
// replica process kept its fetches single-flight.
func (s *soak) analysePlatforms(r *report) {
	r.SingleFlight = true
	for _, p := range []*fakes.Platform{s.hung, s.flapping} {
		st := p.Stats(s.start, time.Now())
		r.Platforms = append(r.Platforms, st)
		if st.MaxPerReplica > 1 {
			r.SingleFlight = false
		}
	}
}

// context says which faults were under way around t (±5 s).
func (s *soak) context(t time.Time) string {
	var parts []string
	for _, e := range s.chaos {
		if e.Start.Before(t.Add(5*time.Second)) && e.End.After(t.Add(-5*time.Second)) {
			what := e.Kind
			if strings.HasPrefix(e.Kind, "replica") {
				what += fmt.Sprintf(" %d", e.Replica)
			}
			parts = append(parts, fmt.Sprintf("%s +%.1fs..+%.1fs", what, e.Start.Sub(s.start).Seconds(), e.End.Sub(s.start).Seconds()))
		}
	}
	for _, p := range []*fakes.Platform{s.hung, s.flapping} {
		if p != nil {
			parts = append(parts, p.ModesDuring(t, s.start)...)
		}
	}
	if len(parts) == 0 {
		return "no fault within 5 s"
	}
	return "faults: " + strings.Join(parts, ", ")
}

func attemptsText(as []attempt, start time.Time) string {
	var b []string
	for _, a := range as {
		res := fmt.Sprint(a.Status)
		if a.Err != "" {
			res = "error"
			if strings.Contains(a.Err, "refused") {
				res = "refused"
			} else if strings.Contains(a.Err, "Timeout") || strings.Contains(a.Err, "deadline") {
				res = "timeout"
			}
		}
		b = append(b, fmt.Sprintf("+%.1fs→r%d:%s", a.At.Sub(start).Seconds(), a.Replica, res))
	}
	return strings.Join(b, " ")
}

// healthy reports whether Redis was up and running throughout [a, b].
func (s *soak) healthy(a, b time.Time) bool {
	for _, u := range s.unhealthy {
		end := u[1]
		if end.IsZero() {
			end = time.Now()
		}
		if u[0].Before(b) && end.After(a) {
			return false
		}
	}
	return true
}

// analyseAlerts compares the alerts the fake received with the ones the
// stock changes and the polls call for.
//
// Expected: for each subscription (one track: a GPU on a platform), an
// in-stock period of its track that a valid poll saw, where the bot's
// record cannot already be "notified" (the subscription was made while
// sold out, or a valid poll saw the sold-out period before, and no
// in-stock period since was answered by its platform; vast.ai never says
// sold out, so after its first in-stock answer none is expected). A
// valid poll is a replica's "poll" log line (the poll and its alert
// processing succeeded) listing every subscription, with Redis up and
// not paused from 1 s before the line to 0.5 s after. What it saw of a
// track is read from the line's fetched attribute: a platform's good
// fetch and its time, matched to the fake platform's last answer to that
// replica process before that time (RunPod: both clouds' answers, in the
// same state); for the replay, the period holding the second before the
// fetch. A platform whose fetch failed (the hung one, the flapping one
// while down) saw nothing. A state no valid poll saw is not expected; an
// alert for it is allowed and counted as "not expected".
//
// An alert is a message the bot created (not a reply) in a
// subscription's chat; it belongs to the last in-stock period of the
// chat's track that began before it arrived. More than one for a period
// is a duplicate; one before any in-stock period, or not naming the GPU,
// is stray.
func (s *soak) analyseAlerts(r *report, posts []fakes.Post) {
	byTrack := s.trackPeriods()
	chats := make([]string, 0, len(s.subs))
	for c := range s.subs {
		chats = append(chats, c)
	}
	sort.Strings(chats)
	for _, chat := range chats {
		sub := s.subs[chat]
		ps := byTrack[sub.Track.key()]
		counts := s.countAlerts(r, chat, sub.Track, ps, posts)
		s.judgeAlerts(r, chat, sub, ps, counts)
	}
}

// trackPeriods are, per track key, its states from the start (sold out)
// to now.
func (s *soak) trackPeriods() map[string][]period {
	byTrack := map[string][]period{}
	for _, t := range tracks {
		in, since := false, time.Time{}
		var ps []period
		for _, tr := range s.transitions {
			if tr.Track != t.key() {
				continue
			}
			ps = append(ps, period{t.key(), in, since, tr.At})
			in, since = tr.InStock, tr.At
		}
		ps = append(ps, period{t.key(), in, since, time.Now()})
		byTrack[t.key()] = ps
	}
	return byTrack
}

// seen reports whether a valid poll saw period k of t (ps: its periods).
func (s *soak) seen(t track, ps []period, k int) bool {
	for _, pl := range s.polls {
		if pl.OK && pl.Subs >= len(s.subs) && s.healthy(pl.At.Add(-time.Second), pl.At.Add(time.Second/2)) {
			if got, ok := s.sawPeriod(pl, t, ps); ok && got == k {
				return true
			}
		}
	}
	return false
}

// countAlerts counts the alerts in chat (for track t, whose periods are
// ps) per period, and notes the stray ones and the repeats absorbed by
// uuid.
func (s *soak) countAlerts(r *report, chat string, t track, ps []period, posts []fakes.Post) []int {
	counts := make([]int, len(ps))
	for _, p := range posts {
		if p.Kind != "create" || p.ChatID != chat {
			continue
		}
		if p.Repeat {
			r.AlertRepeats++
			continue
		}
		r.AlertsSent++
		k := -1
		for i, pe := range ps {
			if pe.in && !pe.start.IsZero() && !pe.start.After(p.At) {
				k = i
			}
		}
		short := strings.TrimPrefix(t.gpu, "RTX ")
		if k < 0 || !strings.Contains(p.Text, short) {
			r.AlertsStray++
			r.AlertNotes = append(r.AlertNotes, fmt.Sprintf("%s: stray alert at +%.1fs: %.200s", chat, p.At.Sub(s.start).Seconds(), p.Text))
			continue
		}
		counts[k]++
	}
	return counts
}

// judgeAlerts goes through the periods of sub's track (ps) from the
// subscription on, deciding which in-stock periods expect an alert, and
// tallies the alerts counted for each (counts).
func (s *soak) judgeAlerts(r *report, chat string, sub subInfo, ps []period, counts []int) {
	t := sub.Track
	maybeActive := false
	for i, pe := range ps {
		if pe.end.Before(sub.Created) {
			continue
		}
		if !pe.in {
			if t.soldOutSeen && s.seen(t, ps, i) {
				maybeActive = false
			}
			continue
		}
		// An in-stock period a fake platform never answered (it hung
		// or failed throughout) cannot have made the record active.
		visible := true
		if fp := s.platformByName(t.platform); fp != nil {
			visible = fp.AnsweredIn(t.gpu, i)
		}
		expected := visible && !maybeActive && s.seen(t, ps, i)
		s.tallyAlerts(r, periodAlerts{chat: chat, t: t, ps: ps, i: i, expected: expected, activeBefore: maybeActive, sent: counts[i]})
		maybeActive = maybeActive || visible
	}
}

// periodAlerts are the alerts of one chat for one in-stock period.
type periodAlerts struct {
	chat         string
	t            track
	ps           []period // the track's periods
	i            int      // the period's index in ps
	expected     bool
	activeBefore bool // the subscription's record may have been active already
	sent         int  // alerts counted for the period
}

// tallyAlerts counts one period's alerts as expected and sent, lost,
// sent but not expected, or duplicated, with a note for each but the
// first.
func (s *soak) tallyAlerts(r *report, a periodAlerts) {
	pe := a.ps[a.i]
	when := fmt.Sprintf("%s in stock +%.1fs..+%.1fs", a.t.key(), pe.start.Sub(s.start).Seconds(), pe.end.Sub(s.start).Seconds())
	tr := r.track(a.t.key())
	switch {
	case a.expected && a.sent == 0:
		r.AlertsExpected++
		r.AlertsLost++
		tr.Expected++
		tr.Lost++
		r.AlertNotes = append(r.AlertNotes, fmt.Sprintf("%s: LOST alert for %s (period %d); %s", a.chat, when, a.i, s.pollsText(a.t, a.ps, pe)))
	case a.expected:
		r.AlertsExpected++
		r.AlertsForExpected++
		tr.Expected++
		tr.Sent++
	case a.sent > 0:
		r.AlertsExtra++
		tr.Extra++
		why := "not seen by a valid poll"
		if a.activeBefore {
			why = "its record may have been active already"
		}
		r.ExtraNotes = append(r.ExtraNotes, fmt.Sprintf("%s: alert for %s (period %d) not expected (%s); %s", a.chat, when, a.i, why, s.pollsText(a.t, a.ps, pe)))
	}
	if a.sent > 1 {
		r.AlertsDuplicated += a.sent - 1
		tr.Duplicated += a.sent - 1
		r.AlertNotes = append(r.AlertNotes, fmt.Sprintf("%s: %d alerts for %s; %s", a.chat, a.sent, when, s.context(pe.start)))
	}
}

// sawPeriod returns the period of t's states (ps) that poll pl decided
// on, when that can be told.
func (s *soak) sawPeriod(pl pollLine, t track, ps []period) (int, bool) {
	if t.platform == "autodl" {
		// The replay reads the recording within the poll; a bot that
		// does not say when, within the second before the line.
		at := pl.At
		if pl.Fetched != nil {
			f := pl.Fetched[replayProvider]
			if !f.OK {
				return 0, false
			}
			at = f.At
		}
		for i, p := range ps {
			if at.Add(-time.Second).After(p.start) && at.Before(p.end) {
				return i, true
			}
		}
		return 0, false
	}
	f := pl.Fetched[t.platform]
	if !f.OK {
		return 0, false
	}
	fp := s.platformByName(t.platform)
	if fp == nil {
		return 0, false
	}
	last := fp.LastAnswers(pl.Replica, pl.Start, f.At)
	want := []string{""}
	if fp == s.flapping {
		want = []string{"COMMUNITY", "SECURE"}
	}
	k := -1
	for _, kind := range want {
		a := last[kind]
		if a == nil || f.At.Sub(a.Served) > stockTimeout+time.Second {
			return 0, false
		}
		p, ok := a.Periods[t.gpu]
		if !ok || k >= 0 && p != k {
			return 0, false
		}
		k = p
	}
	return k, k >= 0 && k < len(ps)
}

func (s *soak) platformByName(name string) *fakes.Platform {
	for _, p := range []*fakes.Platform{s.hung, s.flapping} {
		if p != nil && p.Name == name {
			return p
		}
	}
	return nil
}

// pollsText lists the polls during a period of t (ps: its periods), for
// an alert's note: each with the period it saw of t ("saw 3", "saw -"
// when its fetch failed or cannot be matched) and whether Redis was
// healthy around it.
func (s *soak) pollsText(t track, ps []period, p period) string {
	var b []string
	for _, pl := range s.polls {
		if pl.At.After(p.start) && pl.At.Before(p.end.Add(stockTimeout+5*time.Second)) {
			st := "ok"
			if !pl.OK {
				st = "failed"
			}
			saw := "-"
			if k, ok := s.sawPeriod(pl, t, ps); ok {
				saw = strconv.Itoa(k)
			}
			redis := ""
			if !s.healthy(pl.At.Add(-time.Second), pl.At.Add(time.Second/2)) {
				redis = " redis-down"
			}
			b = append(b, fmt.Sprintf("+%.1fs r%d#%d %s subs=%d alerts=%d held=%d saw %s%s", pl.At.Sub(s.start).Seconds(), pl.Replica, pl.Start, st, pl.Subs, pl.Alerts, pl.Held, saw, redis))
		}
	}
	return "polls: " + strings.Join(b, "; ") + "; " + s.context(p.start)
}

// write prints the report as text and one JSON line.
func (r *report) write(w io.Writer) {
	verdict := "PASS"
	if !r.OK {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "\nsoak %s: %.0f s, %d replicas, Redis appendfsync %s, seed %d\n", verdict, r.Seconds, r.Replicas, r.Persist, r.Seed)
	r.writeMessages(w)
	r.writeAlerts(w)
	r.writePlatforms(w)
	r.writeReady(w)
	r.writeFaults(w)
	r.writeLists(w)
	r.writeLogLines(w)
	b, _ := json.Marshal(r)
	fmt.Fprintf(w, "%s\n", b)
}

// writeMessages prints the user messages' counts and answer latencies.
func (r *report) writeMessages(w io.Writer) {
	fmt.Fprintf(w, "  messages answered/sent: %d/%d  lost %d  duplicated %d  (undelivered after all redeliveries %d; redeliveries %d; repeats absorbed by Feishu uuid %d)\n",
		r.MessagesAnswered, r.MessagesSent, r.MessagesLost, r.MessagesDuplicated, r.Undelivered, r.Redeliveries, r.AnswerRepeats)
	if r.LostToKill > 0 {
		fmt.Fprintf(w, "    %d of the lost were acknowledged by a replica SIGKILLed before it answered and were not taken over from the inbox (go run ./tools/soak -repro kill-while-answering)\n", r.LostToKill)
	}
	if r.MergedMessages > 0 {
		fmt.Fprintf(w, "  %d answers came merged in %d messages that reply to nothing (matched to the chat's unanswered messages)\n", r.MergedAnswers, r.MergedMessages)
	}
	fmt.Fprintf(w, "  answer latency from creation: %s\n", r.Latency.text())
	fmt.Fprintf(w, "    with no replica or Redis fault around: %s; over the %v budget + 1 s: %d\n", r.Calm.text(), answerBudget, r.CalmOverBudget)
	fmt.Fprintf(w, "    of them live-stock questions: %s\n", r.CalmStock.text())
}

// text is the latency as the report prints it.
func (l latency) text() string {
	return fmt.Sprintf("p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d answers)", l.P50*1000, l.P99*1000, l.Max*1000, l.N)
}

// writeAlerts prints the alerts' counts, per track too, and the polls.
func (r *report) writeAlerts(w io.Writer) {
	fmt.Fprintf(w, "  alerts sent/expected: %d/%d  (for expected transitions %d, lost %d, duplicated %d, not expected but sent %d, stray %d; repeats absorbed by uuid %d)\n",
		r.AlertsSent, r.AlertsExpected, r.AlertsForExpected, r.AlertsLost, r.AlertsDuplicated, r.AlertsExtra, r.AlertsStray, r.AlertRepeats)
	for _, t := range r.Tracks {
		fmt.Fprintf(w, "    %-16s transitions %2d, expected %2d, sent for expected %2d, lost %d, duplicated %d, not expected but sent %d\n",
			t.Track, t.Transitions, t.Expected, t.Sent, t.Lost, t.Duplicated, t.Extra)
	}
	fmt.Fprintf(w, "  stock transitions %d, polls %d ok / %d failed\n", r.Transitions, r.Polls, r.PollsFailed)
}

// writePlatforms prints what the fake platforms saw.
func (r *report) writePlatforms(w io.Writer) {
	for _, p := range r.Platforms {
		fmt.Fprintf(w, "  %s (%s): %d requests (%d fetch attempts), %d answered, by mode %v; down %d times for %.0f s; at most %d in flight at once, %d per replica process and endpoint\n",
			p.Name, p.Role, p.Requests, p.Fetches, p.Answered, p.ByMode, p.Outages, p.OutageSeconds, p.MaxInFlight, p.MaxPerReplica)
		if p.Unauthorized > 0 {
			fmt.Fprintf(w, "    %d requests without the API key\n", p.Unauthorized)
		}
	}
	if !r.SingleFlight {
		fmt.Fprintf(w, "  SINGLE-FLIGHT BROKEN: a replica process had two fetches of one platform in flight at once\n")
	}
}

// writeReady prints the /readyz probes.
func (r *report) writeReady(w io.Writer) {
	rz := r.Ready
	fmt.Fprintf(w, "  /readyz: %d probes, %d answered: p50 %.1f ms, p99 %.1f ms, max %.1f ms (over 100 ms %d, over 1 s %d); no answer: refused %d (replica down or starting), timeouts %d, errors %d\n",
		rz.Probes, rz.Answered, rz.P50, rz.P99, rz.Max, rz.Over100ms, rz.Over1s, rz.Refused, rz.Timeouts, rz.Errors)
	for _, k := range sortedKeys(rz.Statuses) {
		fmt.Fprintf(w, "    %5d × %s\n", rz.Statuses[k], k)
	}
}

// writeFaults prints the faults injected and the exits the soak did not
// cause.
func (r *report) writeFaults(w io.Writer) {
	fmt.Fprintf(w, "  faults: replica kills %d (of them restarted while Redis was down %d), Redis kills %d (SIGKILL %d, SHUTDOWN %d), Redis pauses %d\n",
		r.ReplicaKills, r.ReplicaRestartsRedisDown, r.RedisKills+r.RedisShutdowns, r.RedisKills, r.RedisShutdowns, r.RedisPauses)
	for _, e := range r.UnexpectedExits {
		fmt.Fprintf(w, "  exit the soak did not cause (restarted after 1 s, as a supervisor would): %s\n", e)
	}
}

// writeLists prints the notes: single-flight breaches, slow calm
// answers, lost and duplicated messages, alerts.
func (r *report) writeLists(w io.Writer) {
	for _, p := range r.Platforms {
		writeList(w, p.Name+" single-flight breaches", p.Overlaps)
	}
	writeList(w, "calm answers over the budget", r.SlowCalm)
	writeList(w, "lost messages", r.Lost)
	writeList(w, "duplicated answers", r.Duplicated)
	writeList(w, "alerts", r.AlertNotes)
	writeList(w, "alerts sent but not expected (allowed)", r.ExtraNotes)
}

// writeList prints a titled list, at most 20 of it; nothing when empty.
func writeList(w io.Writer, title string, xs []string) {
	if len(xs) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s:\n", title)
	for i, x := range xs {
		if i == 20 {
			fmt.Fprintf(w, "    … %d more\n", len(xs)-20)
			break
		}
		fmt.Fprintf(w, "    %s\n", x)
	}
}

// writeLogLines prints the replica log lines of note, counted, with two
// examples each.
func (r *report) writeLogLines(w io.Writer) {
	if len(r.LogCounts) == 0 {
		return
	}
	fmt.Fprintf(w, "  replica log lines of note:\n")
	for _, k := range sortedKeys(r.LogCounts) {
		fmt.Fprintf(w, "    %4d × %s\n", r.LogCounts[k], k)
		for _, n := range r.LogSamples[k][:min(2, len(r.LogSamples[k]))] {
			fmt.Fprintf(w, "         r%d %.300s\n", n.Replica, n.Line)
		}
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
