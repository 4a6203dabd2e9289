package estimateview

import (
	"encoding/json"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// AskSize asks back how large the model is: the question named none the
// catalog knows ("多少钱" alone), or one it does not know (ModelText,
// "不认识模型“Foo”") and no size. The JSON carries the question asked
// ("question").
type AskSize struct {
	ModelText string
	// Job is the name of a job the question trains or runs that neither
	// estimator knows ("训练一个Mamba": "mamba"; "" when none was read).
	Job  string
	Lang i18n.Lang
}

// EstimateFigures are none: nothing was estimated.
func (AskSize) EstimateFigures() Figures { return Figures{} }

// Question is what the bot asks.
func (a AskSize) Question() string {
	if a.ModelText != "" {
		return a.Lang.T("estimate.ask_size.named", a.ModelText)
	}
	if a.Job != "" {
		return a.Lang.T("estimate.ask_size.job", a.Job)
	}
	return a.Lang.T("estimate.ask_size.plain")
}

// Reply is the question alone.
func (a AskSize) Reply(*render.Renderer) chat.Reply { return chat.Reply{Title: a.Question()} }

// MarshalJSON is {"question": "…"}.
func (a AskSize) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Question string `json:"question"`
	}{a.Question()})
}

// TooManyGPUs refuses a job on more GPUs than one machine holds (Max):
// that is multi-node training, which the estimator does not cost.
type TooManyGPUs struct {
	Max  int       `json:"-"`
	Lang i18n.Lang `json:"-"`
}

// EstimateFigures are none: nothing was estimated.
func (TooManyGPUs) EstimateFigures() Figures { return Figures{} }

// Reply says so and how to ask for one machine.
func (t TooManyGPUs) Reply(*render.Renderer) chat.Reply {
	return chat.Reply{Title: t.Lang.T("estimate.too_many_gpus", t.Max)}
}

// Failed is an estimate the estimator refused for another reason (Err,
// its error's text).
type Failed struct {
	Err  string    `json:"-"`
	Lang i18n.Lang `json:"-"`
}

// EstimateFigures are none: nothing was estimated.
func (Failed) EstimateFigures() Figures { return Figures{} }

// Reply names the estimator's reason.
func (f Failed) Reply(*render.Renderer) chat.Reply {
	return chat.Reply{Title: f.Lang.T("estimate.failed", f.Err)}
}
