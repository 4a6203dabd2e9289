package feishu

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
	"time"

	larkevent "github.com/larksuite/oapi-sdk-go/v3/event"
	larkim "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"

	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
	"github.com/labgpu/bot/internal/fixture"
)

// fixtureEvents are the recorded Feishu events (testdata/feishu).
func fixtureEvents() [][]byte {
	var out [][]byte
	for _, name := range []string{"event_im_message_receive_group_at_bot.json", "event_im_message_receive_p2p.json", "event_url_verification.json"} {
		if body, err := os.ReadFile(fixture.File(fixture.Feishu, name)); err == nil {
			out = append(out, body)
		}
	}
	return out
}

// wantMessage is what encoding/json and the SDK make of an event's
// plaintext: the event, or nil when it is not a received message.
func wantMessage(plain []byte) *larkim.P2MessageReceiveV1 {
	want := &larkim.P2MessageReceiveV1{}
	if json.Unmarshal(plain, want) != nil || want.EventV2Base == nil || want.EventV2Base.Header == nil ||
		want.EventV2Base.Header.EventType != msgReceiveType {
		return nil
	}
	return want
}

// FuzzDecodeMessage: decodeMessage (segmentio's decoder) takes an
// unencrypted body for the event encoding/json takes, and fills the same
// event; a body encoding/json refuses is refused.
func FuzzDecodeMessage(f *testing.F) {
	for _, body := range fixtureEvents() {
		f.Add(body)
	}
	f.Add([]byte(`{"header":{"event_type":"im.message.receive_v1","event_id":"e"},"event":{"message":{"mentions":[{"key":"@_user_1","id":{}}],"content":"{\"text\":\"\\u4f60\"}"}}}`))
	f.Add([]byte(`{"header":{"event_type":"im.message.receive_v1"},"event":{"message":null},"header":{"event_type":"x"}}`))
	b := &Bot{}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := b.decodeMessage(&larkevent.EventReq{Body: body})
		want := wantMessage(body)
		if want == nil {
			if got != nil {
				t.Fatalf("decoded %q, which encoding/json refuses", body)
			}
			return
		}
		if got == nil {
			t.Fatalf("refused %q, which encoding/json decodes", body)
		}
		got.EventReq = nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q decoded as\n%+v\nwant\n%+v", body, got.Event, want.Event)
		}
	})
}

// FuzzDecodeEnvelope: with an Encrypt Key, decodeMessage reads the
// envelope as the SDK's ParseReq does (encoding/json into
// larkevent.EventEncryptMsg) and decrypts and decodes what it holds to the
// same event.
func FuzzDecodeEnvelope(f *testing.F) {
	const key = "labbot-encrypt-key-0001"
	plains := append(fixtureEvents(), []byte(`{"header":{"event_type":"im.message.receive_v1","event_id":"e"},"event":{"message":{"message_id":"om_1"}}}`))
	for _, plain := range plains {
		body, _ := feishutest.Seal(plain, key, time.Unix(1718013600, 0))
		f.Add(body)
	}
	f.Add([]byte(`{"encrypt":""}`))
	f.Add([]byte(`{"encrypt":"\u0041QID","encrypt":"x"}`))
	b := &Bot{opts: Options{EncryptKey: key}}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := b.decodeMessage(&larkevent.EventReq{Body: body})
		var want *larkim.P2MessageReceiveV1
		var env larkevent.EventEncryptMsg
		if json.Unmarshal(body, &env) == nil && env.Encrypt != "" {
			if plain, err := larkevent.EventDecrypt(env.Encrypt, key); err == nil {
				want = wantMessage(plain)
			}
		}
		if got != nil {
			got.EventReq = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: decoded %+v, encoding/json and the SDK %+v", body, got, want)
		}
	})
}
