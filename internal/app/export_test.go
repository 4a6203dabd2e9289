package app

import "time"

// SetWeChatStandbyEvery shortens the standby replica's lock checks in tests.
func SetWeChatStandbyEvery(d time.Duration) (restore func()) {
	old := weChatStandbyEvery
	weChatStandbyEvery = d
	return func() { weChatStandbyEvery = old }
}
