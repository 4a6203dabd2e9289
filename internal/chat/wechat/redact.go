package wechat

import (
	"regexp"
	"strings"

	"github.com/labgpu/bot/internal/chat"
)

// queryRE matches a URL's query string. openwechat's network errors
// (*url.Error) quote the whole request URL, whose query carries the
// session's credentials (skey, sid, uin, pass_ticket): they are removed
// before an error is logged or returned.
var queryRE = regexp.MustCompile(`(https?://[^\s?"']+)\?[^\s"']*`)

// redactText removes the query strings of the URLs in s.
func redactText(s string) string {
	if !strings.Contains(s, "?") {
		return s
	}
	return queryRE.ReplaceAllString(s, "$1?[redacted]")
}

// redact wraps err so that its text carries no session credentials
// (chat.Redact); nil stays nil.
func redact(err error) error { return chat.Redact(err, redactText) }
