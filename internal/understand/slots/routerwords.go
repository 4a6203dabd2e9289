package slots

import "github.com/labgpu/bot/internal/understand/slots/words"

// What the router's own intents read from a message
// (configs/slots/router.yaml): the storage admin commands and the small
// talk words.
var (
	adminBind     = words.NewExpr("router.admin_bind")
	adminList     = words.NewExpr("router.admin_list")
	adminUnbind   = words.NewExpr("router.admin_unbind")
	thanksWords   = words.NewWords("router.thanks")
	greetingWords = words.NewWords("router.greeting")
)
