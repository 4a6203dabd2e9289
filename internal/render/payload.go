package render

import "github.com/labgpu/bot/internal/chat"

// Payload is an answer's typed result: the figures and rows it found, in
// plain values, with the language to say them in. Render turns it into
// the reply — the short form, the 详情 behind it and what a card shows —
// so an answer decides what is true and render how it is said. Each
// intent's payload type and its Reply live in a file of this package
// named after the intent (version.go: Version), or of the area's
// render/<area>view subpackage (alertview, ledgerview, metaview).
type Payload interface {
	Reply(rd *Renderer) chat.Reply
}
