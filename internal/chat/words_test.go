package chat

import "testing"

func TestWordsLoad(t *testing.T) {
	w, err := LoadWords()
	if err != nil {
		t.Fatal(err)
	}
	if w.FeishuEveryone == "" || len(w.WeChatEveryone) == 0 || len(w.ConsoleExit) == 0 || len(w.WeChatWebRefused) == 0 || w.WeChatQuote.Open == "" || w.WeChatQuote.Rule == "" {
		t.Errorf("a list is empty: %+v", w)
	}
	if got := ReadWords(); got.FeishuEveryone != w.FeishuEveryone {
		t.Errorf("ReadWords = %+v", got)
	}
}
