package archrules

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestNoChineseInGo: no string literal of a non-test Go file holds a
// Chinese character: what the bot says is in the message catalog
// (configs/messages), what it reads in the data files (configs/slots,
// configs/intents, the catalog).
func TestNoChineseInGo(t *testing.T) {
	got := chineseLiterals(t, filepath.Join("..", ".."))
	files := make([]string, 0, len(got))
	for f := range got {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		t.Errorf("%s: %d string literals with Chinese (say it through the message catalog, read it from a data file)", f, got[f])
	}
}

// chineseLiterals counts, per file (slash path from root), the string and
// rune literals of non-test Go files that hold a Han character or CJK
// punctuation.
func chineseLiterals(t *testing.T, root string) map[string]int {
	t.Helper()
	out := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if n := countChinese(src); n > 0 {
			out[filepath.ToSlash(rel)] = n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func countChinese(src []byte) int {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", fset.Base(), len(src)), src, nil, 0)
	n := 0
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return n
		}
		if tok != token.STRING && tok != token.CHAR {
			continue
		}
		if v, err := strconv.Unquote(lit); err == nil && hasChinese(v) {
			n++
		}
	}
}

func hasChinese(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef {
			return true
		}
	}
	return false
}

func TestCountChinese(t *testing.T) {
	src := []byte("package x\n// 注释不算\nvar a = \"中文\"\nvar b = `raw 中`\nvar c = \"ascii\"\nvar d = '（'\n")
	if n := countChinese(src); n != 3 {
		t.Errorf("countChinese = %d, want 3", n)
	}
}
