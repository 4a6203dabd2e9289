package feishu

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	larkevent "github.com/larksuite/oapi-sdk-go/v3/event"
	larkim "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"
)

// FuzzDecodeMessage: decodeMessage (segmentio's decoder) takes an
// unencrypted body for the event encoding/json takes, and fills the same
// event; a body encoding/json refuses is refused.
func FuzzDecodeMessage(f *testing.F) {
	for _, name := range []string{"event_im_message_receive_group_at_bot.json", "event_im_message_receive_p2p.json", "event_url_verification.json"} {
		body, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "shared", "fixtures", "feishu", name))
		if err != nil {
			f.Skipf("fixtures not found: %v", err)
		}
		f.Add(body)
	}
	f.Add([]byte(`{"header":{"event_type":"im.message.receive_v1","event_id":"e"},"event":{"message":{"mentions":[{"key":"@_user_1","id":{}}],"content":"{\"text\":\"\\u4f60\"}"}}}`))
	f.Add([]byte(`{"header":{"event_type":"im.message.receive_v1"},"event":{"message":null},"header":{"event_type":"x"}}`))
	b := &Bot{}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := b.decodeMessage(&larkevent.EventReq{Body: body})
		want := &larkim.P2MessageReceiveV1{}
		if json.Unmarshal(body, want) != nil || want.EventV2Base == nil || want.EventV2Base.Header == nil ||
			want.EventV2Base.Header.EventType != msgReceiveType {
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
