package grammar_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/cudaperf/cudaperf/grammar"
)

// FuzzParse: parsing arbitrary bytes never crashes, and what the package
// derives from the tree (error list, printed tree) stays within the input.
//
//	go test ./grammar -run '^$' -fuzz FuzzParse -fuzztime 60s
func FuzzParse(f *testing.F) {
	for _, path := range corpusFiles(f) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{"", "k<<<", ">>>", "<<<1,2>>>(", "__global__", "#pragma unroll\n", "asm volatile(\"\" ::: );", "\x00\xff\xfe", "R\"x(", "extern __shared__"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		tree, err := grammar.Parse(context.Background(), src)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		defer tree.Close()
		root := tree.RootNode()
		if int(root.EndByte()) > len(src) {
			t.Fatalf("root ends at byte %d, input has %d", root.EndByte(), len(src))
		}
		errs := grammar.SyntaxErrors(root, src)
		switch {
		case len(errs) > 0 && !root.HasError():
			t.Fatalf("SyntaxErrors found %d errors in a tree without errors", len(errs))
		case len(errs) == 0 && root.HasError() && bytes.HasSuffix(src, []byte("\n")):
			// The only error SyntaxErrors may leave out is a directive
			// without its newline at the end of the file.
			t.Fatal("tree has an error that SyntaxErrors did not list")
		}
		for _, e := range errs {
			if e.StartByte > e.EndByte || int(e.EndByte) > len(src) || e.Line < 1 || e.Column < 1 {
				t.Fatalf("bad position %+v for input of %d bytes", e, len(src))
			}
			if !utf8.ValidString(e.Near) || bytes.ContainsRune([]byte(e.Near), '\n') {
				t.Fatalf("Near = %q, want one valid UTF-8 line", e.Near)
			}
		}
		if err := grammar.WriteTree(io.Discard, root, grammar.WithRanges); err != nil {
			t.Fatal(err)
		}
	})
}
