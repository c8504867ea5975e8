package verdict

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/cudaperf/cudaperf/bench/task"
)

// Comparison is the element-wise comparison of one output array.
type Comparison struct {
	Elements   int64
	Mismatches int64   // elements outside tolerance
	PoisonLeft int64   // mismatching elements whose bytes are still the poison
	MaxAbsErr  float64 // over all elements; +Inf when a NaN was compared
	MaxRelErr  float64 // |out-ref| / |ref| where ref != 0
	FirstBad   int64   // index of the first mismatch, -1 if none
}

// Compare compares got with want, both raw little-endian arrays of d.
// poison is the byte the harness filled outputs with before the call.
func Compare(d task.DType, tol task.Tolerance, want, got []byte, poison byte) (Comparison, error) {
	return compare(d, tol, want, got, poison, nil)
}

// compare is Compare with the parts of a large output run by parallel
// (Options.Parallel; nil: a goroutine each).
func compare(d task.DType, tol task.Tolerance, want, got []byte, poison byte, parallel func(int, func(int))) (Comparison, error) {
	size := d.Size()
	c := Comparison{FirstBad: -1}
	if size == 0 {
		return c, fmt.Errorf("verdict: unknown type %q", d)
	}
	if len(want) != len(got) || len(want)%size != 0 {
		return c, fmt.Errorf("verdict: output has %d bytes, reference %d (type %s)", len(got), len(want), d)
	}
	c.Elements = int64(len(want) / size)
	if string(want) == string(got) {
		return c, nil // identical bytes: nothing to measure (and NaN-free, since the reference has none there)
	}
	return compareSplit(d, tol, want, got, poison, compareParts(c.Elements), parallel), nil
}

// compareChunk is the fewest elements Compare gives one goroutine. A
// wrong output is compared in full (every mismatch is counted), and one
// candidate's could hold the whole batch's last result: on a 16-CPU H100
// machine a wrong rgb_to_gray's 4 x 120 M bytes took 4.3 s to judge, the
// last 4.3 s of a 19.7 s batch
// (bench/h200/2026-12-05-lease13-h100/call3/gpu-rl-cold1.jsonl.gz). The
// CPU time is the same split or not; the wait is shorter where CPUs are
// free, as they are at a batch's end.
const compareChunk = 1 << 22

// compareParts is how many goroutines compare n elements.
func compareParts(n int64) int {
	return int(max(1, min(n/compareChunk, int64(runtime.GOMAXPROCS(0)), 16)))
}

// compareSplit compares want and got (the same length, a multiple of d's
// size) in parts ranges at once, run by parallel (nil: a goroutine each),
// and merges their accounts: counts add, maxima are the largest, the first
// mismatch is the earliest part's.
func compareSplit(d task.DType, tol task.Tolerance, want, got []byte, poison byte, parts int, parallel func(int, func(int))) Comparison {
	size := int64(d.Size())
	n := int64(len(want)) / size
	res := make([]Comparison, max(parts, 1))
	part := func(p int) {
		lo, hi := n*int64(p)/int64(len(res)), n*int64(p+1)/int64(len(res))
		res[p].FirstBad = -1
		compareRange(&res[p], d, tol, want[lo*size:hi*size], got[lo*size:hi*size], poison, lo)
	}
	switch {
	case len(res) == 1:
		part(0)
	case parallel != nil:
		parallel(len(res), part)
	default:
		InParallel(len(res), part)
	}
	c := Comparison{Elements: n, FirstBad: -1}
	for _, r := range res {
		c.Mismatches += r.Mismatches
		c.PoisonLeft += r.PoisonLeft
		c.MaxAbsErr = math.Max(c.MaxAbsErr, r.MaxAbsErr)
		c.MaxRelErr = math.Max(c.MaxRelErr, r.MaxRelErr)
		if c.FirstBad < 0 {
			c.FirstBad = r.FirstBad
		}
	}
	return c
}

// InParallel runs part(0), ..., part(n-1), each on a goroutine of its
// own, and returns when all have returned: Options.Parallel's default,
// and the fan-out a caller's own Parallel may wrap.
func InParallel(n int, part func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			part(i)
		}()
	}
	wg.Wait()
}

// compareRange compares the elements of want and got, the first of which
// is element base of the array, into c, by the loop for d.
func compareRange(c *Comparison, d task.DType, tol task.Tolerance, want, got []byte, poison byte, base int64) {
	switch d {
	case task.Float32:
		compareFloat32(c, tol, want, got, poison, base)
	case task.Uint8:
		compareUint8(c, tol, want, got, poison, base)
	default:
		compareGeneric(c, d, tol, want, got, poison, base)
	}
}

