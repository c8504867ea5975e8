package harness

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden compares the generated programs of two selftest tasks (one with
// an inout array and float scalars, one with a generator) with testdata.
func TestGolden(t *testing.T) {
	for _, name := range []string{"gemm", "gather"} {
		tk, err := task.Load(filepath.Join("..", "suites", "selftest", name))
		if err != nil {
			t.Fatal(err)
		}
		src, err := Generate(tk)
		if err != nil {
			t.Fatal(err)
		}
		for file, got := range src.Files() {
			golden := filepath.Join("testdata", name, file+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("%s differs from %s (-want +got; go test -update rewrites it):\n%s", file, golden, d)
			}
		}
	}
}
