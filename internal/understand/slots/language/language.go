// Package language decides which language a message is in and the answer
// is to be in: Chinese characters, the English of a person writing to
// the bot, or a paste of program output that says nothing of the
// asker's language (the words in configs/slots/language.yaml). It
// imports nothing of package slots, which calls it.
package language

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// The words of the answer's language (configs/slots/language.yaml).
var (
	// reAskStart is a line of English prose ("how do I fix this").
	reAskStart = words.NewExpr("language.ask_start")
	// chatEnglish are the words people use when they write to the bot in
	// English (question words, pronouns, the bot's command words); error
	// messages and logs rarely have them. "i'm", "what's" and the like
	// count through their first word.
	chatEnglish = words.NewWords("language.chat_english")
	// questionMarks end a line that asks; colons make a line "name:
	// message".
	questionMarks = words.NewWords("language.question_marks")
	colons        = words.NewWords("language.colons")
	// clauseBreaks end the program's words on an error line and start the
	// asker's ("CUDA error: … triggered, any idea?", "… - what now").
	clauseBreaks = words.NewWords("language.clause_breaks")
	dashes       = words.NewWords("language.dashes")
	// leadIns open a last clause of the asker's on an error line when it
	// has one of clauseWords ("… reset by peer when downloading from
	// huggingface on a chinese platform").
	leadIns     = words.NewWords("language.lead_ins")
	clauseWords = words.NewWords("language.clause_words")
	// connectors join two things to choose from ("3090 or 4090"): a short
	// line of names and a connector is English.
	connectors = words.NewWords("language.connectors")
	// either are words people of both languages write alone ("ok",
	// "yes", "confirm"): such a message takes the conversation's language.
	either = words.NewWords("language.either")
	// proseWords make a lower-case line of three words or more the
	// asker's sentence ("loss is nan", "jupyter won't open"): programs
	// write theirs with a capital.
	proseWords = words.NewWords("language.prose_words")
	// reOnCard: a short line naming the card the asker ran on ("CUDA out
	// of memory on 4090").
	reOnCard = words.NewExpr("language.on_card")
)

// maxOnCardWords is the most words of a line that reOnCard makes the
// asker's: a program's long line may name a card too.
const maxOnCardWords = 8

// HasCJK reports whether s has a Chinese character (\p{Han}): a loop,
// because the regexp costs a µs per line of a long paste.
func HasCJK(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.Is(unicode.Han, r) {
			return true
		}
		i += n
	}
	return false
}

// isChatEnglish reports whether a word (folded, trimmed of punctuation)
// is or has one of chatEnglish as a run of letters and digits: "i'm",
// "price/hour".
func isChatEnglish(w string) bool {
	for i := 0; i < len(w); {
		if !isWordByte(w[i]) {
			i++
			continue
		}
		j := i
		for j < len(w) && isWordByte(w[j]) {
			j++
		}
		if chatEnglish.Has(w[i:j]) || swappedChatWord(w[i:j]) {
			return true
		}
		i = j
	}
	return false
}

// swappedChatWord reports whether a word of five letters or more is one
// of chatEnglish with two neighbouring letters swapped ("cheapset",
// "pirce"): the commonest typo.
func swappedChatWord(w string) bool {
	if len(w) < 5 {
		return false
	}
	b := []byte(w)
	for i := 0; i+1 < len(b); i++ {
		if b[i] == b[i+1] {
			continue
		}
		b[i], b[i+1] = b[i+1], b[i]
		ok := chatEnglish.Has(string(b))
		b[i], b[i+1] = b[i+1], b[i]
		if ok {
			return true
		}
	}
	return false
}

