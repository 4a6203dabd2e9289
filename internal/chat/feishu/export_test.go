package feishu

// StopLease stops b renewing its inbox lease, as a process that died
// would, while its workers go on (tests: a replica SIGKILLed while it
// answers, its answer hanging).
func StopLease(b *Bot) { b.stopLease() }

// DropsPending is how many answered messages' inbox entries b still has
// to clear (their clear failed while the store was down).
func DropsPending(b *Bot) int {
	b.dropMu.Lock()
	defer b.dropMu.Unlock()
	return len(b.toDrop)
}
