package dataflow

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
)

// TestAccesses compares the accesses found on each line of
// testdata/accesses.cu with the "// access: A | B | ..." marker there (in
// source order of the access nodes).
func TestAccesses(t *testing.T) {
	root, src := analysistest.Parse(t, "testdata/accesses.cu")
	kr := kernels.Discover(root, src)
	r := Build(kr, src)
	if len(kr.Kernels) != 1 {
		t.Fatalf("found %d kernels, want 1", len(kr.Kernels))
	}
	byLine := map[int][]string{}
	for _, a := range r.Accesses(kr.Kernels[0]) {
		rw := ""
		if a.Read {
			rw += "r"
		}
		if a.Write {
			rw += "w"
		}
		if a.ReadOnly {
			rw += " ro"
		}
		line := int(a.Node.StartPoint().Row)
		byLine[line] = append(byLine[line], fmt.Sprintf("%s %s %s idx=%s %s w=%g", a.Base, a.Space, a.Elem, a.Index, rw, a.Weight))
	}
	lines := strings.Split(string(src), "\n")
	markers := 0
	for i, l := range lines {
		_, want, ok := strings.Cut(l, "// access: ")
		if !ok {
			if len(byLine[i]) > 0 {
				t.Errorf("line %d: unexpected accesses %q", i+1, byLine[i])
			}
			continue
		}
		markers++
		if got := strings.Join(byLine[i], " | "); got != strings.TrimSpace(want) {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got, strings.TrimSpace(want))
		}
	}
	if markers < 9 {
		t.Fatalf("only %d markers", markers)
	}
}
