package slots

import "github.com/labgpu/bot/internal/understand/slots/words"

// What a message asks that the bot does not do (Query.OutOfScope).
const (
	// ScopeCode: write or debug code ("帮我写个pytorch的dataloader").
	ScopeCode = "code"
	// ScopeText: write, polish or translate text ("帮我润色一下论文摘要").
	ScopeText = "text"
	// ScopeAct: act on a platform for the member ("帮我在AutoDL上开一台
	// 4090").
	ScopeAct = "act"
	// ScopePay: pay or top up on a platform ("帮我往AutoDL充500块").
	ScopePay = "pay"
	// ScopeOperate: operate the member's instance (shut it down,
	// restart, delete it: "帮我把AutoDL上那台实例关了").
	ScopeOperate = "operate"
	// ScopeLLMAPI: a language-model API's price ("GPT-4o 的 API 多少钱").
	ScopeLLMAPI = "llm_api"
	// ScopeImage: draw an image ("给我生成一张猫猫的图片").
	ScopeImage = "image"
	// ScopeAccount: look into a member's account on a platform (its
	// balance or bills).
	ScopeAccount = "account"
	// ScopeEmail: send answers or the digest anywhere but this chat.
	ScopeEmail = "email"
	// ScopeWipe: delete files or data on a platform's instance or disk.
	ScopeWipe = "wipe"
)

// The out-of-scope words (configs/slots/scope.yaml), in the order tried.
var (
	scopeKinds = []struct {
		kind string
		expr *words.Expr
	}{
		{ScopeWipe, words.NewExpr("scope.wipe")}, {ScopeAccount, words.NewExpr("scope.account")}, {ScopeEmail, words.NewExpr("scope.email")},
		{ScopePay, words.NewExpr("scope.pay")}, {ScopeOperate, words.NewExpr("scope.operate")}, {ScopeAct, words.NewExpr("scope.act")}, {ScopeLLMAPI, words.NewExpr("scope.llm_api")},
		{ScopeCode, words.NewExpr("scope.code")}, {ScopeText, words.NewExpr("scope.text")}, {ScopeImage, words.NewExpr("scope.image")},
	}
	scopeDomainAsk = words.NewExpr("scope.domain_ask")
)

// ScopeSlots reads what the message asks that the bot does not do into
// Query.OutOfScope ("" when nothing), from the question part (a paste's
// log lines ask nothing).
func (x *Extraction) ScopeSlots() { x.q.OutOfScope = ReadScope(x.s) }

// ReadScope is what folded text asks that the bot does not do: ScopeAct,
// ScopeLLMAPI, ScopeCode, ScopeText or ScopeImage; "" when it asks none,
// or when a code, text or image request also asks what something costs
// or which card it needs (a question the bot answers).
func ReadScope(s string) string {
	for _, k := range scopeKinds {
		if !k.expr.MatchString(s) {
			continue
		}
		if (k.kind == ScopeCode || k.kind == ScopeText || k.kind == ScopeImage) && scopeDomainAsk.MatchString(s) {
			return ""
		}
		return k.kind
	}
	return ""
}
