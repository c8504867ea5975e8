package harness

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden compares the generated programs of three selftest tasks (one
// with an inout array and float scalars, one with a generator, one with
// float16, bfloat16 and float64 arrays) with testdata.
func TestGolden(t *testing.T) {
	for _, name := range []string{"gemm", "gather", "halfmix"} {
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

// TestHalfConversions checks the header's float -> float16 and bfloat16
// rounding, which draws every 16-bit input, against gcc's _Float16 (IEEE
// round to nearest even) and against the bfloat16 rule, over every float16
// value, the midpoints between neighbours, subnormals, overflow and NaN.
func TestHalfConversions(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc on PATH")
	}
	tk, err := task.Load(filepath.Join("..", "suites", "selftest", "halfmix"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := Generate(tk)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, HeaderFile), []byte(src.Header), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := `#include "harness.h"
int main(void) {
    long bad = 0;
    for (unsigned int i = 0; i < 0x10000u; i++) {
        unsigned short h = (unsigned short)i;
        _Float16 v;
        memcpy(&v, &h, 2);
        float f = (float)v, below, above;
        /* f itself, and the points just around f and halfway to its neighbour */
        unsigned int fb;
        memcpy(&fb, &f, 4);
        float probes[4] = {f, 0, 0, f * 1.00048828125f};
        fb += 1; memcpy(&above, &fb, 4); fb -= 2; memcpy(&below, &fb, 4);
        probes[1] = above; probes[2] = below;
        for (int k = 0; k < 4; k++) {
            _Float16 want = (_Float16)probes[k];
            unsigned short wb, got = cp_f2h(probes[k]);
            memcpy(&wb, &want, 2);
            if (want != want) { if ((got & 0x7C00u) != 0x7C00u || !(got & 0x3FFu)) bad++; continue; }
            if (got != wb) { if (bad < 5) printf("f2h(%a) = %04x, want %04x\n", probes[k], got, wb); bad++; }
        }
        unsigned int x = i << 16 | 0x8000u; /* exactly halfway: ties to even */
        float g;
        memcpy(&g, &x, 4);
        unsigned short even = (unsigned short)(i + (i & 1u));
        if ((i & 0x7F80u) != 0x7F80u && cp_f2bf(g) != even) { if (bad < 5) printf("f2bf(%a) = %04x, want %04x\n", g, cp_f2bf(g), even); bad++; }
    }
    printf("%ld bad\n", bad);
    return bad != 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "t.c"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "t")
	if out, err := exec.Command(cc, "-O2", "-o", exe, filepath.Join(dir, "t.c"), "-lm").CombinedOutput(); err != nil {
		if strings.Contains(string(out), "_Float16") {
			t.Skipf("%s has no _Float16: %s", cc, out)
		}
		t.Fatalf("%v\n%s", err, out)
	}
	if out, err := exec.Command(exe).CombinedOutput(); err != nil {
		t.Fatalf("conversions differ: %v\n%s", err, out)
	}
}
