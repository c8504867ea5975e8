package verdict

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench/task"
)

// float32Pair returns n reference and candidate float32 values as bytes,
// with the cases the judge meets: equal, within and beyond tolerance,
// zeros, subnormals, NaN, ±Inf and the poison left in place.
func float32Pair(n int, seed uint64) (want, got []byte) {
	r := rand.New(rand.NewPCG(seed, 1))
	want, got = make([]byte, 4*n), make([]byte, 4*n)
	put := func(b []byte, i int, v float32) { binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v)) }
	for i := 0; i < n; i++ {
		w := float32(r.NormFloat64() * 100)
		g := w
		switch r.IntN(12) {
		case 0:
			g = w * (1 + float32(r.NormFloat64()*1e-6))
		case 1:
			g = w + float32(r.NormFloat64())
		case 2:
			w, g = 0, float32(r.NormFloat64()*1e-3)
		case 3:
			w, g = math.Float32frombits(1), math.Float32frombits(3) // subnormals
		case 4:
			g = float32(math.NaN())
		case 5:
			w, g = float32(math.NaN()), float32(math.NaN())
		case 6:
			g = float32(math.Inf(1))
		case 7:
			w, g = float32(math.Inf(-1)), float32(math.Inf(-1))
		case 8:
			put(want, i, w)
			binary.LittleEndian.PutUint32(got[4*i:], 0xFFFFFFFF) // poison 0xFF
			continue
		}
		put(want, i, w)
		put(got, i, g)
	}
	return want, got
}

// TestCompareFloat32MatchesGeneric holds the fast float32 loop to the
// generic one, field by field, on every kind of value.
func TestCompareFloat32MatchesGeneric(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		want, got := float32Pair(5000, seed)
		for _, tol := range []task.Tolerance{{ATol: 1e-5, RTol: 1e-5}, {ATol: 0, RTol: 0}, {ATol: 1, RTol: 0.1}} {
			fast := Comparison{FirstBad: -1, Elements: 5000}
			compareFloat32(&fast, tol, want, got, 0xFF, 0)
			slow := Comparison{FirstBad: -1, Elements: 5000}
			compareGeneric(&slow, task.Float32, tol, want, got, 0xFF, 0)
			if fast != slow {
				t.Fatalf("seed %d tol %+v:\nfast    %+v\ngeneric %+v", seed, tol, fast, slow)
			}
		}
	}
}

// Outputs equal to the reference in most places: compareFloat32 skips
// equal blocks, but not one whose reference holds an infinity or a NaN
// (a mismatch however it was reproduced), and counts what lies between
// and after blocks exactly as compareGeneric does.
func TestCompareFloat32SkipsOnlyFiniteEqualBlocks(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		n := 5000 + int(seed) // tails of every length
		want, got := float32Pair(n, seed)
		r := rand.New(rand.NewPCG(seed, 2))
		for i := 0; i < n; i++ {
			if r.IntN(100) < 97 {
				copy(got[4*i:4*i+4], want[4*i:4*i+4])
			}
		}
		tol := task.Tolerance{ATol: 1e-5, RTol: 1e-5}
		fast := Comparison{FirstBad: -1, Elements: int64(n)}
		compareFloat32(&fast, tol, want, got, 0xFF, 0)
		slow := Comparison{FirstBad: -1, Elements: int64(n)}
		compareGeneric(&slow, task.Float32, tol, want, got, 0xFF, 0)
		if fast != slow {
			t.Fatalf("seed %d:\nfast    %+v\ngeneric %+v", seed, fast, slow)
		}
		if slow.Mismatches == 0 {
			t.Fatalf("seed %d: no mismatch: the test compares nothing that matters", seed)
		}
	}
	// Finite outputs, so that most blocks are skipped and what differs
	// lies between skipped blocks: an ulp here and there, a few outside
	// tolerance, some left as the poison.
	for seed := uint64(1); seed <= 20; seed++ {
		n := 64*50 + int(seed)
		r := rand.New(rand.NewPCG(seed, 3))
		want, got := make([]byte, 4*n), make([]byte, 4*n)
		for i := 0; i < n; i++ {
			wb := math.Float32bits(float32(r.NormFloat64() * 10))
			gb := wb
			switch k := r.IntN(400); {
			case k < 3:
				gb++
			case k < 5:
				gb = math.Float32bits(math.Float32frombits(wb) + 1)
			case k < 6:
				gb = 0xFFFFFFFF
			}
			binary.LittleEndian.PutUint32(want[4*i:], wb)
			binary.LittleEndian.PutUint32(got[4*i:], gb)
		}
		tol := task.Tolerance{ATol: 1e-5, RTol: 1e-5}
		fast := Comparison{FirstBad: -1, Elements: int64(n)}
		compareFloat32(&fast, tol, want, got, 0xFF, 0)
		slow := Comparison{FirstBad: -1, Elements: int64(n)}
		compareGeneric(&slow, task.Float32, tol, want, got, 0xFF, 0)
		if fast != slow || slow.Mismatches == 0 || slow.PoisonLeft == 0 {
			t.Fatalf("finite seed %d:\nfast    %+v\ngeneric %+v", seed, fast, slow)
		}
	}
	// One NaN, reproduced bit for bit, in an otherwise equal array.
	want := make([]byte, 4*1000)
	for i := range 1000 {
		binary.LittleEndian.PutUint32(want[4*i:], math.Float32bits(float32(i)))
	}
	binary.LittleEndian.PutUint32(want[4*700:], math.Float32bits(float32(math.NaN())))
	got := append([]byte{}, want...)
	binary.LittleEndian.PutUint32(got[4*999:], math.Float32bits(1000)) // not identical as a whole
	c := Comparison{FirstBad: -1, Elements: 1000}
	compareFloat32(&c, task.Tolerance{}, want, got, 0xFF, 0)
	if c.Mismatches != 2 || c.FirstBad != 700 {
		t.Errorf("a reproduced NaN at 700 and a wrong last element: %+v, want 2 mismatches, the first at 700", c)
	}
}

