package wechat

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/eatmoreapple/openwechat"
)

func TestRedactRemovesSessionCredentials(t *testing.T) {
	netErr := &url.Error{Op: "Get", URL: "https://webpush.wx2.qq.com/cgi-bin/mmwebwx-bin/synccheck?r=1&skey=%40crypt_skey&sid=sid-1&uin=1001&pass_ticket=pt-1",
		Err: context.DeadlineExceeded}
	cases := []struct {
		name string
		err  error
	}{
		{"url error", netErr},
		{"joined", errors.Join(errors.New("request failed"), netErr)},
		{"wrapped ret", errors.Join(openwechat.Ret(1101), netErr)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, got := range []string{redact(c.err).Error(), describe(c.err)} {
				for _, secret := range []string{"crypt_skey", "sid-1", "1001", "pt-1"} {
					if strings.Contains(got, secret) {
						t.Errorf("%q leaks %q", got, secret)
					}
				}
				if !strings.Contains(got, "webpush.wx2.qq.com/cgi-bin/mmwebwx-bin/synccheck?[redacted]") {
					t.Errorf("%q: the endpoint should stay visible", got)
				}
			}
			if !errors.Is(redact(c.err), context.DeadlineExceeded) {
				t.Error("redact hides the cause from errors.Is")
			}
		})
	}
	if redact(nil) != nil {
		t.Error("redact(nil) != nil")
	}
}
