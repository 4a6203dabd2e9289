package commands

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
)

// ConsoleOwner is the sender id of the console and the command line.
const ConsoleOwner = render.ConsoleOwner

// MaxSubscriptionsPerMember caps one member's subscriptions in one chat.
const MaxSubscriptionsPerMember = 20

// WithAlerts enables the subscription commands over the given stores, with
// the policy whose cooldown the replies mention.
func WithAlerts(subs stock.SubscriptionStore, log stock.AlertStore, p stock.Policy) Option {
	return func(r *Router) { r.subs, r.alerts, r.policy = subs, log, p }
}

func (r *Router) alertsOff(res *Result) bool {
	if r.subs != nil && r.alerts != nil {
		return false
	}
	res.Reply = chat.Reply{Title: answer.Pick(res.English, "这个入口没有开启库存提醒。", "Stock alerts are not enabled here.")}
	return true
}

// subscribeAnswer handles "4090 有货了提醒我".
func (r *Router) subscribeAnswer(ctx context.Context, res *Result) {
	q := res.Query
	en := q.English
	if r.alertsOff(res) {
		return
	}
	if len(q.GPUs) == 0 {
		askWhichGPU(res)
		return
	}
	msg := res.msg
	sub := stock.Subscription{Channel: msg.Channel, ChatID: msg.ChatID, OwnerID: msg.SenderID, OwnerName: msg.SenderName,
		GPUs: q.GPUs, Platforms: q.Platforms, ExcludePlatforms: q.ExcludePlatforms, MaxPriceCNY: q.MaxPriceCNY, MinFree: q.MinFree, Region: q.Region, English: en, CreatedAt: r.now()}
	sub.ID = newID()
	var same *stock.Subscription
	mine := 0
	// The check runs in the store's write (AddSubscriptionIf), so the
	// same message sent twice at once, or to two replicas, adds one.
	check := func(all []stock.Subscription) error {
		same, mine = nil, 0
		for _, s := range all {
			if s.ChatKey() != sub.ChatKey() || s.OwnerID != sub.OwnerID {
				continue
			}
			mine++
			if sameConditions(s, sub) {
				same = &s
				return errSubscribed
			}
		}
		if mine >= MaxSubscriptionsPerMember {
			return errTooManySubscriptions
		}
		return nil
	}
	switch err := r.addSubscription(ctx, sub, check); {
	case errors.Is(err, errSubscribed):
		res.Subscription = same
		res.Reply = chat.Reply{Title: answer.Pick(en, "已经订阅过了：", "Already subscribed: ") + r.rd.Describe(*same, en)}
		return
	case errors.Is(err, errTooManySubscriptions):
		res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "你在这个群已有 %d 个订阅（上限 %d），先“取消订阅”一些吧。", "You have %d subscriptions here (the limit is %d); cancel some first."), mine, MaxSubscriptionsPerMember)}
		return
	case err != nil:
		res.Reply = storeError(en, err)
		return
	}
	res.Subscription = &sub
	rep := chat.Reply{Title: answer.Pick(en, "已订阅：", "Subscribed: ") + r.rd.Describe(sub, en)}
	rep.Lines = append(rep.Lines, answer.ProblemLines(q, en)...)
	// Say where stock stands now; if it is already available, record that
	// as announced so the first poll does not repeat this reply.
	now := r.now()
	obs := stock.NewIndex(r.offers.Snapshot(ctx)).Observe(sub)
	switch obs.State {
	case stock.InStock:
		// The answer says the stock is there, as alert 1 would: claim
		// alert 1 first, so a poll deciding this subscription at the same
		// moment finds it sent (and records it); when that poll claimed it
		// first, its alert is the news and the answer points to it.
		claimed, err := r.alerts.ClaimAlert(ctx, stock.AlertClaimKey(sub.ID, 1), max(24*time.Hour, r.policy.Cooldown))
		if err == nil && !claimed {
			rep.Lines = append(rep.Lines, answer.Pick(en, "符合条件的卡有货，提醒马上发到本群。", "It is in stock; the alert is on its way to this chat."))
			break
		}
		o := obs.List()[0]
		age := answer.Pick(en, "时间未知", "time unknown")
		if !o.ObservedAt.IsZero() {
			age = render.Age(now.Sub(o.ObservedAt), en)
		}
		head := answer.Pick(en, "现在就有：%s %s %s，空闲 %s（%s · %s）。", "Available now: %s %s %s, free %s (%s · %s).")
		if o.Source != stock.SourceLive {
			head = answer.Pick(en, "录制回放里有（不代表现在）：%s %s %s，空闲 %s（%s · %s）。", "In a replayed recording (not current): %s %s %s, free %s (%s · %s).")
		}
		rep.Lines = append(rep.Lines, fmt.Sprintf(head, r.rd.PlatformName(o.Platform, en), o.GPU, r.rd.PriceText(o, en), render.FreeText(o, en), render.SourceLabel(string(o.Source), en), age))
		rep.Notes = append(rep.Notes, r.rd.Legend([]OfferRow{render.RowOf(o)}, en)...)
		rec := stock.NotifyRecord{SubscriptionID: sub.ID, Observed: stock.InStock, Streak: 1, Active: true, NotifiedAt: now, NotifiedPrice: obs.BestPrice(), Seq: 1}
		if err == nil {
			err = r.alerts.PutNotifyRecords(ctx, []stock.NotifyRecord{rec})
		}
		if err != nil {
			rep.Notes = append(rep.Notes, storeError(en, err).Title)
		}
	case stock.SoldOut:
		rep.Lines = append(rep.Lines, answer.Pick(en, "现在没有符合条件的空闲卡；一有就通知你。", "Nothing matches right now; you will hear when something does."))
		if w := r.availabilityAnswers().SubscribeLine(sub.GPUs, sub.Platforms, en); w != "" {
			rep.Lines = append(rep.Lines, w)
		}
	default:
		rep.Lines = append(rep.Lines, answer.Pick(en, "现在还判断不了（没有够新的实时数据，或数据里看不出价格、地区或张数）；判断不了时不会乱报，等有实时数据再提醒。",
			"Cannot tell yet (no recent live data, or the data does not show the price, region or count asked); nothing is sent until live data can tell."))
		if w := r.availabilityAnswers().SubscribeLine(sub.GPUs, sub.Platforms, en); w != "" {
			rep.Lines = append(rep.Lines, w)
		}
	}
	card := strings.TrimPrefix(strings.TrimPrefix(sub.GPUs[0], "RTX "), "GTX ")
	rep.Notes = append(rep.Notes, fmt.Sprintf(answer.Pick(en, "有货或降价时在本群 @你；同一个订阅 %s内最多提醒一次。“我的订阅”查看，“取消订阅 %s”取消，“静音 2小时”暂停本群提醒。",
		"You are @mentioned here when it is available or cheaper, at most once per %s per subscription. “my subscriptions” lists them, “unsubscribe %s” cancels, “mute 2h” pauses alerts in this chat."),
		durationText(r.policy.Cooldown, en), card))
	rep.Mentions = []string{msg.SenderID}
	res.Reply = rep
}