// compareGeneric compares element by element through float64 values, for
// any type (Compare's path for the types without a loop of their own).
func compareGeneric(c *Comparison, d task.DType, tol task.Tolerance, want, got []byte, poison byte, base int64) {
	size := d.Size()
	for i := int64(0); i < int64(len(want)/size); i++ {
		w, g := want[i*int64(size):(i+1)*int64(size)], got[i*int64(size):(i+1)*int64(size)]
		rv, ov := value(d, w), value(d, g)
		diff := math.Abs(ov - rv)
		if math.IsNaN(diff) {
			diff = math.Inf(1)
		}
		c.MaxAbsErr = math.Max(c.MaxAbsErr, diff)
		if rv != 0 && !math.IsInf(diff, 1) {
			c.MaxRelErr = math.Max(c.MaxRelErr, diff/math.Abs(rv))
		}
		var ok bool
		if d.IsFloat() {
			ok = diff <= tol.ATol+tol.RTol*math.Abs(rv)
		} else {
			// Integers: exact unless the task gives a tolerance; compare
			// bytes so int64 values beyond 2^53 stay exact.
			ok = string(w) == string(g) || diff <= tol.ATol+tol.RTol*math.Abs(rv)
		}
		if ok {
			continue
		}
		c.Mismatches++
		if c.FirstBad < 0 {
			c.FirstBad = base + i
		}
		if allBytes(g, poison) {
			c.PoisonLeft++
		}
	}
}

// compareUint8 is compareGeneric for bytes (images: rgb_to_gray's output
// is 120 M of them): equal 8-byte words are skipped, and the others are
// compared as integers, which compareGeneric's float64 values agree with
// (TestCompareUint8MatchesGeneric).
func compareUint8(c *Comparison, tol task.Tolerance, want, got []byte, poison byte, base int64) {
	// Each reference value's tolerance, once: the loop then does no
	// floating-point arithmetic but for a new largest relative error.
	var limit [256]float64
	for w := range limit {
		limit[w] = tol.ATol + tol.RTol*float64(w)
	}
	maxAbs, maxRel := 0, c.MaxRelErr
	n := min(len(want), len(got))
	for i := 0; i < n; i++ {
		if i+8 <= n && binary.LittleEndian.Uint64(want[i:]) == binary.LittleEndian.Uint64(got[i:]) {
			i += 7
			continue
		}
		w, g := want[i], got[i]
		if w == g {
			continue // a difference of 0: within any tolerance, no error to record
		}
		d := int(g) - int(w)
		if d < 0 {
			d = -d
		}
		maxAbs = max(maxAbs, d)
		// A byte's relative errors differ by far more than a rounding
		// (1/255^2 at least), so the product rules out what the quotient
		// would not raise; that holds for a maxRel that is 0 or such a
		// ratio, as each part's fresh account starts it
		// (TestCompareUint8EveryPair tries each ratio after the next
		// smaller one).
		if w != 0 && float64(d) > maxRel*float64(w) {
			maxRel = math.Max(maxRel, float64(d)/float64(w))
		}
		if float64(d) <= limit[w] {
			continue
		}
		c.Mismatches++
		if c.FirstBad < 0 {
			c.FirstBad = base + int64(i)
		}
		if g == poison {
			c.PoisonLeft++
		}
	}
	c.MaxAbsErr, c.MaxRelErr = math.Max(c.MaxAbsErr, float64(maxAbs)), maxRel
}

func allBytes(b []byte, v byte) bool {
	for _, x := range b {
		if x != v {
			return false
		}
	}
	return true
}

func value(d task.DType, b []byte) float64 {
	switch d {
	case task.Float32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case task.Float64:
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	case task.Int32:
		return float64(int32(binary.LittleEndian.Uint32(b)))
	case task.Int64:
		return float64(int64(binary.LittleEndian.Uint64(b)))
	case task.Uint32:
		return float64(binary.LittleEndian.Uint32(b))
	case task.Uint8:
		return float64(b[0])
	case task.Float16:
		return HalfValue(binary.LittleEndian.Uint16(b))
	case task.BFloat16:
		return float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b)) << 16))
	}
	return math.NaN()
}

