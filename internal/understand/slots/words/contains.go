package words

import "strings"

// ContainsAny reports whether s contains one of kws. A keyword that starts
// or ends with an ASCII letter must not be glued to further letters there
// ("oom" is not in "room", "train" is not in "trainee").
func ContainsAny(s string, kws []string) bool {
	for _, k := range kws {
		for from := 0; from < len(s); {
			i := strings.Index(s[from:], k)
			if i < 0 {
				break
			}
			i += from
			end := i + len(k)
			okStart := i == 0 || !isASCIILetter(k[0]) || !isASCIILetter(s[i-1])
			okEnd := end == len(s) || !isASCIILetter(k[len(k)-1]) || !isASCIILetter(s[end]) || strings.HasSuffix(k, "train") || strings.HasSuffix(k, "tune")
			if okStart && okEnd {
				return true
			}
			from = i + 1
		}
	}
	return false
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// EndsWithAny reports whether s ends with one of ws.
func EndsWithAny(s string, ws []string) bool {
	for _, w := range ws {
		if strings.HasSuffix(s, w) {
			return true
		}
	}
	return false
}

// Submatches are the texts of s at a FindStringSubmatchIndex result loc:
// one per group, "" for a group that did not take part.
func Submatches(s string, loc []int) []string {
	m := make([]string, len(loc)/2)
	for i := range m {
		if loc[2*i] >= 0 {
			m[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return m
}
