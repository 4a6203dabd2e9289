package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// soakPhrases are the words the soak says and the words of the bot's
// answers it looks for (phrases.json, read once at start).
type soakPhrases struct {
	// Questions are the traffic: what lab members ask, in turn.
	Questions []string `json:"questions"`
	// LiveStock are words of a question answered from live stock
	// ("哪家有4090"): such an answer waits for the platforms at most the
	// answer budget.
	LiveStock []string `json:"live_stock"`
	// Subscribe follows a track's ask in a subscription
	// ("AutoDL 4090 有货了提醒我"); Subscribed is in the bot's confirmation.
	Subscribe  string `json:"subscribe"`
	Subscribed string `json:"subscribed"`
	// NotAnAnswer are the placeholder texts a "查询中…" card is replaced
	// with when it does not become the answer (the first is the interim
	// card's own).
	NotAnAnswer []string `json:"not_an_answer"`
	// Merged follow the count in the title of a message that merges N
	// answers ("N 条回复（同时问的人多，合并成一条）"), one per language.
	Merged []string `json:"merged"`
	// ReproQuestion is the stock question -repro kill-while-answering
	// asks; Late are the words of an answer naming a platform late.
	ReproQuestion string   `json:"repro_question"`
	Late          []string `json:"late"`
}

//go:embed phrases.json
var phrasesJSON []byte

// phrases is phrases.json, read once.
var phrases = func() (p soakPhrases) {
	err := json.Unmarshal(phrasesJSON, &p)
	if err == nil && (len(p.Questions) == 0 || len(p.LiveStock) == 0 || p.Subscribe == "" || p.Subscribed == "" ||
		len(p.NotAnAnswer) == 0 || len(p.Merged) == 0 || p.ReproQuestion == "" || len(p.Late) == 0) {
		err = fmt.Errorf("a phrase list is empty")
	}
	if err != nil {
		panic(fmt.Sprintf("soak: phrases.json: %v", err)) // embedded: a broken file fails every run and test
	}
	return p
}()

// mergedTitle matches the title of a message merging N answers; its
// group 1 is N.
var mergedTitle = func() *regexp.Regexp {
	alts := make([]string, len(phrases.Merged))
	for i, m := range phrases.Merged {
		alts[i] = regexp.QuoteMeta(m)
	}
	return regexp.MustCompile(`(\d+) (?:` + strings.Join(alts, "|") + `)`)
}()
