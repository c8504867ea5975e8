package affine

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Kind says how much is known about a value.
type Kind uint8

const (
	// Affine: the value is exactly Const + Σ Coef·Mono.
	Affine Kind = iota
	// NonAffine: the value is a known function of Deps (e.g. tid % 32,
	// n / 3) that is not a sum of monomials.
	NonAffine
	// Unknown: the value depends on memory or calls (a[b[i]], f(x)).
	Unknown
)

func (k Kind) String() string {
	switch k {
	case Affine:
		return "affine"
	case NonAffine:
		return "non-affine"
	default:
		return "unknown"
	}
}

// Term is one coefficient·monomial of a Form. Mono is the product of its
// symbols, sorted and joined by "*".
type Term struct {
	Mono string
	Coef int64
}

// Form is a symbolic value. The zero Form is the affine constant 0.
type Form struct {
	Kind  Kind
	Const int64
	terms []Term   // sorted by Mono, no zero coefficients (Affine only)
	deps  []string // sorted symbols a NonAffine or Unknown value depends on
}

// Const returns the affine constant c.
func Const(c int64) Form { return Form{Const: c} }

// Sym returns the affine form 1·s.
func Sym(s string) Form { return Form{terms: []Term{{Mono: s, Coef: 1}}} }

// Opaque returns a form of the given non-affine kind depending on deps.
func Opaque(k Kind, deps ...string) Form {
	if k == Affine {
		k = NonAffine
	}
	f := Form{Kind: k}
	for _, d := range deps {
		f.deps = addSorted(f.deps, d)
	}
	return f
}

// Terms returns the monomials of an affine form, sorted by monomial.
func (f Form) Terms() []Term { return f.terms }

// Int reports the value of a constant affine form.
func (f Form) Int() (int64, bool) {
	return f.Const, f.Kind == Affine && len(f.terms) == 0
}

// Coef returns the coefficient of the monomial mono (0 when absent).
func (f Form) Coef(mono string) int64 {
	for _, t := range f.terms {
		if t.Mono == mono {
			return t.Coef
		}
	}
	return 0
}

// Symbols returns every symbol the value depends on, sorted.
func (f Form) Symbols() []string {
	var out []string
	for _, t := range f.terms {
		for _, s := range Factors(t.Mono) {
			out = addSorted(out, s)
		}
	}
	for _, d := range f.deps {
		out = addSorted(out, d)
	}
	return out
}

// eachSymbol calls fn with every symbol of f, unsorted and possibly
// repeated, without building the list Symbols returns; it stops and
// returns false when fn does. Dependence tests run on every evaluated
// expression, so they go through here.
func (f Form) eachSymbol(fn func(string) bool) bool {
	for _, t := range f.terms {
		if !eachFactor(t.Mono, fn) {
			return false
		}
	}
	for _, d := range f.deps {
		if !fn(d) {
			return false
		}
	}
	return true
}

// DependsOn reports whether any symbol of f satisfies pred.
func (f Form) DependsOn(pred func(sym string) bool) bool {
	return !f.eachSymbol(func(s string) bool { return !pred(s) })
}

// Mentions reports whether sym is one of f's symbols.
func (f Form) Mentions(sym string) bool {
	return !f.eachSymbol(func(s string) bool { return s != sym })
}

// ThreadDependent reports whether f depends on threadIdx.
func (f Form) ThreadDependent() bool { return f.DependsOn(IsThreadSym) }

// Equal reports whether two forms are the same value.
func (f Form) Equal(g Form) bool {
	if f.Kind != g.Kind || f.Kind != Affine {
		return false // non-affine values are never known to be equal
	}
	if f.Const != g.Const || len(f.terms) != len(g.terms) {
		return false
	}
	for i := range f.terms {
		if f.terms[i] != g.terms[i] {
			return false
		}
	}
	return true
}

