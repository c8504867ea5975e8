package affine

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// An atom is a thread-dependent value that is not a sum of monomials but
// is a known function of one: tid / 16, tid % 32, tid & 31, (tid ^ 1). It
// is kept as a symbol, named after its definition ("(threadIdx.x)%16"), so
// that an index such as 16*(tid/16) + tid%16 stays an affine form over
// symbols whose value in each lane can still be computed (LaneValue). The
// 2-D decomposition tx = t % 16, ty = t / 16 of a 1-D block is the common
// case.
type atom struct {
	inner Form
	op    string // "/", "%", "&", "|", "^"
	c     int64
}

// atoms interns atom definitions by name. Names determine definitions, so
// the table only grows and is shared by all files.
var atoms sync.Map // string → atom

func makeAtom(inner Form, op string, c int64) Form {
	name := "(" + inner.String() + ")" + op + strconv.FormatInt(c, 10)
	atoms.LoadOrStore(name, atom{inner: inner, op: op, c: c})
	return Sym(name)
}

func lookupAtom(s string) (atom, bool) {
	if !strings.HasPrefix(s, "(") {
		return atom{}, false
	}
	v, ok := atoms.Load(s)
	if !ok {
		return atom{}, false
	}
	return v.(atom), true
}

// IsAtom reports whether symbol s is an atom, and its operator.
func IsAtom(s string) (op string, ok bool) {
	a, ok := lookupAtom(s)
	return a.op, ok
}

// HasAtoms reports whether an affine form contains atoms; with periodic
// ones (% & | ^), when periodic is true, only those count.
func (f Form) HasAtoms(periodic bool) bool {
	for _, t := range f.terms {
		for _, s := range Factors(t.Mono) {
			if a, ok := lookupAtom(s); ok && (!periodic || a.op != "/") {
				return true
			}
		}
	}
	return false
}

// threadAtom makes an atom when f depends on the thread; otherwise it
// reports false and the caller keeps its uniform non-affine result.
func threadAtom(f Form, op string, c int64) (Form, bool) {
	if f.Kind != Affine || !f.ThreadDependent() {
		return Form{}, false
	}
	return makeAtom(f, op, c), true
}

// LaneValue evaluates an affine form with the symbols given by val; atoms
// are evaluated from their definitions. ok is false when val does not know
// a symbol or the form is not affine.
func (f Form) LaneValue(val func(sym string) (int64, bool)) (int64, bool) {
	if f.Kind != Affine {
		return 0, false
	}
	sum := f.Const
	for _, t := range f.terms {
		p := t.Coef
		if !eachFactor(t.Mono, func(s string) bool {
			v, ok := symValue(s, val)
			p *= v
			return ok
		}) {
			return 0, false
		}
		sum += p
	}
	return sum, true
}

func symValue(s string, val func(string) (int64, bool)) (int64, bool) {
	if a, ok := lookupAtom(s); ok {
		x, ok := a.inner.LaneValue(val)
		if !ok {
			return 0, false
		}
		switch a.op {
		case "/":
			return x / a.c, true
		case "%":
			return x % a.c, true
		case "&":
			return x & a.c, true
		case "|":
			return x | a.c, true
		case "^":
			return x ^ a.c, true
		}
		return 0, false
	}
	return val(s)
}

// Warp evaluates an index for the 32 lanes of a warp: threadIdx.x = lane,
// threadIdx.y = threadIdx.z = 0 (rows of a block are assumed to be whole
// warps, blockDim.x ≥ 32), and every other symbol a distinct large
// multiple of 64. The large values stand for problem sizes: a term such as
// K*threadIdx.x then puts neighbouring lanes far apart, as a matrix
// dimension does, while terms without the thread index only shift all
// lanes alike (keeping 256-byte alignment). symbolic lists the monomials
// that multiply the thread index by such a symbol (the "K" of K*tid).
// ok is false for forms that are not affine.
func (f Form) Warp() (lanes [32]int64, symbolic []string, ok bool) {
	return f.WarpFrom(0)
}

// WarpFrom is Warp for the warp whose lane 0 has threadIdx.x = first (a
// multiple of 32): comparing warps 0 and 1 tells a pattern that repeats in
// every warp (tid % 32) from one that moves on (tid).
func (f Form) WarpFrom(first int64) (lanes [32]int64, symbolic []string, ok bool) {
	return f.WarpShape(first, 0)
}