// What a subscription's check refuses (subscribeAnswer).
var (
	errSubscribed           = errors.New("the member has this subscription already")
	errTooManySubscriptions = errors.New("the member has the most subscriptions allowed")
)

// subscriptionAdder adds a subscription only when a check of the stored
// ones passes, in one step (both stores: AddSubscriptionIf).
type subscriptionAdder interface {
	AddSubscriptionIf(ctx context.Context, sub stock.Subscription, check func([]stock.Subscription) error) error
}

// addSubscription adds sub when check passes on the stored
// subscriptions: in one step when the store can (subscriptionAdder),
// else read, check, add.
func (r *Router) addSubscription(ctx context.Context, sub stock.Subscription, check func([]stock.Subscription) error) error {
	if a, ok := r.subs.(subscriptionAdder); ok {
		return a.AddSubscriptionIf(ctx, sub, check)
	}
	all, err := r.subs.Subscriptions(ctx)
	if err != nil {
		return err
	}
	if err := check(all); err != nil {
		return err
	}
	return r.subs.AddSubscription(ctx, sub)
}

// askWhichGPU asks which card a subscription is for (or says the one
// named is not in the catalog).
func askWhichGPU(res *Result) {
	en := res.English
	if res.UnknownGPU != "" {
		res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "目录里没有“%s”这张卡，没法订阅。", "The catalog has no GPU “%s” to subscribe to."), res.UnknownGPU)}
	} else {
		res.Reply = chat.Reply{Title: answer.Pick(en, "订阅哪张卡？例如“4090 有货了提醒我”或“AutoDL 3090 低于1.5元通知我”。", "Which GPU? e.g. “notify me when a 4090 is under 2.5 yuan”.")}
	}
	res.Question = res.Reply.Title
}