// String renders the form, e.g. "blockDim.x*blockIdx.x + threadIdx.x + 1",
// "non-affine(threadIdx.x)" or "unknown".
func (f Form) String() string {
	if f.Kind != Affine {
		if len(f.deps) == 0 {
			return f.Kind.String()
		}
		return f.Kind.String() + "(" + strings.Join(f.deps, ", ") + ")"
	}
	var b strings.Builder
	for i, t := range f.terms {
		c := t.Coef
		switch {
		case i == 0 && c < 0:
			b.WriteString("-")
			c = -c
		case i > 0 && c < 0:
			b.WriteString(" - ")
			c = -c
		case i > 0:
			b.WriteString(" + ")
		}
		if c != 1 {
			b.WriteString(strconv.FormatInt(c, 10))
			b.WriteString("*")
		}
		b.WriteString(t.Mono)
	}
	switch {
	case len(f.terms) == 0:
		b.WriteString(strconv.FormatInt(f.Const, 10))
	case f.Const > 0:
		b.WriteString(" + " + strconv.FormatInt(f.Const, 10))
	case f.Const < 0:
		b.WriteString(" - " + strconv.FormatInt(-f.Const, 10))
	}
	return b.String()
}

// Add returns f + g.
func (f Form) Add(g Form) Form {
	if f.Kind != Affine || g.Kind != Affine {
		return join(f, g)
	}
	out := Form{Const: f.Const + g.Const}
	switch {
	case len(g.terms) == 0 && noZero(f.terms):
		out.terms = f.terms // adding a constant: share the terms (forms are values)
	case len(f.terms) == 0 && noZero(g.terms):
		out.terms = g.terms
	default:
		out.terms = mergeTerms(f.terms, g.terms, 1)
	}
	return out
}

// Sub returns f − g.
func (f Form) Sub(g Form) Form {
	if f.Kind != Affine || g.Kind != Affine {
		return join(f, g)
	}
	out := Form{Const: f.Const - g.Const}
	if len(g.terms) == 0 && noZero(f.terms) {
		out.terms = f.terms
	} else {
		out.terms = mergeTerms(f.terms, g.terms, -1)
	}
	return out
}

// noZero reports whether ts is non-empty and has no zero coefficient, so
// that it is what mergeTerms would make of it with nothing to merge.
func noZero(ts []Term) bool {
	for _, t := range ts {
		if t.Coef == 0 {
			return false
		}
	}
	return len(ts) > 0
}

// Scale returns k·f.
func (f Form) Scale(k int64) Form {
	if f.Kind != Affine {
		return f
	}
	if k == 0 {
		return Form{}
	}
	out := Form{Const: f.Const * k}
	for _, t := range f.terms {
		out.terms = append(out.terms, Term{Mono: t.Mono, Coef: t.Coef * k})
	}
	return out
}

// Mul returns f·g, multiplying out monomials.
func (f Form) Mul(g Form) Form {
	if f.Kind != Affine || g.Kind != Affine {
		if c, ok := f.Int(); ok && c == 0 {
			return Form{}
		}
		if c, ok := g.Int(); ok && c == 0 {
			return Form{}
		}
		return join(f, g)
	}
	out := Const(f.Const * g.Const)
	if len(f.terms) == 0 && len(g.terms) == 0 {
		return out
	}
	// Every product term in one list, then sorted and summed per monomial:
	// the sum Add would build term by term, with one allocation (integer
	// sums wrap the same in any order).
	ts := make([]Term, 0, len(f.terms)*(len(g.terms)+1)+len(g.terms))
	for _, t := range f.terms {
		ts = append(ts, Term{Mono: t.Mono, Coef: t.Coef * g.Const})
		for _, u := range g.terms {
			ts = append(ts, Term{Mono: mulMono(t.Mono, u.Mono), Coef: t.Coef * u.Coef})
		}
	}
	for _, u := range g.terms {
		ts = append(ts, Term{Mono: u.Mono, Coef: u.Coef * f.Const})
	}
	slices.SortStableFunc(ts, func(a, b Term) int { return strings.Compare(a.Mono, b.Mono) })
	merged := ts[:0]
	for _, t := range ts {
		if n := len(merged); n > 0 && merged[n-1].Mono == t.Mono {
			merged[n-1].Coef += t.Coef
		} else {
			merged = append(merged, t)
		}
	}
	out.terms = dropZero(merged)
	return out
}

