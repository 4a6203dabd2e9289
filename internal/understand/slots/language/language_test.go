package language

import (
	"regexp"
	"testing"
)

// reErrorLineSpec is the regexp errorLine implements.
var reErrorLineSpec = regexp.MustCompile(`^\s*(?:[\w.]+(?:error|exception|warning)\b|e:|error:|fatal:|ssh:|traceback)|\b(?:error|errno)\b.*:`)

func TestErrorLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"runtimeerror: cuda error: out of memory", true},
		{"cuda error: an illegal memory access was encountered", true},
		{"oserror: [errno 28] no space left on device: '/root'", true},
		{"[errno 28] no space left on device: '/root'", true},
		{"  file \"/root/train.py\", line 12, in <module>", false},
		{"error", false},
		{"the error is: x", true},
		{"errors: 3", false},
		{"myerror: x", true},
		{"terror: x", true}, // a name ending in "error", as "myerror"
		{"the terror: x", false},
		{"error_code: 3", false},
		{"errno", false},
		{"how do i fix this error", false},
		{"fatal: not a git repository", true},
		{"traceback (most recent call last):", true},
		{"err:", false},
		{"", false},
	} {
		if got := errorLine(tc.line); got != tc.want {
			t.Errorf("errorLine(%q) = %v, want %v", tc.line, got, tc.want)
		}
		if spec := reErrorLineSpec.MatchString(tc.line); spec != tc.want {
			t.Errorf("spec regexp on %q = %v, the table says %v", tc.line, spec, tc.want)
		}
	}
}

// FuzzErrorLine: errorLine agrees with the regexp it replaces.
func FuzzErrorLine(f *testing.F) {
	for _, s := range []string{"cuda error: oom", "error", "errno 2:", "x_error: y", "terror:", "[errno 28] no space: /", "错误error：", "error\n:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := errorLine(s), reErrorLineSpec.MatchString(s); got != want {
			t.Fatalf("errorLine(%q) = %v, regexp says %v", s, got, want)
		}
	})
}

// FuzzHasCJK: HasCJK agrees with \p{Han}.
func FuzzHasCJK(f *testing.F) {
	re := regexp.MustCompile(`\p{Han}`)
	for _, s := range []string{"4090", "哪家有4090", "ｘ", "〇", "\xe4\xb8", "한국어", "かな漢字"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := HasCJK(s), re.MatchString(s); got != want {
			t.Fatalf("HasCJK(%q) = %v, regexp says %v", s, got, want)
		}
	})
}

// FuzzChatEnglish: isChatEnglish agrees with the regexp it replaces.
func FuzzChatEnglish(f *testing.F) {
	re := regexp.MustCompile(`\b(?:i|i'm|im|i've|my|me|we|our|us|how|why|what|what's|whats|which|where|who|anyone|anybody|someone|please|pls|plz|need|want|wanna|thanks|thank|thx|ty|hi|hello|hey|much|many|cost|costs|price|prices|pricing|cheap|cheaper|cheapest|avail|rent|renting|notify|alert|alerts|subscribe|unsubscribe|subscriptions|mute|unmute|digest|storage|list|show|cancel|stop|enable|disable|turn|add|remove|register|resize|more|details|menu|really|heard|says|said|vs|versus|better|worth|enough|fit|estimate|should|can|could|does|would|help|any|anything|anyone|got|there|stock|legit|under|bucks|rn|tonight|today|when|usually)\b`)
	for _, s := range []string{"i'm", "what's", "price/hour", "pricey", "_my", "héllo", "how2", "cost-effective", "ty!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		if got, want := isChatEnglish(w), re.MatchString(w); got != want {
			t.Fatalf("isChatEnglish(%q) = %v, regexp says %v", w, got, want)
		}
	})
}

// FuzzWrittenOut: each regexp written out as a function agrees with it.
func FuzzWrittenOut(f *testing.F) {
	specs := []struct {
		re *regexp.Regexp
		fn func(string) bool
	}{
		{regexp.MustCompile(`[a-z]{2,}`), hasLatinWord},
		{regexp.MustCompile(`^\s*(?:[{\[$>#(|+@]|\w+@[\w.-]+:)`), logLine},
		{regexp.MustCompile(`^\s*(?:[\w.]+(?:error|exception|warning)\b|e:|error:|fatal:|ssh:|traceback)`), errorStart},
		{regexp.MustCompile(`\w[._]\w|\(\)|/\w+/|--\w|::|=`), codeToken},
	}
	for _, s := range []string{"  root@autodl-container-1:~# ls", "{'loss': 1.2}", "torch.cuda.OutOfMemoryError: x", "runtimeerror: cuda", "  e: x",
		"is_available()", "/root/autodl-tmp/", "--gpus", "a::b", "x=1", "xerror.y", "my_error_1", "u@h-.:", "ab", "a b", "\terror:", "Traceback"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i, sp := range specs {
			if got, want := sp.fn(s), sp.re.MatchString(s); got != want {
				t.Fatalf("check %d on %q = %v, regexp %s says %v", i, s, got, sp.re, want)
			}
		}
	})
}

// The answer's language: the asker's words decide it; a message without
// them (a bare paste, "4090?", "ok") leaves it to the conversation.
func TestAnswerLanguage(t *testing.T) {
	for _, tc := range []struct {
		text     string
		en, said bool
	}{
		{"3090 or 4090", true, true},
		{"rtx 3090 vs a100", true, true},
		{"version", true, true},
		{"chat id", true, true},
		{"torch.cuda.OutOfMemoryError on A100 40GB training llama2 13b full finetune", true, true},
		{"CUDA error: device-side assert triggered, any idea?", true, true},
		{"CUDA error: device-side assert triggered - what does this mean", true, true},
		{"loss is nan", true, true},
		{"jupyter won't open on autodl", true, true},
		{"cheapset 4090?", true, true},
		{"still not working", true, true},
		{"CUDA out of memory on 4090", true, true},
		{"OOM on 4090", true, true},
		{"NCCL timeout on 8 A100s", true, true},
		{"never mind", true, true},
		{"RuntimeError: CUDA error: out of memory on device cuda:0", false, false},
		{"CUDA error: device-side assert triggered", false, false},
		{"RuntimeError CUDA out of memory", false, false},
		{"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. Please use expandable segments if you have memory issues.", false, false},
		{"NameError: name 'x' is not defined. Did you mean: 'y'?", false, false},
		{"packet_write_wait: Connection to 1.2.3.4 port 22: Broken pipe", false, false},
		{"No such file or directory", false, false},
		{"cuda out of memory", false, false},
		{"4090?", false, false},
		{"13B?", false, false},
		{"ok", false, false},
		{"confirm", false, false},
		{"/help", false, false},
		{"3090够吗", false, true},
	} {
		en, said := AnswerLanguage(tc.text, false)
		if en != tc.en || said != tc.said {
			t.Errorf("AnswerLanguage(%q) = %v, %v; want %v, %v", tc.text, en, said, tc.en, tc.said)
		}
	}
}
