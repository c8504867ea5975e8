package ptxas

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json")

func parseFile(t *testing.T, name string) *Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseBytes(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// TestGolden parses every captured report and compares the result with its
// golden JSON (regenerate with go test -update after checking the diff).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	if len(files) < 4 {
		t.Fatalf("want at least 4 reports in testdata, have %d", len(files))
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			got, err := json.MarshalIndent(parseFile(t, name), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(path, ".txt") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if d := cmp.Diff(strings.TrimSpace(string(want)), string(got)); d != "" {
				t.Errorf("mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestSM90(t *testing.T) {
	r := parseFile(t, "sm90.txt")
	tr := r.Kernel("transpose", "sm_90")
	if tr == nil {
		t.Fatal("transpose not found")
	}
	if tr.Registers != 14 || tr.Barriers != 1 || tr.SharedBytes != 4224 || tr.Mangled != "_Z9transposePfPKfi" {
		t.Errorf("transpose = %+v", tr)
	}
	if f := r.Kernel("saxpy", ""); f == nil || f.Registers != 10 || f.Name != "saxpy" {
		t.Errorf("extern C saxpy = %+v", f)
	}
	if f := r.Kernel("ops::relu", "sm_90"); f == nil || f.Name != "relu" {
		t.Errorf("qualified ops::relu = %+v", f)
	}
	// Two template instances: the one with more registers wins.
	if f := r.Kernel("scale", "sm_90"); f == nil || f.Mangled != "_Z5scaleIfLi4EEvPT_S0_" || f.Registers != 14 {
		t.Errorf("scale = %+v", f)
	}
	la := r.Kernel("local_array", "")
	if la == nil || la.StackFrame != 256 || la.Other["cumulative stack size"] != 256 {
		t.Errorf("local_array = %+v", la)
	}
	// poly is a device function: found by Lookup, never by Kernel.
	if f := r.Kernel("poly", ""); f != nil {
		t.Errorf("device function returned as kernel: %+v", f)
	}
	if fs := r.Lookup("poly", ""); len(fs) != 1 || fs[0].Entry || fs[0].Arch != "sm_90" {
		t.Errorf("Lookup(poly) = %+v", fs)
	}
}

func TestSpills(t *testing.T) {
	r := parseFile(t, "sm80_spills.txt")
	var spilled []string
	for _, f := range r.Functions {
		if f.Spills() {
			spilled = append(spilled, f.Name)
		}
		if f.Entry && f.ConstBytes[0] == 0 {
			t.Errorf("%s: no cmem[0] on sm_80", f.Name)
		}
	}
	if len(spilled) == 0 {
		t.Fatal("no spilling function in a -maxrregcount=16 build")
	}
	f := r.Kernel("__maxrregcount_test", "sm_80")
	if f == nil || f.Registers != 24 || f.SpillStores != 40 || f.SpillLoads != 40 {
		t.Errorf("__maxrregcount_test = %+v", f)
	}
}

func TestMultiArch(t *testing.T) {
	r := parseFile(t, "multi_arch.txt")
	if got := r.Arches(); !cmp.Equal(got, []string{"sm_75", "sm_86"}) {
		t.Errorf("Arches = %v", got)
	}
	a, b := r.Kernel("local_array", "sm_75"), r.Kernel("local_array", "sm_86")
	if a == nil || b == nil || a == b {
		t.Fatalf("per-arch lookup: %v %v", a, b)
	}
	if r.Kernel("local_array", "") != b {
		t.Error("default arch is not the last reported")
	}
}

func TestLegacy(t *testing.T) {
	r := parseFile(t, "legacy.txt")
	f := r.Kernel("reduce", "")
	want := &Function{Mangled: "_Z6reducePKfPfi", Name: "reduce", Qualified: "reduce", Arch: "sm_52", Entry: true,
		Registers: 32, SharedBytes: 4096, LocalBytes: 8, StackFrame: 8, SpillStores: 4, SpillLoads: 4,
		ConstBytes: map[int]int{0: 340, 2: 8}}
	if d := cmp.Diff(want, f); d != "" {
		t.Errorf("reduce (-want +got):\n%s", d)
	}
	if f := r.Kernel("vec_add", "sm_52"); f == nil || f.Registers != 6 {
		t.Errorf("vec_add = %+v", f)
	}
}

func TestBadInput(t *testing.T) {
	for _, in := range []string{
		"ptxas info    : Used 10 registers, used 1 barriers\n",
		"ptxas info    : Compiling entry function 'k' for 'sm_90'\nptxas info    : Used 10 registers, 12 parsecs smem\n",
	} {
		if _, err := ParseBytes([]byte(in)); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("%q: err = %v, want an error naming the line", in, err)
		}
	}
	// Unrelated text is not a report: no functions, no error.
	r, err := ParseBytes([]byte("nvcc warning : The 'compute_75' architecture is deprecated\n\x00\xff"))
	if err != nil || len(r.Functions) != 0 {
		t.Errorf("noise: %v %+v", err, r)
	}
	var nilReport *Report
	if nilReport.Kernel("k", "") != nil || nilReport.Lookup("k", "") != nil {
		t.Error("nil report lookups")
	}
}

func TestDemangle(t *testing.T) {
	for _, tc := range []struct{ in, base, qual string }{
		{"_Z2k2Pf", "k2", "k2"},
		{"_ZN3ops4reluEPfi", "relu", "ops::relu"},
		{"_Z5scaleIfLi4EEvPT_S0_", "scale", "scale"},
		{"_ZN2ns4gemmILi128ELi64EEEvPKfS2_Pfiii", "gemm", "ns::gemm"},
		{"_ZN5outer5inner1kI6Float2EEvPT_", "k", "outer::inner::k"},
		{"_ZNK3Foo3barEv", "bar", "Foo::bar"},
		{"saxpy", "saxpy", "saxpy"},
		{"_Z", "_Z", "_Z"},
		{"_Z99x", "_Z99x", "_Z99x"},
		{"_ZN", "_ZN", "_ZN"},
	} {
		b, q := Demangle(tc.in)
		if b != tc.base || q != tc.qual {
			t.Errorf("Demangle(%q) = %q, %q; want %q, %q", tc.in, b, q, tc.base, tc.qual)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"sm90.txt", "legacy.txt"} {
		b, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseBytes(b)
		if err == nil {
			r.Kernel("k", "")
		}
	})
}

func FuzzDemangle(f *testing.F) {
	for _, s := range []string{"_ZN3ops4reluEPfi", "_Z5scaleIfLi4EEvPT_S0_"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { Demangle(s) })
}