// compareFloat32 is Compare's loop specialised for the common type: large
// outputs have tens of millions of elements.
func compareFloat32(c *Comparison, tol task.Tolerance, want, got []byte, poison byte, base int64) {
	// The judge compares every output of every candidate (two 134 MB
	// arrays for vector_add's large configuration), so this loop is a
	// large part of the evaluator's CPU time. Blocks whose bytes are equal
	// and whose reference values are finite are skipped whole (a memory
	// comparison); the others are compared element by element without a
	// branch on equality, which an output that differs from the reference
	// in a random half of its elements by an ulp (gelu's, whose tanh or
	// erf differs from the C reference's) mispredicted for most of its
	// elements. TestCompareFloat32MatchesGeneric holds it to
	// compareGeneric.
	const block = 4 * 64 // bytes
	s := f32state{poisonBits: uint32(poison) * 0x01010101, tol: tol, maxAbs: c.MaxAbsErr, maxRel: c.MaxRelErr, first: c.FirstBad}
	i := int(base)
	for len(want) >= block && len(got) >= block {
		w, g := want[:block], got[:block]
		if string(w) != string(g) || !finite32(w) {
			s.compare(w, g, i)
		}
		want, got, i = want[block:], got[block:], i+block/4
	}
	s.compare(want, got, i)
	c.Mismatches += s.mismatches
	c.PoisonLeft += s.poisonLeft
	c.MaxAbsErr, c.MaxRelErr, c.FirstBad = s.maxAbs, s.maxRel, s.first
}

// finite32 reports whether no float32 of b is an infinity or a NaN.
func finite32(b []byte) bool {
	const exp = 0x7f800000_7f800000
	for ; len(b) >= 8; b = b[8:] {
		t := binary.LittleEndian.Uint64(b)&exp ^ exp
		if uint32(t) == 0 || t>>32 == 0 {
			return false
		}
	}
	return len(b) < 4 || binary.LittleEndian.Uint32(b)&0x7f800000 != 0x7f800000
}

// f32state is compareFloat32's running account.
type f32state struct {
	poisonBits             uint32
	tol                    task.Tolerance
	maxAbs, maxRel         float64
	mismatches, poisonLeft int64
	first                  int64
}

// compare compares the elements of want and got, the first of which is
// element base of the array, exactly as compareGeneric does. Equal
// elements take the same path as the others (their difference is 0),
// except a non-finite reference value: a NaN is a mismatch however it was
// reproduced, and an infinity reproduced is within tolerance only where
// its limit is infinite (RTol > 0 or an infinite ATol).
//
// An element within tolerance (diff <= limit, false for a NaN difference
// or limit) is the common case, so it is tested first; it then branches
// only where its error is the largest yet. The rest (a NaN, a mismatch)
// follows the generic order. The loop indexes both arrays instead of
// re-slicing them, so each element costs two loads and no slice-header
// updates. On a profile of the benchmarker plugin through an RL batch
// (bench/h200/2026-12-06-lease22-h100) this loop was half the plugin's
// own CPU time; BenchmarkCompareFloat32 (bench/RESULTS.md) went from
// 111-118 to 81-82 ms an array.
func (s *f32state) compare(want, got []byte, base int) {
	maxAbs, maxRel := s.maxAbs, s.maxRel
	atol, rtol := s.tol.ATol, s.tol.RTol
	n := min(len(want), len(got)) &^ 3
	want, got = want[:n], got[:n]
	for j := 0; j < len(want); j += 4 {
		wb := binary.LittleEndian.Uint32(want[j : j+4])
		gb := binary.LittleEndian.Uint32(got[j : j+4])
		rv := float64(math.Float32frombits(wb))
		diff := math.Abs(float64(math.Float32frombits(gb)) - rv)
		arv := math.Abs(rv)
		if diff <= atol+rtol*arv {
			if diff > maxAbs {
				maxAbs = diff
			}
			if diff > maxRel*arv && rv != 0 && !math.IsInf(diff, 1) {
				if r := diff / arv; r > maxRel {
					maxRel = r
				}
			}
			continue
		}
		if diff != diff { // NaN: an infinite error, within an infinite limit only
			diff = math.Inf(1)
		}
		if diff > maxAbs {
			maxAbs = diff
		}
		if rv != 0 && diff > maxRel*arv && !math.IsInf(diff, 1) {
			if r := diff / arv; r > maxRel {
				maxRel = r
			}
		}
		if diff <= atol+rtol*arv { // a NaN made infinite within an infinite limit
			continue
		}
		s.mismatches++
		if s.first < 0 {
			s.first = int64(base + j/4)
		}
		if gb == s.poisonBits {
			s.poisonLeft++
		}
	}
	s.maxAbs, s.maxRel = maxAbs, maxRel
}

// HalfValue is the value of IEEE binary16 bits h.
func HalfValue(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10)&0x1F, float64(h&0x3FF)
	switch e {
	case 0x1F:
		if m != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	case 0:
		return sign * math.Ldexp(m, -24) // subnormal
	}
	return sign * math.Ldexp(1+m/1024, e-15)
}
