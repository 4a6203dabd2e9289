package fakes

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Testdata is the module's testdata/ directory (the recordings the fakes
// answer from), found from the working directory upwards.
func Testdata() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(b), "module github.com/labgpu/bot\n") {
			return filepath.Join(dir, "testdata"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the github.com/labgpu/bot module")
		}
		dir = parent
	}
}
