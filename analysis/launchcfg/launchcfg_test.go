package launchcfg

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

// TestFind checks every launch of testdata/launches.cu against the
// "// launch: ..." marker on its line.
func TestFind(t *testing.T) {
	src, err := os.ReadFile("testdata/launches.cu")
	if err != nil {
		t.Fatal(err)
	}
	f, err := analysis.ParseFile(context.Background(), "launches.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	launches := Find(affine.NewFile(analysistest.SyntaxRoot(t, f), src), analysistest.SyntaxRoot(t, f))
	for _, l := range launches {
		row := l.Node.StartPoint().Row
		_, want, ok := strings.Cut(lines[row], "// launch: ")
		if !ok {
			t.Errorf("line %d: launch without a marker", row+1)
			continue
		}
		tpb := "?"
		if v, exact, ok := l.ThreadsPerBlockBound(); ok && exact {
			tpb = fmt.Sprint(v)
		} else if ok {
			tpb = fmt.Sprint("<=", v)
		}
		got := fmt.Sprintf("%s grid=(%s,%s,%s) block=(%s,%s,%s) tpb=%s smem=%s", l.Kernel, l.Grid[0], l.Grid[1], l.Grid[2], l.Block[0], l.Block[1], l.Block[2], tpb, l.SharedMem)
		if l.Stream != "" {
			got += " stream=" + l.Stream
		}
		if got != strings.TrimSpace(want) {
			t.Errorf("line %d:\n got %s\nwant %s", row+1, got, strings.TrimSpace(want))
		}
	}
	if want := strings.Count(string(src), "// launch:"); len(launches) != want {
		t.Fatalf("found %d launches, want %d", len(launches), want)
	}
}