// WarpShape is WarpFrom for blocks blockX threads wide. When blockX is
// below 32 a warp spans several rows: lane l has threadIdx.x = (first+l) %
// blockX and threadIdx.y = (first+l) / blockX (a 16×16 block puts two rows
// in each warp). blockX 0 (unknown) or ≥ 32 is the whole-warp-rows case.
func (f Form) WarpShape(first, blockX int64) (lanes [32]int64, symbolic []string, ok bool) {
	rows := blockX > 0 && blockX < 32
	varying := func(s string) bool {
		if rows && s == "threadIdx.y" {
			return true
		}
		return laneVarying(s)
	}
	if f.Kind != Affine {
		return lanes, nil, false
	}
	// The uniform symbols, sorted: their rank gives their value. Most
	// forms have a handful, so a sorted slice beats a map.
	var buf [8]string
	uniform := uniformSyms(f, buf[:0])
	slices.Sort(uniform)
	uniform = slices.Compact(uniform)
	for _, t := range f.terms {
		lane := false
		eachFactor(t.Mono, func(s string) bool {
			lane = lane || varying(s)
			return !lane
		})
		if !lane {
			continue
		}
		var u []string
		eachFactor(t.Mono, func(s string) bool {
			if !varying(s) && !IsThreadSym(s) {
				u = append(u, s)
			}
			return true
		})
		if len(u) > 0 {
			symbolic = append(symbolic, strings.Join(u, "*"))
		}
	}
	var tidX, tidY, zero [32]int64
	for l := int64(0); l < 32; l++ {
		if rows {
			tidX[l], tidY[l] = (first+l)%blockX, (first+l)/blockX
		} else {
			tidX[l] = first + l
		}
	}
	lanes, ok = f.warpValue(func(s string) ([32]int64, bool) {
		switch s {
		case "threadIdx.x":
			return tidX, true
		case "threadIdx.y":
			return tidY, true
		case "threadIdx.z":
			return zero, true
		}
		if i := sort.SearchStrings(uniform, s); i < len(uniform) && uniform[i] == s {
			var u [32]int64
			for l := range u {
				u[l] = 4096 + 64*int64(i)
			}
			return u, true
		}
		return zero, false
	})
	if !ok {
		return [32]int64{}, nil, false
	}
	return lanes, symbolic, true
}

// uniformSyms appends to dst the symbols of f, and of the atoms in it, that
// do not depend on the thread (with repeats).
func uniformSyms(f Form, dst []string) []string {
	f.eachSymbol(func(s string) bool {
		if a, ok := lookupAtom(s); ok {
			dst = uniformSyms(a.inner, dst)
		} else if !IsThreadSym(s) {
			dst = append(dst, s)
		}
		return true
	})
	return dst
}

// warpValue is LaneValue for the 32 lanes of a warp at once, val giving a
// symbol's value in every lane: the same arithmetic lane by lane, but the
// form's factors and atoms are looked up once per warp instead of once per
// lane (this was the largest cost of coalescing and bank-conflict analysis).
func (f Form) warpValue(val func(sym string) ([32]int64, bool)) (sum [32]int64, ok bool) {
	if f.Kind != Affine {
		return sum, false
	}
	for l := range sum {
		sum[l] = f.Const
	}
	for _, t := range f.terms {
		var p [32]int64
		for l := range p {
			p[l] = t.Coef
		}
		if !eachFactor(t.Mono, func(s string) bool {
			v, ok := symWarpValue(s, val)
			for l := range p {
				p[l] *= v[l]
			}
			return ok
		}) {
			return sum, false
		}
		for l := range sum {
			sum[l] += p[l]
		}
	}
	return sum, true
}

// symWarpValue is symValue for a whole warp.
func symWarpValue(s string, val func(string) ([32]int64, bool)) ([32]int64, bool) {
	a, ok := lookupAtom(s)
	if !ok {
		return val(s)
	}
	x, ok := a.inner.warpValue(val)
	if !ok {
		return x, false
	}
	for l := range x {
		switch a.op {
		case "/":
			x[l] /= a.c
		case "%":
			x[l] %= a.c
		case "&":
			x[l] &= a.c
		case "|":
			x[l] |= a.c
		case "^":
			x[l] ^= a.c
		default:
			return x, false
		}
	}
	return x, true
}

// laneVarying reports whether a symbol differs between the lanes of a warp:
// threadIdx.x, or an atom computed from it.
func laneVarying(s string) bool {
	if s == "threadIdx.x" {
		return true
	}
	a, ok := lookupAtom(s)
	return ok && a.inner.DependsOn(laneVarying)
}
