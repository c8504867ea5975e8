package grammar_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// TestBuildStamp: the cgo wrappers parser.c and scanner.c carry the digest of
// the generated sources they include. Go's build cache does not follow
// #include, so a stale digest means tests and binaries may run an old parser.
func TestBuildStamp(t *testing.T) {
	h := sha256.New()
	for _, f := range []string{"src/parser.c", "src/scanner.c", "src/tree_sitter/alloc.h", "src/tree_sitter/array.h", "src/tree_sitter/parser.h"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(data)
	}
	want := "// src sha256 " + hex.EncodeToString(h.Sum(nil)) + "\n"
	for _, f := range []string{"parser.c", "scanner.c"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), want) {
			t.Errorf("%s does not carry the digest of src/ (%q); run grammar/generate.sh", f, strings.TrimSpace(want))
		}
	}
}