// BenchmarkCompareFloat32 is the judge's comparison of one output of 32 Mi
// float32 elements, all within tolerance: "all" differ from the reference
// (the worst case for an honest candidate), "ulp60" and "ulp0.1" differ by
// an ulp or two in a random 60 % and 0.1 % of their elements (gelu's
// outputs against its C reference, and a kernel that differs in a few
// places). Results in bench/RESULTS.md.
func BenchmarkCompareFloat32(b *testing.B) {
	const n = 32 << 20
	tol := task.Tolerance{ATol: 1e-5, RTol: 1e-5}
	for _, data := range []struct {
		name    string
		permill int // elements in 1000 that differ, for the ulp cases
	}{{"all", -1}, {"ulp60", 600}, {"ulp0.1", 1}} {
		want, got := make([]byte, 4*n), make([]byte, 4*n)
		r := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < n; i++ {
			if data.permill < 0 {
				v := float32(i%1000) * 0.5
				binary.LittleEndian.PutUint32(want[4*i:], math.Float32bits(v))
				binary.LittleEndian.PutUint32(got[4*i:], math.Float32bits(v*(1+1e-7)))
				continue
			}
			x := r.NormFloat64() * 3
			v := float32(0.5 * x * (1 + math.Erf(x/math.Sqrt2)))
			wb := math.Float32bits(v)
			gb := wb
			if r.IntN(1000) < data.permill && math.Abs(float64(v)) > 1e-3 {
				gb += uint32(r.IntN(3)) - 1
			}
			binary.LittleEndian.PutUint32(want[4*i:], wb)
			binary.LittleEndian.PutUint32(got[4*i:], gb)
		}
		impls := []struct {
			name string
			f    func(*Comparison)
		}{
			{"fast", func(c *Comparison) { compareFloat32(c, tol, want, got, 0xFF, 0) }},
			{"generic", func(c *Comparison) { compareGeneric(c, task.Float32, tol, want, got, 0xFF, 0) }},
		}
		if data.permill >= 0 {
			impls = impls[:1]
		}
		for _, impl := range impls {
			b.Run(data.name+"/"+impl.name, func(b *testing.B) {
				b.SetBytes(4 * n)
				for b.Loop() {
					c := Comparison{FirstBad: -1, Elements: n}
					impl.f(&c)
					if c.Mismatches != 0 {
						b.Fatal(c)
					}
				}
			})
		}
	}
}

// bytePair returns n reference and candidate bytes: runs of equal bytes
// (the 8-byte skip), small and large differences, zeros in the reference
// (no relative error) and the poison left in place.
func bytePair(n int, seed uint64) (want, got []byte) {
	r := rand.New(rand.NewPCG(seed, 3))
	want, got = make([]byte, n), make([]byte, n)
	for i := 0; i < n; i++ {
		w := byte(r.IntN(256))
		g := w
		switch r.IntN(10) {
		case 0:
			g = w + byte(r.IntN(3)) - 1
		case 1:
			g = byte(r.IntN(256))
		case 2:
			w, g = 0, byte(r.IntN(4))
		case 3:
			g = 0xFF
		}
		if r.IntN(4) == 0 { // a run of equal bytes
			for k := 0; k < 20 && i < n; k, i = k+1, i+1 {
				want[i], got[i] = w, w
			}
			i--
			continue
		}
		want[i], got[i] = w, g
	}
	return want, got
}

