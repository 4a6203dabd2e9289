package wechat

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/eatmoreapple/openwechat"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// contactCache maps names to the per-session UserNames of one session,
// from this package's own webwxgetcontact calls (openwechat's Self caches
// are not safe to read outside its sync goroutine) and from the group
// messages seen.
type contactCache struct {
	s       *session
	fetched bool
	// groups: group NickName → UserNames (several when names clash).
	groups map[string][]string
	// remarks: RemarkName → UserNames of friends: a private chat's key
	// (identity.go). Nicknames key nothing.
	remarks map[string][]string
	// learned: group NickName → UserName of groups that sent the bot a
	// message in this session (so that even a group not saved to contacts
	// gets its alerts while the session lasts).
	learned map[string]string
}

// cacheFor returns the session's cache; the caller holds b.mu.
func (b *Bot) cacheFor(s *session) *contactCache {
	if b.contacts == nil || b.contacts.s != s {
		b.contacts = &contactCache{s: s, learned: map[string]string{}}
	}
	return b.contacts
}

// learnGroup remembers the UserName of a group that sent a message.
func (b *Bot) learnGroup(s *session, name, userName string) {
	if name == "" || userName == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cacheFor(s).learned[name] = userName
}

// fetchContacts loads the account's contacts through openwechat's Caller
// (webwxgetcontact, all pages) and indexes them.
func (b *Bot) fetchContacts(ctx context.Context, s *session) (groups, remarks map[string][]string, err error) {
	members, err := s.ow.Caller.WebWxGetContact(ctx, s.loginInfo)
	if err != nil {
		return nil, nil, fmt.Errorf("wechat: list contacts: %s", describe(err))
	}
	groups, remarks = map[string][]string{}, map[string][]string{}
	for _, u := range members {
		if u == nil || u.UserName == "" {
			continue
		}
		switch {
		case u.IsGroup():
			if n := strings.TrimSpace(openwechat.FormatEmoji(u.NickName)); n != "" {
				groups[n] = appendUniq(groups[n], u.UserName)
			}
		case u.IsFriend():
			if n := strings.TrimSpace(openwechat.FormatEmoji(u.RemarkName)); n != "" {
				remarks[n] = appendUniq(remarks[n], u.UserName)
			}
		}
	}
	return groups, remarks, nil
}

func appendUniq(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// lookup finds name among groups (group true, by NickName) or friends (by
// remark name, never a nickname) in the session's cache, fetching the
// contacts when they were never fetched, and once more when the name is
// not found.
func (b *Bot) lookup(ctx context.Context, s *session, name string, group bool) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", errors.New("wechat: empty chat name")
	}
	find := func(c *contactCache) (string, bool, error) {
		m := c.remarks
		if group {
			m = c.groups
		}
		switch ids := m[name]; len(ids) {
		case 0:
		case 1:
			return ids[0], true, nil
		default:
			if group {
				return "", true, fmt.Errorf("wechat: %d groups are named %q; rename one so that messages reach the right chat", len(ids), name)
			}
			return "", true, fmt.Errorf("%w: %d friends have the remark name %q; give each a remark of their own", errFriendAmbiguous, len(ids), name)
		}
		if group {
			if id, ok := c.learned[name]; ok {
				return id, true, nil
			}
		}
		return "", false, nil
	}
	// b.mu is not held while fetching, so that the message handler is
	// never blocked by a slow webwxgetcontact.
	b.mu.Lock()
	c := b.cacheFor(s)
	if c.fetched {
		if id, ok, err := find(c); ok {
			b.mu.Unlock()
			return id, err
		}
	}
	b.mu.Unlock()

	groups, remarks, err := b.fetchContacts(ctx, s)
	if err != nil {
		return "", err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	c = b.cacheFor(s)
	c.fetched, c.groups, c.remarks = true, groups, remarks
	if id, ok, err := find(c); ok {
		return id, err
	}
	if group {
		return "", fmt.Errorf("%w: %s", ErrGroupNotFound, i18n.EN.T("wechat.group_not_saved", name))
	}
	return "", fmt.Errorf("%w: no friend with the remark name %q among the account's contacts", errFriendNotFound, name)
}

// SendToGroup posts r as plain text to the group named groupName (its
// NickName, as in Options.Groups), with "@name\u2005" for each of
// mentions and r.Mentions (nicknames, the SenderIDs of chat.Message) at
// the start, shown by the member's group display name when there is one. The group is
// looked up among the account's contacts (refreshed once when it is not
// found) and among the groups that messaged the bot in this session. The
// web protocol lists only groups saved to contacts (保存到通讯录); when the
// group is not found the error (wrapping ErrGroupNotFound) says so.
//
// The reply is split under Options.MaxRunes and sent at the chat's rate
// limit, retrying when WeChat says messages are too frequent.
func (b *Bot) SendToGroup(ctx context.Context, groupName string, r chat.Reply, mentions ...string) error {
	parts, err := b.groupParts(ctx, groupName, r, mentions)
	if err != nil {
		return err
	}
	if err := b.out().SendParts(ctx, groupName, parts, chat.SendOptions{}); err != nil {
		return err
	}
	b.log.Info("wechat: posted to group", "group", groupName, "parts", len(parts))
	return nil
}

// groupParts renders r for the group named groupName, with mentions and
// r.Mentions (nicknames) as "@display name" at the start.
func (b *Bot) groupParts(ctx context.Context, groupName string, r chat.Reply, mentions []string) ([]chat.Part, error) {
	s, to, err := b.resolve(ctx, groupName, true, r)
	if err != nil || to == "" {
		return nil, err
	}
	all := append(append([]string{}, mentions...), r.Mentions...)
	if len(all) > 0 {
		all = b.displayNames(ctx, s, to, all)
	}
	parts := textParts(s, to, renderParts(r, mentionPrefix(all), b.opts.MaxRunes))
	return append(parts, b.chartPart(s, to, r.Chart)...), nil
}

