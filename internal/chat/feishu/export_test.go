package feishu

// StopLease stops b renewing its inbox lease, as a process that died
// would, while its workers go on (tests: a replica SIGKILLed while it
// answers, its answer hanging).
func StopLease(b *Bot) { b.stopLease() }
