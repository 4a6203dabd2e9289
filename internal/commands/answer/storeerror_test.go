package answer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
)

// TestStoreError: a store that cannot be reached gets the plain
// "unavailable, try again" answer in the asker's language; another
// failure keeps a short cause.
func TestStoreError(t *testing.T) {
	_, dialErr := net.Dial("tcp", "127.0.0.1:1") // nothing listens on port 1
	if dialErr == nil {
		t.Skip("something listens on 127.0.0.1:1")
	}
	cases := []struct {
		err  error
		en   bool
		want string
	}{
		{fmt.Errorf("redis store: add subscription: %w", dialErr), false, "存储暂时连不上"},
		{fmt.Errorf("redis store: subscriptions: %w", context.DeadlineExceeded), true, "store is unreachable"},
		{errors.New("embedded store: subscription too large"), false, "存储出错，这次没有完成：embedded store"},
	}
	for _, c := range cases {
		r := StoreError(c.en, c.err).Reply(nil)
		if !strings.Contains(r.Title, c.want) {
			t.Errorf("%v: %q, want %q", c.err, r.Title, c.want)
		}
	}
}