// containsOne reports whether s contains one of ws.
func containsOne(s string, ws []string) bool {
	for _, w := range ws {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// ErrorLine reports whether folded text reads as a line printed by a
// program's error ("RuntimeError: …", "error: …", "traceback").
func ErrorLine(folded string) bool { return errorLine(folded) }

// errorLine reports whether folded text begins as programs print errors
// (errorStart) or has the word "error" or "errno" with a colon after it on its line
// ("cuda error: out of memory", "[errno 28] no space left: …"). It is
// the regexp `\b(?:error|errno)\b.*:` written out, because unanchored
// that regexp costs tens of µs a line and a paste has fifty.
func errorLine(folded string) bool {
	if errorStart(folded) {
		return true
	}
	for from := 0; ; {
		i := strings.Index(folded[from:], "err")
		if i < 0 {
			return false
		}
		i += from
		from = i + 3
		if i > 0 && isWordByte(folded[i-1]) {
			continue
		}
		rest := folded[from:]
		var n int
		switch {
		case strings.HasPrefix(rest, "or"), strings.HasPrefix(rest, "no"):
			n = 2
		default:
			continue
		}
		end := from + n
		if end < len(folded) && isWordByte(folded[end]) {
			continue
		}
		rest = folded[end:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[:nl]
		}
		if strings.IndexByte(rest, ':') >= 0 {
			return true
		}
	}
}

// isWordByte is regexp's \w: an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// AnswerEnglish decides the answer's language: Chinese when the message
// has Chinese characters; English when a line is English chat (it has
// words people use with the bot, or is a sentence of six plain words or
// more) and not program output — in a paste (a message with an error or
// log line) only a line with the asker's words counts; otherwise, for a
// bare paste or a bare error ("Killed", "CUDA out of memroy"), the chat's
// language.
func AnswerEnglish(text string, chatEnglish bool) bool {
	en, _ := AnswerLanguage(text, chatEnglish)
	return en
}

// AnswerLanguage is AnswerEnglish, and whether the text itself says the
// language (false: a bare paste, "4090?", "/help", which take the chat's
// or the thread's).
func AnswerLanguage(text string, chatEnglish bool) (en, said bool) {
	folded := catalog.Fold(text)
	if HasCJK(folded) {
		return false, true
	}
	if !hasLatinWord(folded) {
		return chatEnglish, false
	}
	if t := strings.TrimSpace(folded); strings.HasPrefix(t, "/") && len(strings.Fields(t)) <= 2 {
		// "/help" is a command, not English.
		return chatEnglish, false
	}
	if eitherOnly(folded) {
		return chatEnglish, false
	}
	lines := strings.Split(folded, "\n")
	// Each line is classified once: a paste has fifty.
	program := make([]bool, len(lines))
	paste := false
	for i, line := range lines {
		// A paste is told by its lines as written; a program's line by
		// the line trimmed of every kind of space (U+2003 too).
		paste = paste || logLine(line) || errorLine(line)
		t := strings.TrimSpace(line)
		program[i] = t == "" || logLine(t) || errorLine(t) && !reAskStart.MatchString(t)
	}
	for i, line := range strings.Split(text, "\n") {
		k := min(i, len(lines)-1)
		if program[k] {
			if errorLine(lines[k]) && (askedAfterError(lines[k]) || askedBeforeError(line, lines[k])) {
				return true, true
			}
			continue
		}
		if paste && proseLine(line, lines[k]) || !paste && (EnglishChatLine(lines[k]) || lowerProse(line, lines[k]) || onCardLine(lines[k])) {
			return true, true
		}
	}
	return chatEnglish, false
}

// EnglishPaste reports whether text is a paste of a program's English
// output and nothing of the asker's in another language: no Chinese, a
// Latin word, and a line as programs print errors or logs ("RuntimeError:
// …", "[rank0]: …", "$ nvidia-smi"). Such a paste says nothing of the
// asker's language (AnswerEnglish gives the chat's); a chat whose language
// is "auto" answers it in English.
func EnglishPaste(text string) bool {
	folded := catalog.Fold(text)
	if HasCJK(folded) || !hasLatinWord(folded) {
		return false
	}
	for _, line := range strings.Split(folded, "\n") {
		if logLine(line) || errorLine(line) {
			return true
		}
	}
	return false
}

// onCardLine reports whether a folded line is a short one of the
// asker's naming the card it ran on ("oom on 4090", "nccl timeout on 8
// a100s").
func onCardLine(folded string) bool {
	n := len(strings.Fields(folded))
	return n >= 2 && n <= maxOnCardWords && hasPlainWord(folded) && reOnCard.MatchString(folded)
}

// askedAfterError reports whether an error line (folded) carries the
// asker's own English: words after the error's name with no colon
// ("torch.cuda.OutOfMemoryError on A100 40GB training llama2 13b full
// finetune": no program prints that), or a last clause of the asker's
// after a break ("CUDA error: device-side assert triggered, any idea?",
// "… - what does it mean"): a question with a word people use with the
// bot, or a sentence of its own.
func askedAfterError(folded string) bool {
	t := strings.TrimSpace(folded)
	if rest, ok := afterErrorName(t); ok && !errorLine(rest) && EnglishChatLine(rest) {
		return true
	}
	if askedInClause(t) {
		return true
	}
	asks := words.EndsWithAny(t, questionMarks.List())
	cut := -1
	for _, b := range clauseBreaks.List() {
		if !asks && !dashes.Has(strings.TrimSpace(b)) {
			continue // a program's sentences end in ". ", never in "?"
		}
		if i := strings.LastIndex(t, b); i >= 0 && i+len(b) > cut {
			cut = i + len(b)
		}
	}
	if cut < 0 || cut >= len(t) {
		return false
	}
	last := strings.TrimSpace(t[cut:])
	if !asks {
		return reAskStart.MatchString(last) || EnglishChatLine(last)
	}
	plain, chat := plainWords(last)
	return reAskStart.MatchString(last) || plain >= 2 && chat
}

// askedInClause reports whether an error line (folded, trimmed) ends
// with a clause of the asker's that a lead-in opens: after it, three plain
// words or more, one of them the asker's or where they run, and no colon.
func askedInClause(t string) bool {
	for _, b := range leadIns.List() {
		i := strings.LastIndex(t, b)
		if i < 0 || containsOne(t[i+len(b):], colons.List()) {
			continue
		}
		rest := t[i+len(b):]
		plain, _ := plainWords(rest)
		if plain >= 3 && slices.ContainsFunc(strings.Fields(rest), func(w string) bool { return clauseWords.Has(strings.Trim(w, ".,!?;\"'()[]")) }) {
			return true
		}
	}
	return false
}

// askedBeforeError reports whether an error line (as written, and
// folded) opens with the asker's own English before the error it quotes
// ("torchrun with 2 GPUs dies with this: torch.distributed…Error: …",
// "pip on autodl keeps timing out: ERROR: …"): a lower-case lead of
// three plain words or more, then a colon and a line that starts as
// programs print errors.
func askedBeforeError(line, folded string) bool {
	line = strings.TrimSpace(line)
	if line == "" || line[0] < 'a' || line[0] > 'z' {
		return false
	}
	t := strings.TrimSpace(folded)
	i := strings.Index(t, ": ")
	if i <= 0 || !errorStart(t[i+2:]) || errorStart(t[:i]) {
		return false
	}
	plain, _ := plainWords(t[:i])
	return plain >= 3 && hasPlainWord(t[:i])
}

// afterErrorName is the rest of a line that opens with an error's name
// ("outofmemoryerror", "torch.cuda.outofmemoryerror") followed by a space,
// not the colon programs print after it.
func afterErrorName(t string) (string, bool) {
	n := 0
	for n < len(t) && (isWordByte(t[n]) || t[n] == '.') {
		n++
	}
	if n == 0 || n == len(t) || !isSpace(t[n]) {
		return "", false
	}
	name := t[:n]
	for _, kw := range []string{"error", "exception"} {
		if len(name) > len(kw) && strings.HasSuffix(name, kw) {
			return t[n:], true
		}
	}
	return "", false
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
	if line == "" {
		return false
	}
	if reAskStart.MatchString(folded) || words.EndsWithAny(line, questionMarks.List()) {
		return true
	}
	if line[0] < 'a' || line[0] > 'z' || containsOne(line, colons.List()) {
		return false
	}
	plain, _ := plainWords(folded)
	return plain >= 3
}

// EnglishChatLine reports whether a folded line is English written to the
// bot rather than program output.
func EnglishChatLine(line string) bool {
	line = strings.TrimSpace(line)
	plain, chat := plainWords(line)
	return chat || plain >= 6 || plain >= 2 && words.EndsWithAny(line, questionMarks.List()) && hasPlainWord(line) ||
		choiceLine(line)
}

// eitherOnly reports whether folded text is only words of either
// language ("ok", "yes!", "confirm").
func eitherOnly(folded string) bool {
	fields := strings.Fields(folded)
	for _, w := range fields {
		if !either.Has(strings.Trim(w, ".,!?;:\"'()[]~")) {
			return false
		}
	}
	return len(fields) > 0
}

// lowerProse reports whether a line (as written, and folded) is a
// lower-case sentence of the asker's: it starts with a lower-case
// letter, has three plain words or more and one of proseWords ("loss is
// nan", "jupyter won't open") and no "name: message" colon; "cuda out of
// memory" typed bare stays the chat's.
func lowerProse(line, folded string) bool {
	line = strings.TrimSpace(line)
	if line == "" || line[0] < 'a' || line[0] > 'z' || containsOne(line, colons.List()) {
		return false // "packet_write_wait: Connection … Broken pipe" is the program's
	}
	plain, _ := plainWords(folded)
	if plain < 3 {
		return false
	}
	for _, w := range strings.Fields(folded) {
		if codeToken(w) {
			continue
		}
		for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r > 127 || !isWordByte(byte(r)) }) {
			if proseWords.Has(part) {
				return true
			}
		}
	}
	return false
}

