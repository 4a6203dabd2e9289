package feishu

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	larkevent "github.com/larksuite/oapi-sdk-go/v3/event"

	"github.com/labgpu/bot/internal/i18n"
)

// Why the callback refuses a request (the reason label of
// labgpu_callback_rejected_total).
const (
	RejectTimestamp    = "timestamp"     // X-Lark-Request-Timestamp stale or missing
	RejectToken        = "token"         // the verification token differs
	RejectSignature    = "signature"     // X-Lark-Signature does not match
	RejectEncryptKey   = "encrypt_key"   // the body does not decrypt with the Encrypt Key
	RejectNotEncrypted = "not_encrypted" // a plain body while an Encrypt Key is set
	RejectMalformed    = "malformed"     // not an event at all
)

// rejectCause is the likely cause of each reason, for the log and
// /readyz (the catalog's ops.reject: what to compare with what).
var rejectCause = map[string]string{RejectTimestamp: "ops.reject.timestamp", RejectToken: "ops.reject.token",
	RejectSignature: "ops.reject.signature", RejectEncryptKey: "ops.reject.encrypt_key",
	RejectNotEncrypted: "ops.reject.not_encrypted", RejectMalformed: "ops.reject.malformed"}

// causeOf is the likely cause of a refusal for reason, in words.
func causeOf(reason string) string { return i18n.EN.T(rejectCause[reason]) }

// Rejections are reported at most this often in the log; this many
// within rejectWindow, with no event accepted since, make the callback
// degraded.
const (
	rejectLogEvery = time.Minute
	rejectWindow   = 10 * time.Minute
	rejectDegraded = 3
)

// rejections counts the callback's refused requests by reason, and the
// streak since the last accepted event, for /readyz (Degraded), the
// metric and one log line a minute naming the likely cause.
type rejections struct {
	mu     sync.Mutex
	total  map[string]int64
	streak int
	first  time.Time // of the streak
	last   time.Time
	reason string // the last one's
	// logged is when the last log line went out; unlogged counts the
	// refusals since.
	logged   time.Time
	unlogged int
}

// note records a refusal of reason at now and logs it when a minute has
// passed since the last line.
func (rj *rejections) note(log *slog.Logger, now time.Time, reason, remote string) {
	rj.mu.Lock()
	defer rj.mu.Unlock()
	if rj.total == nil {
		rj.total = map[string]int64{}
	}
	rj.total[reason]++
	if rj.streak == 0 || now.Sub(rj.last) > rejectWindow {
		rj.streak, rj.first = 0, now
	}
	rj.streak++
	rj.last, rj.reason = now, reason
	rj.unlogged++
	if !rj.logged.IsZero() && now.Sub(rj.logged) < rejectLogEvery {
		return
	}
	attrs := []any{"reason", reason, "refused", rj.unlogged, "remote", remote}
	if !rj.logged.IsZero() {
		attrs = append(attrs, "since_last_line", now.Sub(rj.logged).Round(time.Second).String())
	}
	log.Warn("feishu callback: refusing events; likely cause: "+causeOf(reason), attrs...)
	rj.logged, rj.unlogged = now, 0
}

// accepted ends the streak: the callback takes events again.
func (rj *rejections) accepted() {
	rj.mu.Lock()
	rj.streak = 0
	rj.mu.Unlock()
}

// degraded is an error while the callback has refused rejectDegraded
// requests or more within rejectWindow of each other and accepted none
// since, naming the likely cause of the last.
func (rj *rejections) degraded(now time.Time) error {
	rj.mu.Lock()
	defer rj.mu.Unlock()
	if rj.streak < rejectDegraded || now.Sub(rj.last) > rejectWindow {
		return nil
	}
	return fmt.Errorf("the callback refused %d requests in %s and accepted none (last %s ago, %s); likely cause: %s",
		rj.streak, rj.last.Sub(rj.first).Round(time.Second), now.Sub(rj.last).Round(time.Second), rj.reason, causeOf(rj.reason))
}

// counts are the refusals by reason since start.
func (rj *rejections) counts() map[string]int64 {
	rj.mu.Lock()
	defer rj.mu.Unlock()
	out := make(map[string]int64, len(rj.total))
	for k, v := range rj.total {
		out[k] = v
	}
	return out
}

// Rejections are the callback's refused requests since start by reason
// (Reject*), for the labgpu_callback_rejected_total metric.
func (b *Bot) Rejections() map[string]int64 { return b.rejects.counts() }

// RejectReasons are the reasons Rejections counts, in order.
func RejectReasons() []string {
	out := make([]string, 0, len(rejectCause))
	for k := range rejectCause {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Degraded reports the callback refusing what reaches it (wrong token,
// signature, Encrypt Key, clock): the bot serves, but Feishu's events do
// not get in. It calls nobody.
func (b *Bot) Degraded() error {
	if b.opts.Mode != ModeWebhook {
		return nil
	}
	return b.rejects.degraded(b.opts.Now())
}

// rejected records a refused request of reason.
func (b *Bot) rejected(reason, remote string) {
	b.rejects.note(b.log, b.opts.Now(), reason, remote)
}

// eventDecrypt is the SDK's larkevent.EventDecrypt, which panics on a
// body encrypted with another key (its plaintext's last "}" before its
// first "{"): such a body is an error here, as anyone may post one.
func eventDecrypt(encrypt, key string) (plain []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			plain, err = nil, fmt.Errorf("decrypt: %v", r)
		}
	}()
	return larkevent.EventDecrypt(encrypt, key)
}

// sdkRejection is why the SDK's dispatcher refused body before any
// handler ran, worked out again from the body (refusals are rare, so the
// work is not saved): an unencrypted body while an Encrypt Key is set,
// one that does not decrypt, a url_verification with the wrong token, or
// (decrypted fine) a signature that does not match.
func (b *Bot) sdkRejection(body []byte) string {
	plain := body
	if b.opts.EncryptKey != "" {
		var env larkevent.EventEncryptMsg
		if json.Unmarshal(body, &env) != nil {
			return RejectMalformed
		}
		if env.Encrypt == "" {
			if b.plainTokenOK(body) {
				return RejectNotEncrypted
			}
			// Plain, and its token not ours either: the token is the
			// first thing to fix (the SDK said only "encrypted message
			// is blank").
			return RejectToken
		}
		p, err := eventDecrypt(env.Encrypt, b.opts.EncryptKey)
		if err != nil || !json.Valid(p) {
			return RejectEncryptKey
		}
		plain = p
	}
	switch {
	case !json.Valid(plain):
		return RejectMalformed
	case !b.plainTokenOK(plain):
		return RejectToken
	}
	return RejectSignature
}
