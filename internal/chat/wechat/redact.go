package wechat

import (
	"regexp"
	"strings"
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

// redactedError is an error whose text has its URLs' query strings
// removed; errors.Is and errors.As still see the original.
type redactedError struct{ err error }

func (e redactedError) Error() string { return redactText(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }

// redact wraps err so that its text carries no session credentials; nil
// stays nil.
func redact(err error) error {
	if err == nil {
		return nil
	}
	return redactedError{err}
}
