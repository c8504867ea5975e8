package passes

import (
	"context"
	"fmt"
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

// pathological builds generated sources that once made passes quadratic: a
// long chain of operators, a kernel that reassigns one variable thousands
// of times, and deep parentheses.
func pathological(n int) map[string][]byte {
	var chain, assign, parens strings.Builder
	chain.WriteString("__global__ void chain(float* a) {\n  float y = a[0]")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&chain, " + a[%d] * 2.0f", i)
	}
	chain.WriteString(";\n  a[threadIdx.x] = y;\n}\n")
	assign.WriteString("__global__ void assign(float* a) {\n  int x = threadIdx.x;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&assign, "  x = threadIdx.x + %d; a[x] = a[x + 1] * 2.0f;\n", i)
	}
	assign.WriteString("}\n")
	parens.WriteString("__global__ void parens(float* a) {\n  int x = ")
	parens.WriteString(strings.Repeat("(", n) + "threadIdx.x" + strings.Repeat(")", n))
	parens.WriteString(";\n  a[x] = 1.0f;\n}\n")
	return map[string][]byte{"chain": []byte(chain.String()), "assign": []byte(assign.String()), "parens": []byte(parens.String())}
}

// BenchmarkPathological times every pass on the generated sources at two
// sizes; linear passes take about 10x longer for 10x the input.
//
//	go test ./analysis/passes -run XXX -bench Pathological -benchtime 3x
func BenchmarkPathological(b *testing.B) {
	d := newDriver(b)
	for _, n := range []int{500, 5000} {
		for name, src := range pathological(n) {
			b.Run(fmt.Sprintf("%s-%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for i := 0; i < b.N; i++ {
					res := d.RunSource(context.Background(), name+".cu", src)
					if len(res.Errors) > 0 {
						b.Fatal(res.Errors[0])
					}
				}
			})
		}
	}
}