// displayNames maps SenderIDs (nicknames, or "remark:<备注>" strong ids:
// identity.go) to the members' display names in the group (群昵称), which
// is what WeChat shows and what members recognise in an "@name". It asks
// webwxbatchgetcontact for the group's members, and finds a strong id's
// member through the friend with that remark (same UserName in this
// session); names it cannot map, or a failed request, show as the
// nickname or remark name.
func (b *Bot) displayNames(ctx context.Context, s *session, groupUserName string, ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = nameOfID(id)
	}
	res, err := s.ow.Caller.WebWxBatchGetContact(ctx, openwechat.Members{{UserName: groupUserName}}, s.baseRequest)
	if err != nil || len(res) == 0 || res[0] == nil {
		b.log.Debug("wechat: cannot read the group's members for @mentions; using nicknames", "err", redact(err))
		return out
	}
	disp := map[string]string{}   // NickName → display name
	byUser := map[string]string{} // UserName → display name or NickName
	for _, m := range res[0].MemberList {
		if m == nil {
			continue
		}
		n, d := openwechat.FormatEmoji(m.NickName), openwechat.FormatEmoji(m.DisplayName)
		byUser[m.UserName] = firstNonEmpty(d, n)
		if _, dup := disp[n]; dup {
			disp[n] = "" // two members with one nickname: keep the nickname
			continue
		}
		disp[n] = d
	}
	for i, id := range ids {
		if remark, ok := strings.CutPrefix(id, RemarkIDPrefix); ok {
			if u := b.remarkUserName(ctx, s, remark); u != "" && strings.TrimSpace(byUser[u]) != "" {
				out[i] = byUser[u]
			}
			continue
		}
		if d := disp[out[i]]; strings.TrimSpace(d) != "" {
			out[i] = d
		}
	}
	return out
}

// remarkUserName is this session's UserName of the one friend with that
// remark name; "" when none or several.
func (b *Bot) remarkUserName(ctx context.Context, s *session, remark string) string {
	find := func() (string, bool) {
		b.mu.Lock()
		defer b.mu.Unlock()
		c := b.cacheFor(s)
		if !c.fetched {
			return "", false
		}
		switch ids := c.remarks[remark]; len(ids) {
		case 0:
			return "", false
		case 1:
			return ids[0], true
		}
		return "", true // several friends share it: nobody
	}
	if u, ok := find(); ok {
		return u
	}
	// lookup fetches the contacts (once more when the name is unknown).
	if _, err := b.lookup(ctx, s, remark, false); err != nil && !errors.Is(err, errFriendNotFound) {
		b.log.Debug("wechat: cannot resolve a member for an @mention", "err", err)
	}
	u, _ := find()
	return u
}

// SendToFriend posts r as plain text to the one friend whose RemarkName
// (备注, set by the bot's account) is remark; never by a nickname, which
// anyone can take (identity.go).
func (b *Bot) SendToFriend(ctx context.Context, remark string, r chat.Reply) error {
	parts, err := b.friendParts(ctx, remark, r)
	if err != nil {
		return err
	}
	if err := b.out().SendParts(ctx, privateChatID(remark), parts, chat.SendOptions{}); err != nil {
		return err
	}
	b.log.Info("wechat: posted to friend", "friend", remark, "parts", len(parts))
	return nil
}

// resolve finds the UserName of the group (or friend) called name in the
// current session; to is "" (and err nil) for an empty reply.
func (b *Bot) resolve(ctx context.Context, name string, group bool, r chat.Reply) (s *session, to string, err error) {
	s = b.current()
	if err := s.alive(); err != nil {
		return nil, "", err
	}
	if r.Empty() {
		return s, "", nil
	}
	to, err = b.lookup(ctx, s, name, group)
	return s, to, err
}

// friendParts renders r for the friend whose unique remark name is name.
func (b *Bot) friendParts(ctx context.Context, name string, r chat.Reply) ([]chat.Part, error) {
	s, to, err := b.resolve(ctx, name, false, r)
	if err != nil || to == "" {
		return nil, err
	}
	parts := textParts(s, to, renderParts(r, "", b.opts.MaxRunes))
	return append(parts, b.chartPart(s, to, r.Chart)...), nil
}

// Name is "wechat" (chat.Channel).
func (b *Bot) Name() string { return "wechat" }

// Send posts r to the chat with the given ChatID (as in chat.Message)
// through the channel's outbox: "remark:<备注>" the friend with that
// unique remark name, "group:<name>" or a bare name the group of that name
// (a bare name that names no group: the friend with that unique remark, a
// key from before private chats had a prefix; one naming both is
// refused); r.Mentions are used in groups only. WeChat has no idempotency
// keys: the outbox's own record keeps a keyed Send from posting a part
// twice.
func (b *Bot) Send(ctx context.Context, chatID string, r chat.Reply, o chat.SendOptions) error {
	return b.out().Send(ctx, chatID, r, o)
}

// errFriendNotFound is wrapped by SendToFriend's error when no friend has
// that remark name; errFriendAmbiguous when several have it.
var (
	errFriendNotFound  = errors.New("wechat: friend not found")
	errFriendAmbiguous = errors.New("wechat: remark name not unique")
)

// remarkCount is how many friends have the remark name, by the session's
// cached contacts (0 when they were never fetched).
func (b *Bot) remarkCount(s *session, remark string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.cacheFor(s)
	if !c.fetched {
		return 0
	}
	return len(c.remarks[strings.TrimSpace(remark)])
}
