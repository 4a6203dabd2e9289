package storetest

import (
	_ "embed"
	"encoding/json"
)

// textsJSON are the non-ASCII texts the suite stores (testdata/texts.json):
// Chinese names, regions and notes as the chats write them, and bytes
// with a NUL, which every store must give back as they were.
//
//go:embed testdata/texts.json
var textsJSON []byte

// text is the suite's text of key (testdata/texts.json); a key it lacks
// is a broken suite.
func text(key string) string {
	var m map[string]string
	if err := json.Unmarshal(textsJSON, &m); err != nil {
		panic("storetest: testdata/texts.json: " + err.Error())
	}
	v, ok := m[key]
	if !ok {
		panic("storetest: testdata/texts.json has no " + key)
	}
	return v
}