// Div returns f / c with C integer semantics. It is exact (Affine) when f is
// constant or every coefficient and the constant are multiples of c;
// otherwise NonAffine.
func (f Form) Div(g Form) Form {
	c, ok := g.Int()
	if f.Kind != Affine || !ok || c == 0 {
		return join(f, g).nonAffine()
	}
	if v, ok := f.Int(); ok {
		return Const(v / c)
	}
	if f.Const%c != 0 {
		return f.inexact("/", c)
	}
	for _, t := range f.terms {
		if t.Coef%c != 0 {
			return f.inexact("/", c)
		}
	}
	out := Form{Const: f.Const / c}
	for _, t := range f.terms {
		out.terms = append(out.terms, Term{Mono: t.Mono, Coef: t.Coef / c})
	}
	return out
}

// Rem returns f % g; exact only for constants (or when every coefficient
// is a multiple of the constant divisor, which makes the remainder the
// constant's).
func (f Form) Rem(g Form) Form {
	c, ok := g.Int()
	if f.Kind != Affine || !ok || c == 0 {
		return join(f, g).nonAffine()
	}
	for _, t := range f.terms {
		if t.Coef%c != 0 {
			return f.inexact("%", c)
		}
	}
	if len(f.terms) > 0 && f.Const < 0 {
		return f.inexact("%", c) // sign of the result depends on the symbols
	}
	return Const(f.Const % c)
}

// inexact is f op c that does not simplify: an atom when f depends on the
// thread, else NonAffine.
func (f Form) inexact(op string, c int64) Form {
	if a, ok := threadAtom(f, op, c); ok {
		return a
	}
	if f.Kind == Affine && !f.DependsOn(laneOrBlockVarying) {
		// k / 2 of a uniform k: one unknown value for the whole grid,
		// kept as a symbol of its own so that i + k/2 stays affine in
		// the thread (an index's lanes can still be laid out).
		return Sym("[" + f.String() + "]" + op + strconv.FormatInt(c, 10))
	}
	return f.nonAffine()
}

// laneOrBlockVarying reports whether a symbol differs between threads or
// blocks (threadIdx, blockIdx, atoms of them).
func laneOrBlockVarying(s string) bool {
	if IsThreadSym(s) || strings.HasPrefix(s, "blockIdx.") || strings.HasPrefix(s, "(") {
		return true
	}
	return false
}

// nonAffine demotes an affine form to NonAffine over its symbols.
func (f Form) nonAffine() Form {
	if f.Kind != Affine {
		return f
	}
	out := Form{Kind: NonAffine}
	f.eachSymbol(func(s string) bool { out.deps = addSorted(out.deps, s); return true })
	return out
}

// join combines the dependencies of operands that are not both affine.
func join(fs ...Form) Form {
	out := Form{Kind: NonAffine}
	n := 0
	for _, f := range fs {
		if f.Kind > out.Kind {
			out.Kind = f.Kind
		}
		f.eachSymbol(func(string) bool { n++; return true })
	}
	if n == 0 {
		return out
	}
	// One allocation: every symbol, then sorted and without repeats.
	deps := make([]string, 0, n)
	for _, f := range fs {
		f.eachSymbol(func(s string) bool { deps = append(deps, s); return true })
	}
	slices.Sort(deps)
	out.deps = slices.Clip(slices.Compact(deps))
	return out
}

