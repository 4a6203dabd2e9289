package slots

// What the router's own intents read from a message
// (configs/slots/router.yaml): the storage admin commands and the small
// talk words.
var (
	adminBind     = NewExpr("router.admin_bind")
	adminList     = NewExpr("router.admin_list")
	adminUnbind   = NewExpr("router.admin_unbind")
	thanksWords   = NewWords("router.thanks")
	greetingWords = NewWords("router.greeting")
)
