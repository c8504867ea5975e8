package tripcount

import (
	"fmt"
	"strings"

	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// Weights for loops whose count is not a known constant (see the package
// doc).
const (
	DefaultTrips = 16
	LogTrips     = 8
)

// maxSimulate bounds the steps taken to count a constant geometric loop.
const maxSimulate = 128

// Kind classifies a loop's trip count.
type Kind uint8

const (
	Unknown Kind = iota
	Constant
	Symbolic
	GridStride
)

func (k Kind) String() string {
	switch k {
	case Constant:
		return "constant"
	case Symbolic:
		return "symbolic"
	case GridStride:
		return "grid-stride"
	}
	return "unknown"
}

// Loop is one for, while or do statement.
type Loop struct {
	Node  *syntax.Node
	Var   string // induction variable ("" when not found)
	Kind  Kind
	Trips int64  // for Constant
	Expr  string // the count: "16", "n", "(n - 1) / 4", "log2(blockDim.x)", "n / (blockDim.x*gridDim.x)", "?"
	// Start and Step are the induction variable's first value and its
	// additive step, when known (Step is zero for geometric loops).
	Start, Step affine.Form
	// Bound and Op are the test's other side and comparison, normalised
	// to Var Op Bound, for additive loops (Op "" otherwise): with Start
	// and Step they give the mean trip count over threads (MeanTrips).
	Bound affine.Form
	Op    string
	// Factor and GeoOp are a geometric loop's factor and operator ("*"
	// or "/", shifts included: s <<= 1 is "*" 2); 0 and "" otherwise.
	Factor int64
	GeoOp  string
	// Weight is the factor this loop multiplies the counts inside it by.
	Weight float64
}

// Info holds the loops of one function.
type Info struct {
	loops map[[2]uint32]*Loop
	list  []*Loop
	// chains holds Enclosing of the nodes directly inside a loop, by the
	// loop's node: the only lists Enclosing builds, so that asking for
	// every node of a body allocates nothing.
	chains map[*syntax.Node][]*Loop
	// enclosing memoizes Enclosing by node: every node of an expression
	// asks, and walking up to the loop from each was quadratic in the
	// nesting (a generated 40,000-term sum took 17 s to lint).
	enclosing map[*syntax.Node][]*Loop
}

// Analyze finds and classifies the loops of scope's function.
func Analyze(scope *affine.Scope) *Info {
	in := &Info{loops: map[[2]uint32]*Loop{}, chains: map[*syntax.Node][]*Loop{}, enclosing: map[*syntax.Node][]*Loop{}}
	if scope.Func == nil {
		return in
	}
	for _, n := range scope.Loops() {
		var l *Loop
		if n.Type() == "for_range_loop" {
			l = &Loop{Node: n, Kind: Unknown, Expr: "?", Weight: DefaultTrips}
		} else {
			l = classify(scope, n)
		}
		in.loops[key(n)] = l
		in.list = append(in.list, l)
	}
	return in
}

func key(n *syntax.Node) [2]uint32 { return [2]uint32{n.StartByte(), n.EndByte()} }

// Loops returns the loops in source order.
func (in *Info) Loops() []*Loop { return in.list }

// Loop returns the loop of a loop statement node, or nil.
func (in *Info) Loop(n *syntax.Node) *Loop { return in.loops[key(n)] }

// Enclosing returns the loops that contain n, innermost first. A loop's
// own initializer is not inside it.
func (in *Info) Enclosing(n *syntax.Node) []*Loop {
	// Up the parents to the innermost loop that n is inside (a loop's
	// initializer is not); the loops around that one are its chain. A
	// node's answer is its parent's unless the parent is that loop, so
	// every node passed on the way gets the answer found.
	var path []*syntax.Node
	var out []*Loop
	for c := n; c != nil; {
		if v, ok := in.enclosing[c]; ok {
			out = v
			break
		}
		path = append(path, c)
		p := c.Parent()
		if p == nil || p.Type() == "function_definition" {
			break
		}
		if l := in.loopAt(p); l != nil {
			if init := p.ChildByFieldName("initializer"); init == nil || init.StartByte() != c.StartByte() || init.EndByte() != c.EndByte() {
				out = in.chain(p, l)
				break
			}
		}
		c = p
	}
	if in.enclosing != nil {
		for _, c := range path {
			in.enclosing[c] = out
		}
	}
	return out
}

// loopAt returns the loop whose statement spans the same bytes as n, or nil.
func (in *Info) loopAt(n *syntax.Node) *Loop {
	if len(in.list) > 8 {
		return in.loops[key(n)]
	}
	// A few loops: comparing their spans costs less than hashing n's.
	for _, l := range in.list {
		if l.Node.StartByte() == n.StartByte() && l.Node.EndByte() == n.EndByte() {
			return in.loops[key(n)]
		}
	}
	return nil
}

// chain returns l and the loops around p, its statement.
func (in *Info) chain(p *syntax.Node, l *Loop) []*Loop {
	if out, ok := in.chains[p]; ok {
		return out
	}
	out := append([]*Loop{l}, in.Enclosing(p)...)
	in.chains[p] = out
	return out
}

// Weight returns the product of the weights of the loops around n.
func (in *Info) Weight(n *syntax.Node) float64 {
	w := 1.0
	for _, l := range in.Enclosing(n) {
		w *= l.Weight
	}
	return w
}

// Depth returns the number of loops around n.
func (in *Info) Depth(n *syntax.Node) int { return len(in.Enclosing(n)) }

func unknown(n *syntax.Node, v string) *Loop {
	return &Loop{Node: n, Var: v, Kind: Unknown, Expr: "?", Weight: DefaultTrips}
}

// classify works out a loop's induction variable, bounds and count.
func classify(s *affine.Scope, n *syntax.Node) *Loop {
	src := s.File.Source()
	cond := n.ChildByFieldName("condition")
	if cond != nil && (cond.Type() == "condition_clause" || cond.Type() == "parenthesized_expression") {
		cond = lastNamed(cond)
	}
	if cond == nil || cond.Type() != "binary_expression" {
		return unknown(n, "")
	}
	op := cond.Operator()
	left, right := cond.ChildByFieldName("left"), cond.ChildByFieldName("right")
	// Candidates for the induction variable: either side of the test, or
	// the variable of a "v + offset" side; the one the loop updates wins.
	type cand struct {
		v       string
		bound   *syntax.Node
		offset  *syntax.Node
		offSign int64
		op      string
	}
	var cands []cand
	if v := identOf(left, src); v != "" {
		cands = append(cands, cand{v: v, bound: right, offSign: 1, op: op})
	}
	if v := identOf(right, src); v != "" {
		cands = append(cands, cand{v: v, bound: left, offSign: 1, op: flip(op)})
	}
	for _, side := range []*syntax.Node{left, right} {
		if side == nil || side.Type() != "binary_expression" || (side.Operator() != "+" && side.Operator() != "-") {
			continue
		}
		if v := identOf(side.ChildByFieldName("left"), src); v != "" {
			c := cand{v: v, offset: side.ChildByFieldName("right"), offSign: 1, op: op}
			if side.Operator() == "-" {
				c.offSign = -1
			}
			if side == left {
				c.bound = right
			} else {
				c.bound, c.op = left, flip(op)
			}
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return unknown(n, "")
	}
	var chosen *cand
	var updates []*syntax.Node
	for i := range cands {
		if u := updatesOf(n, cands[i].v, src); len(u) == 1 {
			chosen, updates = &cands[i], u
			break
		}
	}
	if chosen == nil {
		return unknown(n, cands[0].v)
	}
	v, boundNode, offset, offSign := chosen.v, chosen.bound, chosen.offset, chosen.offSign
	op = chosen.op
	switch op {
	case "<", "<=", ">", ">=", "!=":
	default:
		return unknown(n, v)
	}
	start, ok := startOf(s, n, v)
	if !ok {
		return unknown(n, v)
	}
	bound := s.Eval(boundNode)
	if offset != nil {
		bound = bound.Sub(s.Eval(offset).Scale(offSign))
	}
	// Mention of v in the bound means a moving target: give up.
	if mentions(bound, v) || bound.Kind == affine.Unknown {
		return unknown(n, v)
	}
	step, factor, gop := stepOf(s, updates[0], v)
	if gop != "" {
		l := geometric(n, v, start, bound, op, gop, factor)
		l.Start, l.Factor, l.GeoOp = start, factor, gop
		if l.Kind == Symbolic {
			base := boundNode.Content(src)
			if gop == "/" {
				base = startText(n, src, start)
			}
			l.Expr = fmt.Sprintf("log%d(%s)", factor, base)
		}
		return l
	}
	if step.Kind != affine.Affine || mentions(step, v) {
		return unknown(n, v)
	}
	if step.DependsOn(func(x string) bool { return len(x) > 8 && x[:8] == "gridDim." }) {
		return &Loop{Node: n, Var: v, Kind: GridStride, Expr: fmt.Sprintf("(%s) / (%s)", bound.String(), step.String()), Weight: 1, Start: start, Step: step, Bound: bound, Op: op}
	}
	l := additive(n, v, dropThreads(start), bound, op, step)
	l.Start, l.Step, l.Bound, l.Op = start, step, bound, op
	if l.Kind == Symbolic && (l.Expr == "?" || strings.Contains(l.Expr, "[")) {
		// A bound like (n + TILE - 1) / TILE is not affine; show it as written.
		l.Expr = boundNode.Content(src)
		if c, ok := dropThreads(start).Int(); !ok || c != 0 {
			l.Expr = fmt.Sprintf("(%s) - (%s)", l.Expr, dropThreads(start).String())
		}
	}
	return l
}

// additive counts v = a; v OP b; v += s.
func additive(n *syntax.Node, v string, a, b affine.Form, op string, s affine.Form) *Loop {
	sc, sConst := s.Int()
	if sConst && sc == 0 {
		return unknown(n, v)
	}
	// Normalise to counting up: d = distance to cover, in steps of |s|.
	d := b.Sub(a)
	if sConst && sc < 0 {
		d = a.Sub(b)
		sc = -sc
		op = flip(op)
	} else if !sConst && (op == ">" || op == ">=") {
		return unknown(n, v) // a symbolic step downwards: direction unknown
	}
	switch op {
	case "<", "!=":
	case "<=":
		d = d.Add(affine.Const(1))
	default:
		return &Loop{Node: n, Var: v, Kind: Constant, Trips: 0, Expr: "0", Weight: 0}
	}
	if dc, ok := d.Int(); ok && sConst {
		trips := int64(0)
		if dc > 0 {
			trips = (dc + sc - 1) / sc
		}
		return &Loop{Node: n, Var: v, Kind: Constant, Trips: trips, Expr: fmt.Sprint(trips), Weight: float64(trips)}
	}
	if d.Kind != affine.Affine {
		return &Loop{Node: n, Var: v, Kind: Symbolic, Expr: "?", Weight: DefaultTrips}
	}
	expr := d.String()
	switch {
	case sConst && sc == 1:
	case sConst:
		expr = fmt.Sprintf("(%s) / %d", expr, sc)
	default:
		expr = fmt.Sprintf("(%s) / (%s)", expr, s.String())
	}
	return &Loop{Node: n, Var: v, Kind: Symbolic, Expr: expr, Weight: DefaultTrips}
}

// geometric counts v = a; v OP b; v *= c (or /=, <<=, >>=).
func geometric(n *syntax.Node, v string, a, b affine.Form, op, gop string, c int64) *Loop {
	av, aok := a.Int()
	bv, bok := b.Int()
	if !aok || !bok {
		base := a
		if gop == "*" {
			base = b
		}
		return &Loop{Node: n, Var: v, Kind: Symbolic, Expr: fmt.Sprintf("log%d(%s)", c, base.String()), Weight: LogTrips}
	}
	trips := int64(0)
	for x := av; test(x, op, bv); trips++ {
		if trips >= maxSimulate {
			return unknown(n, v)
		}
		next := x * c
		if gop == "/" {
			next = x / c
		}
		if next == x {
			return unknown(n, v) // never moves: runs forever or not at all
		}
		x = next
	}
	return &Loop{Node: n, Var: v, Kind: Constant, Trips: trips, Expr: fmt.Sprint(trips), Weight: float64(trips)}
}

func test(x int64, op string, b int64) bool {
	switch op {
	case "<":
		return x < b
	case "<=":
		return x <= b
	case ">":
		return x > b
	case ">=":
		return x >= b
	case "!=":
		return x != b
	}
	return false
}

// updatesOf returns the writes of v in a loop's update clause and body
// (not in nested loops).
func updatesOf(n *syntax.Node, v string, src []byte) []*syntax.Node {
	var updates []*syntax.Node
	collect := func(root *syntax.Node) {
		syntax.Inspect(root, func(c *syntax.Node) bool {
			switch c.Type() {
			case "for_statement", "while_statement", "do_statement", "lambda_expression":
				return c.StartByte() == root.StartByte() && root.Type() != "for_statement"
			case "assignment_expression":
				if l := c.ChildByFieldName("left"); l != nil && l.Type() == "identifier" && l.Content(src) == v {
					updates = append(updates, c)
				}
			case "update_expression":
				if a := c.ChildByFieldName("argument"); a != nil && a.Type() == "identifier" && a.Content(src) == v {
					updates = append(updates, c)
				}
			}
			return true
		})
	}
	if n.Type() == "for_statement" {
		if u := n.ChildByFieldName("update"); u != nil {
			collect(u)
		}
	}
	if body := n.ChildByFieldName("body"); body != nil {
		collect(body)
	}
	return updates
}

// startText renders a loop's start: the for initializer's value as written,
// else the form.
func startText(n *syntax.Node, src []byte, start affine.Form) string {
	if n.Type() == "for_statement" {
		if init := n.ChildByFieldName("initializer"); init != nil {
			var val *syntax.Node
			syntax.Inspect(init, func(c *syntax.Node) bool {
				if val == nil && c.Type() == "init_declarator" {
					val = c.ChildByFieldName("value")
				}
				return val == nil
			})
			if val != nil {
				return val.Content(src)
			}
		}
	}
	return start.String()
}

// startOf returns v's value on entry: the for initializer, or the
// variable's definition for while and do loops.
func startOf(s *affine.Scope, n *syntax.Node, v string) (affine.Form, bool) {
	src := s.File.Source()
	if n.Type() == "for_statement" {
		if init := n.ChildByFieldName("initializer"); init != nil {
			var val *syntax.Node
			syntax.Inspect(init, func(c *syntax.Node) bool {
				switch c.Type() {
				case "init_declarator":
					if d := c.ChildByFieldName("declarator"); d != nil && d.Content(src) == v {
						val = c.ChildByFieldName("value")
					}
				case "assignment_expression":
					if l := c.ChildByFieldName("left"); l != nil && l.Content(src) == v {
						val = c.ChildByFieldName("right")
					}
				}
				return val == nil
			})
			if val != nil {
				f := s.Eval(val)
				return f, f.Kind != affine.Unknown
			}
		}
	}
	d := s.Lookup(v, n.StartByte())
	if d == nil || d.Value == nil {
		return affine.Form{}, false
	}
	val := d.Value
	if val.Type() == "argument_list" || val.Type() == "initializer_list" {
		if val.NamedChildCount() != 1 {
			return affine.Form{}, false
		}
		val = val.NamedChild(0)
	}
	f := s.Eval(val)
	return f, f.Kind != affine.Unknown
}

// stepOf reads an update of v: an additive step (gop == ""), or a
// geometric factor c with gop "*" or "/".
func stepOf(s *affine.Scope, u *syntax.Node, v string) (step affine.Form, c int64, gop string) {
	src := s.File.Source()
	op := u.Operator()
	if u.Type() == "update_expression" {
		if op == "--" {
			return affine.Const(-1), 0, ""
		}
		return affine.Const(1), 0, ""
	}
	bad := affine.Opaque(affine.Unknown)
	rhsNode := u.ChildByFieldName("right")
	// v = v + s, v = s + v, v = v - s, v = v * c, v = v / c, v = v >> k:
	// rewrite as the compound operator.
	if op == "=" {
		if rhsNode == nil || rhsNode.Type() != "binary_expression" {
			return bad, 0, ""
		}
		l, r := rhsNode.ChildByFieldName("left"), rhsNode.ChildByFieldName("right")
		isV := func(x *syntax.Node) bool { return x != nil && x.Type() == "identifier" && x.Content(src) == v }
		bop := rhsNode.Operator()
		switch {
		case isV(l):
			op, rhsNode = bop+"=", r
		case bop == "+" && isV(r):
			op, rhsNode = "+=", l
		default:
			return bad, 0, ""
		}
	}
	rhs := s.Eval(rhsNode)
	switch op {
	case "+=":
		return rhs, 0, ""
	case "-=":
		return rhs.Scale(-1), 0, ""
	case "*=", "<<=", "/=", ">>=":
		c, ok := rhs.Int()
		if !ok || c <= 0 || c > 62 && (op == "<<=" || op == ">>=") {
			return bad, 0, ""
		}
		if op == "<<=" || op == ">>=" {
			c = 1 << c
		}
		if op == "*=" || op == "<<=" {
			return affine.Form{}, c, "*"
		}
		return affine.Form{}, c, "/"
	}
	return bad, 0, ""
}

// identOf returns the name of an identifier node (through parentheses and
// casts), or "".
func identOf(n *syntax.Node, src []byte) string {
	for n != nil {
		switch n.Type() {
		case "identifier":
			return n.Content(src)
		case "parenthesized_expression":
			n = lastNamed(n)
		default:
			return ""
		}
	}
	return ""
}

func flip(op string) string {
	switch op {
	case "<":
		return ">"
	case ">":
		return "<"
	case "<=":
		return ">="
	case ">=":
		return "<="
	}
	return op
}

func lastNamed(n *syntax.Node) *syntax.Node {
	if n.NamedChildCount() == 0 {
		return nil
	}
	return n.NamedChild(int(n.NamedChildCount()) - 1)
}

func mentions(f affine.Form, v string) bool {
	for _, s := range f.Symbols() {
		if s == v {
			return true
		}
	}
	return false
}

// dropThreads removes thread-index terms: every thread covers about the
// same distance whatever its starting offset.
func dropThreads(f affine.Form) affine.Form {
	if f.Kind != affine.Affine {
		return f
	}
	out := affine.Const(f.Const)
	for _, t := range f.Terms() {
		if f.DependsOn(affine.IsThreadSym) && containsThread(t.Mono) {
			continue
		}
		out = out.Add(affine.Sym(t.Mono).Scale(t.Coef))
	}
	return out
}

func containsThread(mono string) bool {
	for _, f := range affine.Factors(mono) {
		if affine.IsThreadSym(f) {
			return true
		}
	}
	return false
}

// MeanTrips is the loop's trip count averaged over the threads of a
// launch, for an additive loop whose start, step and bound are affine in
// the symbols val gives (the thread and block indices at their mean, the
// dimensions and sizes at their values): (bound − start)/step, plus one
// half for the threads whose share rounds up, and 0 when negative. ok is
// false when a symbol has no value or the loop is not additive.
func (l *Loop) MeanTrips(val func(sym string) (float64, bool)) (float64, bool) {
	if l.Kind == Constant {
		return float64(l.Trips), true
	}
	if l.Op == "" || l.Step.Kind != affine.Affine || l.Start.Kind != affine.Affine || l.Bound.Kind != affine.Affine {
		return 0, false
	}
	start, ok1 := Value(l.Start, val)
	step, ok2 := Value(l.Step, val)
	bound, ok3 := Value(l.Bound, val)
	if !ok1 || !ok2 || !ok3 || step == 0 {
		return 0, false
	}
	d := bound - start
	if step < 0 {
		d, step = -d, -step
	}
	switch l.Op {
	case "<=", ">=":
		d++
	case "<", ">", "!=":
	default:
		return 0, false
	}
	if d <= 0 {
		return 0, true
	}
	return d/step + 0.5, true
}

// Value evaluates an affine form with real-valued symbols (means of
// thread indices, say); ok is false for a symbol val does not give, an
// atom, or a form that is not affine.
func Value(f affine.Form, val func(sym string) (float64, bool)) (float64, bool) {
	if f.Kind != affine.Affine {
		return 0, false
	}
	sum := float64(f.Const)
	for _, t := range f.Terms() {
		p := float64(t.Coef)
		for _, x := range affine.Factors(t.Mono) {
			if _, atom := affine.IsAtom(x); atom {
				return 0, false
			}
			v, ok := val(x)
			if !ok {
				return 0, false
			}
			p *= v
		}
		sum += p
	}
	return sum, true
}