// choiceLine reports whether a folded line is names joined by a connector
// ("3090 or 4090", "rtx 3090 or 4090"): at most five words, at most one
// plain word besides the connectors.
func choiceLine(line string) bool {
	fields := strings.Fields(line)
	if len(fields) < 3 || len(fields) > 5 {
		return false
	}
	joined, others := 0, 0
	for _, w := range fields {
		w = strings.Trim(w, ".,!?;:\"'()[]")
		switch {
		case connectors.Has(w):
			joined++
		case hasLatinWord(w) && !codeToken(w):
			others++
		}
	}
	return joined > 0 && others <= 1
}

// hasPlainWord reports whether a folded line has a word of letters only
// (three or more: "anywhere", not "a100" or "80g"): a question of card
// names alone ("A100 80G?") is no English sentence.
func hasPlainWord(folded string) bool {
	for _, w := range strings.Fields(folded) {
		w = strings.Trim(w, ".,!?;:\"'()[]")
		for _, m := range questionMarks.List() {
			w = strings.TrimSuffix(w, m)
		}
		if len(w) < 3 || codeToken(w) {
			continue
		}
		letters := true
		for i := 0; i < len(w); i++ {
			letters = letters && (w[i] >= 'a' && w[i] <= 'z')
		}
		if letters {
			return true
		}
	}
	return false
}

