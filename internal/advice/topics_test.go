package advice_test

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/advice"
)

// TestNamedTopicsExist: the topics the code names by id are in the
// knowledge base.
func TestNamedTopicsExist(t *testing.T) {
	b, err := advice.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{advice.TopicCardChoice, advice.TopicOOM} {
		if _, ok := b.Topic(id); !ok {
			t.Errorf("topic %q is named in the code but not in %s", id, advice.File)
		}
	}
}
