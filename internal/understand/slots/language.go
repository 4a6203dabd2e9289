package slots

import (
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/textgate"
)

var (
	ReCJK = textgate.MustCompile(`\p{Han}`)
	// reLatin is an English word of two letters or more.
	reLatin = textgate.MustCompile(`[a-z]{2,}`)
	// reChatEnglish are the words people use when they write to the bot in
	// English (question words, pronouns, the bot's command words); error
	// messages and logs rarely have them.
	reChatEnglish = textgate.MustCompile(`\b(?:i|i'm|im|i've|my|me|we|our|us|how|why|what|what's|whats|which|where|who|anyone|anybody|someone|please|pls|plz|need|want|wanna|thanks|thank|thx|ty|hi|hello|hey|much|many|cost|costs|price|prices|pricing|cheap|cheaper|cheapest|avail|rent|renting|notify|alert|alerts|subscribe|unsubscribe|subscriptions|mute|unmute|digest|storage|list|show|cancel|stop|enable|disable|turn|add|remove|register|resize|more|details|menu|really|heard|says|said|vs|versus|better|worth|enough|fit|estimate|should|can|could|does|would|help|any|anything|anyone|got|there|stock|legit|under|bucks|rn|tonight|today|when|usually)\b`)
	// reLogLine is a line as logs and shells print them: a dict, a
	// bracketed prefix, a prompt.
	reLogLine = textgate.MustCompile(`^\s*[{\[$>#(|+@]|^\s*\w+@[\w.-]+:`)
	// reErrorLine is a line as programs print errors.
	reErrorLine = textgate.MustCompile(`^\s*(?:[\w.]+(?:error|exception|warning)\b|e:|error:|fatal:|ssh:|traceback)|\b(?:error|errno)\b.*:`)
	// reCodeToken is a token only code has: "torch.cuda", "is_available()",
	// "/root/autodl-tmp", "--gpus".
	reCodeToken = textgate.MustCompile(`\w[._]\w|\(\)|/\w+/|--\w|::|=`)
	// reAskStart is a line of English prose ("how do I fix this").
	reAskStart = textgate.MustCompile(`^\s*(?:how|why|what|which|help|my|i|i'm|we|please|should|can|could|does|is there|anyone|any idea|got|getting|when|after)\b`)
)

// ErrorLine reports whether folded text reads as a line printed by a
// program's error ("RuntimeError: …", "error: …", "traceback").
func ErrorLine(folded string) bool { return reErrorLine.MatchString(folded) }

// AnswerEnglish decides the answer's language: Chinese when the message
// has Chinese characters; English when a line is English chat (it has
// words people use with the bot, or is a sentence of six plain words or
// more) and not program output — in a paste (a message with an error or
// log line) only a line with the asker's words counts; otherwise, for a
// bare paste or a bare error ("Killed", "CUDA out of memroy"), the chat's
// language.
func AnswerEnglish(text string, chatEnglish bool) bool {
	folded := catalog.Fold(text)
	if ReCJK.MatchString(folded) {
		return false
	}
	if !reLatin.MatchString(folded) {
		return chatEnglish
	}
	if t := strings.TrimSpace(folded); strings.HasPrefix(t, "/") && len(strings.Fields(t)) <= 2 {
		// "/help" is a command, not English.
		return chatEnglish
	}
	lines := strings.Split(folded, "\n")
	paste := false
	for _, line := range lines {
		if reErrorLine.MatchString(line) || reLogLine.MatchString(line) {
			paste = true
		}
	}
	for i, line := range strings.Split(text, "\n") {
		if paste && proseLine(line, lines[min(i, len(lines)-1)]) || !paste && englishChatLine(lines[min(i, len(lines)-1)]) {
			return true
		}
	}
	return chatEnglish
}

// proseLine reports whether a line of a paste (as written, and folded)
// is the asker's own English: it starts like a question ("any idea",
// "getting this …") or ends with a question mark, or it is a lower-case
// sentence of three words or more without a "name: message" colon ("still
// not working after restart"). A paste's other lines ("CUDA kernel errors
// might be asynchronously reported …", "You should consider upgrading")
// are the program's: programs write sentences with a capital.
func proseLine(line, folded string) bool {
	line, folded = strings.TrimSpace(line), strings.TrimSpace(folded)
	if programLine(folded) {
		return false
	}
	if reAskStart.MatchString(folded) || strings.HasSuffix(line, "?") || strings.HasSuffix(line, "？") {
		return true
	}
	if line[0] < 'a' || line[0] > 'z' || strings.ContainsAny(line, ":：") {
		return false
	}
	plain, _ := plainWords(folded)
	return plain >= 3
}

// englishChatLine reports whether a folded line is English written to the
// bot rather than program output.
func englishChatLine(line string) bool {
	line = strings.TrimSpace(line)
	if programLine(line) {
		return false
	}
	plain, chat := plainWords(line)
	return chat || plain >= 6
}

// programLine reports whether a folded line is empty or printed by a
// program (a log line, or an error line that is not a question).
func programLine(folded string) bool {
	return folded == "" || reLogLine.MatchString(folded) || reErrorLine.MatchString(folded) && !reAskStart.MatchString(folded)
}

// plainWords counts a folded line's English words that are not code
// ("torch.cuda", "--gpus") and reports whether one is a word people use
// with the bot.
func plainWords(folded string) (plain int, chat bool) {
	for _, w := range strings.Fields(folded) {
		if reCodeToken.MatchString(w) {
			continue
		}
		w = strings.Trim(w, ".,!?;:\"'()[]")
		if !reLatin.MatchString(w) {
			continue
		}
		plain++
		chat = chat || reChatEnglish.MatchString(w)
	}
	return plain, chat
}