// Factors splits a monomial into its symbols. Atoms carry their
// definition in parentheses, "(blockDim.x*blockIdx.x + threadIdx.x)%32", so
// only a * outside parentheses separates factors.
func Factors(mono string) []string {
	if !strings.Contains(mono, "(") {
		return strings.Split(mono, "*")
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(mono); i++ {
		switch mono[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '*':
			if depth == 0 {
				out = append(out, mono[start:i])
				start = i + 1
			}
		}
	}
	return append(out, mono[start:])
}

// eachFactor calls fn with every factor of mono, as Factors splits it,
// without allocating; it stops and returns false when fn does. Lane
// evaluation (32 evaluations per warp of every index) goes through here.
func eachFactor(mono string, fn func(string) bool) bool {
	depth, start := 0, 0
	for i := 0; i < len(mono); i++ {
		switch mono[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '*':
			if depth == 0 {
				if !fn(mono[start:i]) {
					return false
				}
				start = i + 1
			}
		}
	}
	return fn(mono[start:])
}

func mulMono(a, b string) string {
	if simpleMono(a) && simpleMono(b) {
		// Two symbols (the common case): what sorting the factors gives.
		if b < a {
			a, b = b, a
		}
		return a + "*" + b
	}
	fs := append(Factors(a), Factors(b)...)
	sort.Strings(fs)
	return strings.Join(fs, "*")
}

// simpleMono reports a monomial that is one plain symbol (no product, no
// atom).
func simpleMono(m string) bool { return !strings.ContainsAny(m, "*(") }

func mergeTerms(a, b []Term, sign int64) []Term {
	out := make([]Term, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || (i < len(a) && a[i].Mono < b[j].Mono):
			out = append(out, a[i])
			i++
		case i >= len(a) || b[j].Mono < a[i].Mono:
			out = append(out, Term{Mono: b[j].Mono, Coef: sign * b[j].Coef})
			j++
		default:
			out = append(out, Term{Mono: a[i].Mono, Coef: a[i].Coef + sign*b[j].Coef})
			i++
			j++
		}
	}
	return dropZero(out)
}

func dropZero(ts []Term) []Term {
	out := ts[:0]
	for _, t := range ts {
		if t.Coef != 0 {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func addSorted(list []string, s string) []string {
	i := sort.SearchStrings(list, s)
	if i < len(list) && list[i] == s {
		return list
	}
	list = append(list, "")
	copy(list[i+1:], list[i:])
	list[i] = s
	return list
}

// IsThreadSym reports whether s is threadIdx.x, threadIdx.y or threadIdx.z,
// or an atom computed from them.
func IsThreadSym(s string) bool {
	if strings.HasPrefix(s, "threadIdx.") {
		return true
	}
	a, ok := lookupAtom(s)
	return ok && a.inner.ThreadDependent()
}

// IsBuiltinUniform reports whether s is a built-in that is the same for all
// threads of a block: blockIdx.*, blockDim.*, gridDim.*.
func IsBuiltinUniform(s string) bool {
	return strings.HasPrefix(s, "blockIdx.") || strings.HasPrefix(s, "blockDim.") || strings.HasPrefix(s, "gridDim.")
}

// Subst replaces symbols by forms (a device function's parameters by the
// caller's arguments). Symbols without a binding stay.
func (f Form) Subst(bind map[string]Form) Form {
	if len(bind) == 0 {
		return f
	}
	if f.Kind != Affine {
		var deps []Form
		for _, d := range f.deps {
			if b, ok := bind[d]; ok {
				deps = append(deps, b)
			} else {
				deps = append(deps, Sym(d))
			}
		}
		out := join(deps...)
		out.Kind = f.Kind
		return out
	}
	out := Const(f.Const)
	for _, t := range f.terms {
		term := Const(t.Coef)
		for _, s := range Factors(t.Mono) {
			if b, ok := bind[s]; ok {
				term = term.Mul(b)
			} else {
				term = term.Mul(Sym(s))
			}
		}
		out = out.Add(term)
	}
	return out
}
