package driver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/passes/occupancy"
)

// FuzzDriver runs the framework's passes on arbitrary bytes: no analyzer may
// panic or fail (an "internal" diagnostic), and every diagnostic must lie
// inside the source. Seeds are the CUDA files of the analysis testdata.
func FuzzDriver(f *testing.F) {
	seeds, _ := filepath.Glob("../passes/*/testdata/src/*/*.cu")
	more, _ := filepath.Glob("testdata/*.cu")
	ptx, _ := filepath.Glob("../ptxas/testdata/*.cu")
	for _, p := range append(append(seeds, more...), ptx...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("__global__ void k(){ k<<<1,1>>>(); }"))
	f.Add([]byte("template<int N> __global__ void __launch_bounds__(N) k(float*x){__shared__ float s[N][N+1];}"))
	d, err := New([]*analysis.Analyzer{kernels.Analyzer, occupancy.Analyzer}, Options{Jobs: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fr := d.RunSource(context.Background(), "fuzz.cu", src)
		for _, dg := range fr.Diagnostics {
			if dg.Check == CheckInternal {
				t.Fatalf("analyzer failure: %s\n%v", dg.Message, fr.Errors)
			}
			r := dg.Range
			if r.StartByte > r.EndByte || int(r.EndByte) > len(src) || r.StartLine < 1 || r.StartCol < 1 || r.EndLine < r.StartLine {
				t.Fatalf("diagnostic outside the source (%d bytes): %+v", len(src), dg)
			}
		}
	})
}