// unsubscribeAnswer handles "取消订阅 4090", "unsubscribe all", "取消订阅 2".
func (r *Router) unsubscribeAnswer(ctx context.Context, res *Result) {
	q := res.Query
	en := q.English
	mine, ok := r.mySubscriptions(ctx, res)
	if !ok {
		return
	}
	var drop []stock.Subscription
	switch {
	case q.All:
		drop = mine
	case q.SubRef != "":
		if n, err := strconv.Atoi(q.SubRef); err == nil && n >= 1 && n <= len(mine) {
			drop = mine[n-1 : n]
		}
		for _, s := range mine {
			if s.ID == q.SubRef {
				drop = []stock.Subscription{s}
			}
		}
	case len(q.GPUs) > 0:
		for _, s := range mine {
			if overlaps(s.GPUs, q.GPUs) && (len(q.Platforms) == 0 || overlaps(s.Platforms, q.Platforms)) {
				drop = append(drop, s)
			}
		}
	default:
		res.Reply = chat.Reply{Title: answer.Pick(en, "取消哪个订阅？说“取消订阅 4090”、“取消订阅 1”（“我的订阅”里的编号）或“取消全部订阅”。",
			"Cancel which one? Say “unsubscribe 4090”, “unsubscribe 1” (its number in “my subscriptions”) or “unsubscribe all”.")}
		res.Question = res.Reply.Title
		return
	}
	if len(drop) == 0 {
		res.Reply = chat.Reply{Title: answer.Pick(en, "没有找到符合的订阅。", "No matching subscription.")}
		if len(mine) > 0 {
			res.Reply.Lines = subLines(r, mine, en)
		}
		return
	}
	for _, s := range drop {
		if err := r.subs.RemoveSubscription(ctx, s.ID); err != nil {
			res.Reply = storeError(en, err)
			return
		}
		if err := r.alerts.DeleteNotifyRecord(ctx, s.ID); err != nil {
			res.Reply = storeError(en, err)
			return
		}
	}
	rep := chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "已取消 %d 个订阅：", "Cancelled %d subscriptions:"), len(drop))}
	rep.Lines = subLines(r, drop, en)
	res.Reply = rep
}

// subscriptionsAnswer handles "我的订阅".
func (r *Router) subscriptionsAnswer(ctx context.Context, res *Result) {
	en := res.English
	mine, ok := r.mySubscriptions(ctx, res)
	if !ok {
		return
	}
	res.Subscriptions = mine
	if len(mine) == 0 {
		res.Reply = chat.Reply{Title: answer.Pick(en, "你在这个群还没有订阅。例如说“4090 有货了提醒我”。", "You have no subscriptions here. Try “notify me when a 4090 is free”.")}
		return
	}
	rep := chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "你在这个群的 %d 个订阅：", "Your %d subscriptions here:"), len(mine))}
	rep.Lines = subLines(r, mine, en)
	if until, err := r.alerts.MutedUntil(ctx, res.msg.Channel+"/"+res.msg.ChatID); err == nil && r.now().Before(until) {
		rep.Notes = append(rep.Notes, fmt.Sprintf(answer.Pick(en, "本群提醒静音到 %s。", "Alerts in this chat are muted until %s."), r.rd.Clock.Minute(until)))
	}
	rep.Notes = append(rep.Notes, answer.Pick(en, "“取消订阅 1”按编号取消。", "“unsubscribe 1” cancels by number."))
	res.Reply = rep
}

// muteAnswer handles "静音 2小时" and "取消静音".
func (r *Router) muteAnswer(ctx context.Context, res *Result) {
	q := res.Query
	en := q.English
	if r.alertsOff(res) {
		return
	}
	key := res.msg.Channel + "/" + res.msg.ChatID
	var until time.Time
	switch {
	case q.MuteUntil != "":
		until = understand.MuteEnd(r.now(), r.loc(), q.MuteUntil, q.MuteTomorrow)
		q.MuteMinutes = int(until.Sub(r.now()).Round(time.Minute).Minutes())
		if q.MuteMinutes > 7*24*60 {
			q.MuteMinutes = 7 * 24 * 60
			until = r.now().Add(7 * 24 * time.Hour)
		}
		res.Query.MuteMinutes = q.MuteMinutes
	case q.MuteMinutes > 0:
		until = r.now().Add(time.Duration(q.MuteMinutes) * time.Minute)
	}
	if err := r.alerts.SetMute(ctx, key, until); err != nil {
		res.Reply = storeError(en, err)
		return
	}
	rep := chat.Reply{}
	if until.IsZero() {
		rep.Title = answer.Pick(en, "已恢复本群的库存提醒。", "Alerts are back on in this chat.")
	} else {
		rep.Title = fmt.Sprintf(answer.Pick(en, "本群库存提醒静音到 %s（%s）。期间有货不会提醒，结束后如果还有货会补发一次。", "Alerts in this chat are muted until %s (%s). Stock that is still there afterwards is announced once then."),
			r.rd.Clock.Minute(until), durationText(time.Duration(q.MuteMinutes)*time.Minute, en))
	}
	rep.Lines = append(rep.Lines, answer.ProblemLines(q, en)...)
	res.Reply = rep
}