// TestCompareUint8MatchesGeneric holds the byte loop to the generic one,
// field by field, exact and with tolerances.
func TestCompareUint8MatchesGeneric(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		n := 3000 + int(seed) // tails of every length for the 8-byte skip
		want, got := bytePair(n, seed)
		poison := byte(seed * 37) // bytePair leaves 0xFF, which is the poison for some seeds only
		for _, tol := range []task.Tolerance{{}, {ATol: 1}, {ATol: 0, RTol: 0.1}} {
			fast := Comparison{FirstBad: -1, Elements: int64(n)}
			compareUint8(&fast, tol, want, got, poison, 0)
			slow := Comparison{FirstBad: -1, Elements: int64(n)}
			compareGeneric(&slow, task.Uint8, tol, want, got, poison, 0)
			if fast != slow {
				t.Fatalf("seed %d tol %+v:\nfast    %+v\ngeneric %+v", seed, tol, fast, slow)
			}
			if fast.Mismatches == 0 && tol == (task.Tolerance{}) {
				t.Fatalf("seed %d: the test data has no mismatch to find", seed)
			}
		}
	}
}

// TestCompareUint8EveryPair: every (reference, output) byte pair, under
// exact, absolute and relative tolerances and two poisons; and each
// relative error right after the next smaller one, the closest call the
// loop's filter for a new largest relative error has to make.
func TestCompareUint8EveryPair(t *testing.T) {
	type pair struct{ w, g byte }
	var byRel []pair
	for w := 1; w < 256; w++ {
		for g := 0; g < 256; g++ {
			if g != w {
				byRel = append(byRel, pair{byte(w), byte(g)})
			}
		}
	}
	rel := func(p pair) float64 { return math.Abs(float64(p.g)-float64(p.w)) / float64(p.w) }
	slices.SortFunc(byRel, func(a, b pair) int { return cmp.Compare(rel(a), rel(b)) })
	for i := 1; i < len(byRel); i++ {
		a, b := byRel[i-1], byRel[i]
		want, got := []byte{a.w, b.w}, []byte{a.g, b.g}
		fast, slow := Comparison{FirstBad: -1}, Comparison{FirstBad: -1}
		compareUint8(&fast, task.Tolerance{}, want, got, 0xFF, 0)
		compareGeneric(&slow, task.Uint8, task.Tolerance{}, want, got, 0xFF, 0)
		if fast != slow {
			t.Fatalf("%d/%d then %d/%d:\nfast    %+v\ngeneric %+v", a.g, a.w, b.g, b.w, fast, slow)
		}
	}

	want, got := make([]byte, 0, 2*256*256), make([]byte, 0, 2*256*256)
	for w := 0; w < 256; w++ {
		for g := 0; g < 256; g++ {
			// Each pair twice, once beside a differing byte, so that the
			// 8-byte skip does not pass over it.
			want, got = append(want, byte(w), byte(w)), append(got, byte(g), byte(w)+1)
		}
	}
	for _, tol := range []task.Tolerance{{}, {ATol: 3}, {RTol: 0.25}, {ATol: 1, RTol: 0.01}} {
		for _, poison := range []byte{0xFF, 0x00} {
			fast := Comparison{FirstBad: -1}
			compareUint8(&fast, tol, want, got, poison, 0)
			slow := Comparison{FirstBad: -1}
			compareGeneric(&slow, task.Uint8, tol, want, got, poison, 0)
			if fast != slow {
				t.Errorf("tol %+v poison %#x:\nfast    %+v\ngeneric %+v", tol, poison, fast, slow)
			}
		}
	}
}

