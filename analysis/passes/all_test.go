package passes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/driver"
)

// The paper's 11-dimensional feature vector must be covered by the
// built-in analyzers.
var paperFeatures = []string{"coal", "ai", "occ", "div", "xfer", "atomics", "sync", "kernels", "tpb", "gmem", "ops"}

func TestAll(t *testing.T) {
	all := All()
	if err := analysis.Validate(all); err != nil {
		t.Fatal(err)
	}
	have := map[string]*analysis.Analyzer{}
	for _, a := range all {
		if a.Title() == "" || a.URL == "" {
			t.Errorf("%s: missing title or URL", a.Name)
		}
		if strings.ToLower(a.Title()[:1]) != a.Title()[:1] {
			t.Errorf("%s: title %q must start lower-case", a.Name, a.Title())
		}
		for _, f := range a.Features {
			have[f.Name] = a
		}
	}
	for _, f := range paperFeatures {
		if have[f] == nil {
			t.Errorf("no built-in analyzer reports the paper's feature %q", f)
		}
	}
}

// corpus returns every .cu file under the passes' testdata, the seeds of
// the fuzz test and the input of TestNoInternalErrors.
func corpus(t testing.TB) map[string][]byte {
	files := map[string][]byte{}
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".cu") || strings.HasSuffix(p, ".cuh")) {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[p] = b
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d testdata files", len(files))
	}
	return files
}

func newDriver(t testing.TB) *driver.Driver {
	d, err := driver.New(All(), driver.Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestNoInternalErrors runs every analyzer on every testdata file: none may
// fail or panic.
func TestNoInternalErrors(t *testing.T) {
	d := newDriver(t)
	for path, src := range corpus(t) {
		res := d.RunSource(context.Background(), path, src)
		for _, err := range res.Errors {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// FuzzPasses checks that no analyzer panics or fails on any input: every
// parse tree, however broken, is analysed as far as it goes. Seeds are all
// the passes' testdata. Run it with a short minimisation budget, since each
// execution runs every pass:
//
//	go test ./analysis/passes -run '^$' -fuzz FuzzPasses -fuzztime 2m -fuzzminimizetime 10x
func FuzzPasses(f *testing.F) {
	for _, src := range corpus(f) {
		f.Add(src)
	}
	f.Add([]byte("__global__ void k(float* a) { a[threadIdx.x % ] = ; for (;;) }"))
	f.Add([]byte("k<<<dim3(, 1), >>>(); __shared__ float t[][33]; #define X X\nint y = X;"))
	d := newDriver(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		res := d.RunSource(context.Background(), "fuzz.cu", src)
		for _, err := range res.Errors {
			if strings.Contains(err.Error(), "panicked") || strings.Contains(err.Error(), "internal") {
				t.Fatalf("%v\ninput: %q", err, src)
			}
		}
	})
}