func (r *Router) loc() *time.Location { return r.rd.Clock.Location() }

// mySubscriptions lists the sender's subscriptions in this chat, oldest
// first. Other members' and other chats' are never shown. When alerts
// are off or the store fails, it answers so and reports false.
func (r *Router) mySubscriptions(ctx context.Context, res *Result) ([]stock.Subscription, bool) {
	if r.alertsOff(res) {
		return nil, false
	}
	all, err := r.subs.Subscriptions(ctx)
	if err != nil {
		res.Reply = storeError(res.English, err)
		return nil, false
	}
	msg := res.msg
	var mine []stock.Subscription
	for _, s := range all {
		if s.Channel == msg.Channel && s.ChatID == msg.ChatID && s.OwnerID == msg.SenderID {
			mine = append(mine, s)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool { return mine[i].CreatedAt.Before(mine[j].CreatedAt) })
	return mine, true
}

func subLines(r *Router, subs []stock.Subscription, en bool) []string {
	var out []string
	for i, s := range subs {
		out = append(out, fmt.Sprintf("%d. %s", i+1, r.rd.Describe(s, en)))
	}
	return out
}

func sameConditions(a, b stock.Subscription) bool {
	return strings.Join(a.GPUs, ",") == strings.Join(b.GPUs, ",") && strings.Join(a.Platforms, ",") == strings.Join(b.Platforms, ",") &&
		strings.Join(a.ExcludePlatforms, ",") == strings.Join(b.ExcludePlatforms, ",") &&
		a.MaxPriceCNY == b.MaxPriceCNY && a.MinFreeOrDefault() == b.MinFreeOrDefault() && strings.EqualFold(a.Region, b.Region)
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// storeError is the answer of a command whose store call failed. When the
// store cannot be reached (Redis down or stalled) it says so plainly and
// that the rest still works; other failures keep a short cause.
func storeError(en bool, err error) chat.Reply {
	if storeUnreachable(err) {
		return chat.Reply{
			Title: answer.Pick(en, "存储暂时连不上，这次没能完成，请过一两分钟再试。", "The bot's store is unreachable right now, so this was not done; try again in a minute or two."),
			Lines: []string{answer.Pick(en, "查卡、价格、估算和报错诊断照常可用。", "Stock, prices, estimates and error help still work.")},
		}
	}
	return chat.Reply{Title: answer.Pick(en, "存储出错，这次没有完成：", "Storage error, this was not done: ") + shortErr(err.Error())}
}

// storeUnreachable reports an error of a store that did not answer: a
// timeout, a refused or reset connection, a closed pool.
func storeUnreachable(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "connection refused") || strings.Contains(s, "i/o timeout") || strings.Contains(s, "client is closed") ||
		strings.Contains(s, "connection pool timeout")
}

func newID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "s-" + hex.EncodeToString(b)
}

func durationText(d time.Duration, en bool) string {
	switch {
	case d >= 24*time.Hour && d%(24*time.Hour) == 0:
		return fmt.Sprintf(answer.Pick(en, "%d 天", "%d days"), int(d.Hours()/24))
	case d >= time.Hour && d%time.Hour == 0:
		return fmt.Sprintf(answer.Pick(en, "%d 小时", "%d h"), int(d.Hours()))
	case d >= time.Hour:
		return fmt.Sprintf(answer.Pick(en, "%d 小时 %d 分钟", "%d h %d min"), int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf(answer.Pick(en, "%d 分钟", "%d min"), int(d.Minutes()))
	}
	return fmt.Sprintf(answer.Pick(en, "%d 秒", "%d s"), int(d.Seconds()))
}

func shortErr(s string) string {
	if len([]rune(s)) > 80 {
		return string([]rune(s)[:80]) + "…"
	}
	return s
}
