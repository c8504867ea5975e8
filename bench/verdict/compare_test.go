package verdict

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
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
			compareFloat32(&fast, tol, want, got, 0xFF)
			slow := Comparison{FirstBad: -1, Elements: 5000}
			compareGeneric(&slow, task.Float32, tol, want, got, 0xFF)
			if fast != slow {
				t.Fatalf("seed %d tol %+v:\nfast    %+v\ngeneric %+v", seed, tol, fast, slow)
			}
		}
	}
}

// BenchmarkCompareFloat32 is the judge's comparison of one output of 32 Mi
// float32 elements, all within tolerance but not identical (the worst case
// for an honest candidate). Results in bench/RESULTS.md.
func BenchmarkCompareFloat32(b *testing.B) {
	const n = 32 << 20
	want, got := make([]byte, 4*n), make([]byte, 4*n)
	for i := 0; i < n; i++ {
		v := float32(i%1000) * 0.5
		binary.LittleEndian.PutUint32(want[4*i:], math.Float32bits(v))
		binary.LittleEndian.PutUint32(got[4*i:], math.Float32bits(v*(1+1e-7)))
	}
	tol := task.Tolerance{ATol: 1e-5, RTol: 1e-5}
	for _, impl := range []struct {
		name string
		f    func(*Comparison)
	}{
		{"fast", func(c *Comparison) { compareFloat32(c, tol, want, got, 0xFF) }},
		{"generic", func(c *Comparison) { compareGeneric(c, task.Float32, tol, want, got, 0xFF) }},
	} {
		b.Run(impl.name, func(b *testing.B) {
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
