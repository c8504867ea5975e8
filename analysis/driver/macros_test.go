package driver

import (
	"context"
	"os"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/passes"
)

// TestRecursiveMacrosEnd runs every built-in pass on a completion a GRPO
// policy wrote (lease 3, step 12): its macros name themselves and each
// other ("#define TILE22 (TILE22 + TILE22)", 13 more such lines). The
// taint pass expanded them without end, and the analyzer plugin never
// answered; it was found by analysing 8,763 past completions after a
// lease-7 step waited on the analyzer for two device calls. The file must
// be analysed (a hang fails the test at go test's timeout) with no pass
// failing, and its unclosed '(' still reported.
func TestRecursiveMacrosEnd(t *testing.T) {
	src, err := os.ReadFile("testdata/macro_recursion.cu")
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(passes.All(), Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	fr := d.RunSource(context.Background(), "macro_recursion.cu", src)
	syntaxErr := false
	for _, dg := range fr.Diagnostics {
		if dg.Check == CheckInternal {
			t.Errorf("a pass failed: %s", dg.Message)
		}
		if dg.Check == "syntax" {
			syntaxErr = true
		}
	}
	if !syntaxErr {
		t.Errorf("no syntax diagnostic for the unclosed '(' of line 45; diagnostics: %v", fr.Diagnostics)
	}
}