// TestJudgeSplitsLargeOutputs: Judge compares an output of 2 x compareChunk
// elements in parts through Options.Parallel, and finds a mismatch that
// lies in the second part at its place in the array.
func TestJudgeSplitsLargeOutputs(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one CPU: Compare does not split")
	}
	n := 2 * compareChunk
	want := make([]byte, n)
	for i := range want {
		want[i] = byte(i)
	}
	got := append([]byte(nil), want...)
	got[n-5]++
	calls, parts := 0, 0
	opt := Options{Parallel: func(k int, part func(int)) {
		calls, parts = calls+1, parts+k
		for i := range k {
			part(i)
		}
	}}
	out := Output{Name: "y", Type: task.Uint8, Poison: 0xA5, Ref: [2][]byte{want, want}, Got: [2][]byte{got, got}}
	v, err := Judge([]ConfigRun{{Name: "large", Primary: true, Outputs: []Output{out}}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 || parts != 4 {
		t.Errorf("Parallel was called %d times for %d parts, want 2 calls (a seed each) of 2 parts", calls, parts)
	}
	if c := v.Configs[0]; c.Pass || c.Mismatches != 2 || !strings.Contains(c.Detail, fmt.Sprintf("first at [%d]", n-5)) {
		t.Errorf("want 1 mismatch per seed at [%d]: %+v", n-5, c)
	}
}

// TestCompareSplitMatchesOne: an array compared in parts gives the account
// of one pass, for each type's loop, also where the only mismatches lie in
// a later part (the first bad index is the array's, not the part's).
func TestCompareSplitMatchesOne(t *testing.T) {
	tol := task.Tolerance{ATol: 1e-5, RTol: 1e-5}
	f32w, f32g := float32Pair(4099, 7)
	u8w, u8g := bytePair(4099, 7)
	f64w, f64g := make([]byte, 8*1000), make([]byte, 8*1000)
	i32w, i32g := make([]byte, 4*1000), make([]byte, 4*1000)
	for i := 0; i < 1000; i++ {
		binary.LittleEndian.PutUint64(f64w[8*i:], math.Float64bits(float64(i)))
		binary.LittleEndian.PutUint64(f64g[8*i:], math.Float64bits(float64(i)*(1+float64(i%3)*1e-3)))
		binary.LittleEndian.PutUint32(i32w[4*i:], uint32(i))
		binary.LittleEndian.PutUint32(i32g[4*i:], uint32(i+i%5/4))
	}
	late := func(w, g []byte) ([]byte, []byte) { // mismatches only in the last fifth
		g = append([]byte(nil), g...)
		copy(g, w[:len(w)*4/5])
		return w, g
	}
	lf32w, lf32g := late(f32w, f32g)
	lu8w, lu8g := late(u8w, u8g)
	for _, c := range []struct {
		name      string
		d         task.DType
		want, got []byte
	}{
		{"float32", task.Float32, f32w, f32g}, {"uint8", task.Uint8, u8w, u8g},
		{"float64", task.Float64, f64w, f64g}, {"int32", task.Int32, i32w, i32g},
		{"float32 late", task.Float32, lf32w, lf32g}, {"uint8 late", task.Uint8, lu8w, lu8g},
	} {
		one := compareSplit(c.d, tol, c.want, c.got, 0xFF, 1, nil)
		if one.Mismatches == 0 || one.FirstBad < 0 {
			t.Fatalf("%s: the test data has no mismatch to find: %+v", c.name, one)
		}
		for parts := 2; parts <= 7; parts++ {
			if got := compareSplit(c.d, tol, c.want, c.got, 0xFF, parts, nil); got != one {
				t.Errorf("%s in %d parts:\n got %+v\nwant %+v", c.name, parts, got, one)
			}
			// One after another, as a caller's Parallel may run them.
			ran := 0
			serial := func(n int, part func(int)) {
				for i := n - 1; i >= 0; i-- {
					part(i)
					ran++
				}
			}
			if got := compareSplit(c.d, tol, c.want, c.got, 0xFF, parts, serial); got != one || ran != parts {
				t.Errorf("%s in %d parts run by Parallel (%d run):\n got %+v\nwant %+v", c.name, parts, ran, got, one)
			}
		}
	}
}

// BenchmarkCompareUint8 compares 120 M bytes that all differ (a wrong
// rgb_to_gray), with the byte loop and the generic one, in one goroutine.
func BenchmarkCompareUint8(b *testing.B) {
	const n = 120 << 20
	want, got := make([]byte, n), make([]byte, n)
	for i := range want {
		want[i], got[i] = byte(i*7), byte(i*7+1)
	}
	for _, impl := range []struct {
		name string
		f    func(*Comparison)
	}{
		{"fast", func(c *Comparison) { compareUint8(c, task.Tolerance{}, want, got, 0xFF, 0) }},
		{"generic", func(c *Comparison) { compareGeneric(c, task.Uint8, task.Tolerance{}, want, got, 0xFF, 0) }},
	} {
		b.Run(impl.name, func(b *testing.B) {
			b.SetBytes(n)
			for b.Loop() {
				c := Comparison{FirstBad: -1, Elements: n}
				impl.f(&c)
				if c.Mismatches != n {
					b.Fatal(c)
				}
			}
		})
	}
}
