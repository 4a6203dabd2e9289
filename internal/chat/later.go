package chat

import "context"

// Later gives a newer answer to a message already answered from older
// data (a platform had not answered in time): it waits, within ctx, for
// the data the first answer lacked and answers again. ok is false when
// nothing newer came or the answer would read the same.
type Later func(ctx context.Context) (r Reply, ok bool)

// Updater is a Handler whose answers may be provisional. A channel that
// can edit a message it sent (Feishu's cards) calls HandleUpdatable and,
// when later is not nil, replaces the answer in place with later's; a
// channel that cannot (WeChat, the console, webhooks) calls Handle, and
// the first answer is the only one.
type Updater interface {
	HandleUpdatable(ctx context.Context, msg Message) (r Reply, later Later)
}
