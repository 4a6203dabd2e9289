package stock

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/labgpu/bot/configs"
)

// APIWordsFile is the embedded file of the words the providers read in
// the platforms' answers.
const APIWordsFile = "apiwords.yaml"

// Words are what the stock providers read in the platforms' answers
// (configs/apiwords.yaml).
type Words struct {
	// Regions are the region names the consoles show, by platform id and
	// the region's sign or id in the API (lower case).
	Regions map[string]map[string]string `yaml:"regions"`
	// ExpiredToken are the words of an error message (lower case) that
	// say a platform's token expired, by platform id.
	ExpiredToken map[string][]string `yaml:"expired_token"`
}

// APIWords returns the embedded words, read once. A file that does not
// read (its test rules that out) gives no words and an error in the log:
// regions then keep their signs and errors their generic kind.
var APIWords = sync.OnceValue(func() Words {
	w, err := LoadAPIWords()
	if err != nil {
		slog.Error("stock: the platforms' words do not load", "file", APIWordsFile, "err", err)
	}
	return w
})

// LoadAPIWords reads configs/apiwords.yaml strictly.
func LoadAPIWords() (Words, error) {
	var w Words
	b, err := configs.FS.ReadFile(APIWordsFile)
	if err != nil {
		return w, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	err = dec.Decode(&w)
	return w, err
}

// KnownRegion is the console's name of a platform's region sign or id,
// and whether the words know it.
func KnownRegion(platform, region string) (string, bool) {
	n, ok := APIWords().Regions[platform][strings.ToLower(strings.TrimSpace(region))]
	return n, ok
}

// SaysTokenExpired reports whether a platform's error message says its
// token expired or is invalid.
func SaysTokenExpired(platform, msg string) bool {
	lm := strings.ToLower(msg)
	for _, w := range APIWords().ExpiredToken[platform] {
		if w != "" && strings.Contains(lm, w) {
			return true
		}
	}
	return false
}