// plainWords counts a folded line's English words that are not code
// ("torch.cuda", "--gpus") and reports whether one is a word people use
// with the bot.
func plainWords(folded string) (plain int, chat bool) {
	for _, w := range strings.Fields(folded) {
		if codeToken(w) {
			continue
		}
		w = strings.Trim(w, ".,!?;:\"'()[]")
		if w == "i" || strings.ContainsRune(w, '\'') && chatEnglish.Has(w) {
			// "I already use fp16": the one English word of one letter;
			// "I'm on CUDA 12.1", "it's on a 5090": a contraction of one.
			plain++
			chat = true
			continue
		}
		if !hasLatinWord(w) {
			continue
		}
		plain++
		chat = chat || isChatEnglish(w)
	}
	return plain, chat
}

// The line and word checks below are regexps written out (each is fuzzed
// against its regexp in language_test.go): a paste runs them on fifty
// lines and hundreds of words, and Go's regexp costs a few hundred ns a
// call even when anchored.

// isSpace is regexp's \s: an ASCII space, tab or line break.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// skipSpace is s without its leading \s.
func skipSpace(s string) string {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:]
}

// hasLatinWord is `[a-z]{2,}`: two lowercase ASCII letters in a row.
func hasLatinWord(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			if run++; run >= 2 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// logLine is `^\s*(?:[{\[$>#(|+@]|\w+@[\w.-]+:)`: a line as logs and
// shells print them — a dict, a bracketed prefix, a prompt, user@host:.
func logLine(s string) bool {
	t := skipSpace(s)
	if t == "" {
		return false
	}
	if t[0] == '$' && len(t) > 1 && t[1] >= '0' && t[1] <= '9' {
		return false // "$200 a month": a dollar amount, not a prompt
	}
	if strings.IndexByte("{[$>#(|+@", t[0]) >= 0 {
		return true
	}
	i := 0
	for i < len(t) && isWordByte(t[i]) {
		i++
	}
	if i == 0 || i == len(t) || t[i] != '@' {
		return false
	}
	j := i + 1
	for j < len(t) && (isWordByte(t[j]) || t[j] == '.' || t[j] == '-') {
		j++
	}
	return j > i+1 && j < len(t) && t[j] == ':'
}

// errorStart is `^\s*(?:[\w.]+(?:error|exception|warning)\b|e:|error:|fatal:|ssh:|traceback)`:
// a line that begins as programs print errors.
func errorStart(s string) bool {
	t := skipSpace(s)
	for _, p := range []string{"e:", "error:", "fatal:", "ssh:", "traceback"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	n := 0
	for n < len(t) && (isWordByte(t[n]) || t[n] == '.') {
		n++
	}
	for _, kw := range []string{"error", "exception", "warning"} {
		for i := 1; i+len(kw) <= n; i++ {
			if end := i + len(kw); t[i:end] == kw && (end == len(t) || !isWordByte(t[end])) {
				return true
			}
		}
	}
	return false
}

// codeToken is `\w[._]\w|\(\)|/\w+/|--\w|::|=`: a token only code has
// ("torch.cuda", "is_available()", "/root/autodl-tmp", "--gpus").
func codeToken(w string) bool {
	if strings.Contains(w, "()") || strings.Contains(w, "::") || strings.IndexByte(w, '=') >= 0 {
		return true
	}
	for i := 0; i+2 < len(w); i++ {
		if (w[i+1] == '.' || w[i+1] == '_') && isWordByte(w[i]) && isWordByte(w[i+2]) ||
			w[i] == '-' && w[i+1] == '-' && isWordByte(w[i+2]) {
			return true
		}
	}
	for i := 0; i < len(w); i++ {
		if w[i] != '/' {
			continue
		}
		j := i + 1
		for j < len(w) && isWordByte(w[j]) {
			j++
		}
		if j > i+1 && j < len(w) && w[j] == '/' {
			return true
		}
	}
	return false
}
