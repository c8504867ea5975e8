package bench

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cudaperf/cudaperf/bench/harness"
	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

// toolchain returns a toolchain with a cache private to the test binary,
// or skips when nvcc is not installed (.ci/setup installs it from PyPI).
func toolchain(t *testing.T) *nvcc.Toolchain {
	t.Helper()
	return toolchainAt(t, filepath.Join(os.TempDir(), "cudaperf-bench-test-cache"))
}

// toolchainAt is toolchain with its compile cache in dir.
func toolchainAt(t *testing.T, dir string) *nvcc.Toolchain {
	t.Helper()
	cache, err := nvcc.OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := nvcc.New("", 0, cache)
	if errors.Is(err, nvcc.ErrNotFound) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

func session(t *testing.T, name string, opt Options) *Session {
	t.Helper()
	tk, err := task.Load(filepath.Join("suites", "selftest", name))
	if err != nil {
		t.Fatal(err)
	}
	opt.Toolchain = toolchain(t)
	opt.ScratchDir = t.TempDir()
	s, err := NewSession(tk, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func float32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func readInput(t *testing.T, s *Session, config int, tag byte, param int) []byte {
	t.Helper()
	b, err := os.ReadFile(harness.InputPath(filepath.Join(s.dir, "data"), config, tag, param))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReferenceProgram runs the generated reference program (CPU only):
// inputs follow their distributions, differ between seeds, are the same
// for the same seed, and the outputs are the reference's.
func TestReferenceProgram(t *testing.T) {
	ctx := context.Background()
	seeds := [2]uint64{12345, 67890}
	s := session(t, "saxpy", Options{Seeds: seeds})
	if err := s.prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.runReference(ctx); err != nil {
		t.Fatal(err)
	}
	const npot = 3 // n = 1000003, alpha = 3
	x, y := float32s(readInput(t, s, npot, 'a', 0)), float32s(readInput(t, s, npot, 'a', 1))
	if len(x) != 1000003 || len(y) != 1000003 {
		t.Fatalf("input lengths %d %d", len(x), len(y))
	}
	var mean, sq float64
	for i := range x {
		if x[i] < -1 || x[i] > 1 {
			t.Fatalf("x[%d] = %v outside uniform [-1, 1]", i, x[i])
		}
		mean += float64(y[i])
		sq += float64(y[i]) * float64(y[i])
	}
	mean /= float64(len(y))
	std := math.Sqrt(sq/float64(len(y)) - mean*mean)
	if math.Abs(mean) > 0.01 || math.Abs(std-1) > 0.01 {
		t.Errorf("y: mean %.4f std %.4f, want normal(0, 1)", mean, std)
	}
	z := float32s(s.refOut[[3]int{npot, 0, 2}])
	for i := range z {
		want := float32(3)*x[i] + y[i]
		if math.Abs(float64(z[i]-want)) > 1e-6*math.Max(1, math.Abs(float64(want))) {
			t.Fatalf("reference z[%d] = %v, want %v", i, z[i], want)
		}
	}
	if slices.Equal(readInput(t, s, npot, 'a', 0), readInput(t, s, npot, 'b', 0)) {
		t.Error("seeds A and B gave the same inputs")
	}
	if len(s.refMs[npot]) == 0 {
		t.Error("no reference timing for seed A")
	}
	// Reference outputs are removed from disk once loaded.
	if _, err := os.Stat(harness.RefOutputPath(filepath.Join(s.dir, "data"), npot, 'a', 2)); !os.IsNotExist(err) {
		t.Errorf("reference output still on disk: %v", err)
	}

	again := session(t, "saxpy", Options{Seeds: seeds})
	if err := again.prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if err := again.runReference(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(readInput(t, s, npot, 'b', 1), readInput(t, again, npot, 'b', 1)) {
		t.Error("the same seed gave different inputs")
	}
}

// TestGeneratorAndRandint checks the generator hook (a permutation) and a
// randint distribution whose bound is an expression.
func TestGeneratorAndRandint(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"gather", "histogram"} {
		s := session(t, name, Options{Seeds: [2]uint64{1, 2}})
		if err := s.prepare(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.runReference(ctx); err != nil {
			t.Fatal(err)
		}
		switch name {
		case "gather":
			idx := readInput(t, s, 2, 'a', 1) // n = 999
			seen := make([]bool, 999)
			for i := 0; i < 999; i++ {
				v := int32(binary.LittleEndian.Uint32(idx[4*i:]))
				if v < 0 || v >= 999 || seen[v] {
					t.Fatalf("idx is not a permutation: idx[%d] = %d", i, v)
				}
				seen[v] = true
			}
		case "histogram":
			data := readInput(t, s, 1, 'b', 0) // few: n = 33, nbins = 7
			for i, v := range data {
				if v > 6 {
					t.Fatalf("data[%d] = %d outside randint [0, nbins-1 = 6]", i, v)
				}
			}
			bins := s.refOut[[3]int{1, 1, 1}]
			var total uint32
			for i := 0; i < 7; i++ {
				total += binary.LittleEndian.Uint32(bins[4*i:])
			}
			if total != 33 {
				t.Errorf("reference bins sum to %d, want 33", total)
			}
		}
	}
}

func TestCompileOnly(t *testing.T) {
	s := session(t, "saxpy", Options{CompileOnly: true})
	cands := append(Variants(s.Task), Candidate{Name: "broken", Path: filepath.Join("nvcc", "testdata", "broken.cu"), Kind: KindCandidate})
	res := s.CompileAll(context.Background(), cands)
	for i, r := range res {
		broken := cands[i].Name == "broken"
		if r.Error != "" || r.Compile.OK == broken {
			t.Errorf("%s: ok=%v error=%q log:\n%s", cands[i].Name, r.Compile.OK, r.Error, r.Compile.Log)
		}
		if !broken && len(r.Compile.Kernels) == 0 {
			t.Errorf("%s: no kernel resources", cands[i].Name)
		}
		if broken && (r.Verdict == nil || !r.Verdict.Has("compile_error")) {
			t.Errorf("broken: verdict %+v, want compile_error", r.Verdict)
		}
		// The record names what was compiled, for the recorded benchmarker.
		if src, err := os.ReadFile(cands[i].Path); err != nil || r.SourceHash != SourceHash(src) {
			t.Errorf("%s: source_hash %q, want that of %s (%v)", cands[i].Name, r.SourceHash, cands[i].Path, err)
		}
	}
	if err := s.PrepErr(); err != nil {
		t.Errorf("harness programs: %v", err)
	}
	r := s.Build(context.Background(), cands[0])
	s.Run(context.Background(), r, nil)
	if r.Ran || r.Verdict != nil || !r.Compile.OK {
		t.Errorf("compile-only Build and Run ran or judged: %+v", r)
	}
}

// TestBuildJudgesExpectedCompileError: a batch candidate that must not
// compile never runs, so its expectation is settled by Build (the H200's RL
// batch counted all 12 such candidates misjudged before).
func TestBuildJudgesExpectedCompileError(t *testing.T) {
	s := session(t, "saxpy", Options{})
	r := s.Build(context.Background(), Candidate{Name: "broken", Path: filepath.Join("nvcc", "testdata", "broken.cu"), Kind: KindCheat, Expect: "compile_error"})
	if r.Compile.OK || !r.Caught {
		t.Errorf("a candidate expected not to compile: compiled %v, caught %v (verdict %+v)", r.Compile.OK, r.Caught, r.Verdict)
	}
}

// TestReferenceProgramHalf runs the reference program of a task with
// float16, bfloat16 and float64 arrays: inputs are drawn in their
// distributions and rounded to the type, and the reference's outputs are
// the formula within one rounding of each output type.
func TestReferenceProgramHalf(t *testing.T) {
	ctx := context.Background()
	s := session(t, "halfmix", Options{Seeds: [2]uint64{3, 4}})
	if err := s.prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.runReference(ctx); err != nil {
		t.Fatal(err)
	}
	const npot, n, alpha = 3, 65537, 3.0
	u16 := func(b []byte, i int) uint16 { return binary.LittleEndian.Uint16(b[2*i:]) }
	bf := func(v uint16) float64 { return float64(math.Float32frombits(uint32(v) << 16)) }
	x, y, w := readInput(t, s, npot, 'a', 0), readInput(t, s, npot, 'a', 1), readInput(t, s, npot, 'a', 2)
	h, b, d := s.refOut[[3]int{npot, 0, 3}], s.refOut[[3]int{npot, 0, 4}], s.refOut[[3]int{npot, 0, 5}]
	if len(x) != 2*n || len(y) != 2*n || len(w) != 8*n || len(h) != 2*n || len(b) != 2*n || len(d) != 8*n {
		t.Fatalf("array sizes %d %d %d %d %d %d", len(x), len(y), len(w), len(h), len(b), len(d))
	}
	var ysq float64
	for i := 0; i < n; i++ {
		xv, yv := verdict.HalfValue(u16(x, i)), bf(u16(y, i))
		wv := math.Float64frombits(binary.LittleEndian.Uint64(w[8*i:]))
		if xv < -2 || xv > 2 || wv < -1 || wv > 1 {
			t.Fatalf("input %d: x %v w %v outside their uniform ranges", i, xv, wv)
		}
		ysq += yv * yv
		hv, want := verdict.HalfValue(u16(h, i)), float64(float32(alpha)*float32(xv)+float32(yv))
		if math.Abs(hv-want) > math.Ldexp(math.Abs(want), -11)+math.Ldexp(1, -25) {
			t.Fatalf("h[%d] = %v, want half(%v)", i, hv, want)
		}
		if bv, want := bf(u16(b, i)), float64(float32(xv)*float32(yv)); math.Abs(bv-want) > math.Ldexp(math.Abs(want), -8) {
			t.Fatalf("b[%d] = %v, want bfloat16(%v)", i, bv, want)
		}
		if dv := math.Float64frombits(binary.LittleEndian.Uint64(d[8*i:])); dv != wv*alpha+xv {
			t.Fatalf("d[%d] = %v, want %v", i, dv, wv*alpha+xv)
		}
	}
	if std := math.Sqrt(ysq / n); math.Abs(std-4) > 0.1 {
		t.Errorf("y std %.3f, want normal(0, 4)", std)
	}
}

// TestSessionOutlivesCancelledRequest: the driver build and the reference
// run belong to the session, not to the request that started them, so a
// request cancelled while they run (a time budget, a stopped RL step) does
// not leave its error for every later candidate of the task.
func TestSessionOutlivesCancelledRequest(t *testing.T) {
	tk, err := task.Load(filepath.Join("suites", "selftest", "saxpy"))
	if err != nil {
		t.Fatal(err)
	}
	tc := toolchainAt(t, t.TempDir()) // cold: the build takes a while
	s, err := NewSession(tk, Options{Toolchain: tc, ScratchDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.prepare(gone); !errors.Is(err, context.Canceled) {
		t.Errorf("prepare with a cancelled request: %v, want its cancellation", err)
	}
	if err := s.runReference(gone); !errors.Is(err, context.Canceled) {
		t.Errorf("reference with a cancelled request: %v, want its cancellation", err)
	}
	if err := s.prepare(context.Background()); err != nil {
		t.Fatalf("prepare after a cancelled request: %v", err)
	}
	if err := s.runReference(context.Background()); err != nil {
		t.Fatalf("reference after a cancelled request: %v", err)
	}
	if len(s.refOut) == 0 {
		t.Error("the reference left no outputs")
	}
}
