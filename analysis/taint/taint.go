package taint

import (
	"strings"

	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// Level is the thread dependence of a value; larger is more varying.
type Level uint8

const (
	Uniform     Level = iota // same in every thread of the block
	WarpUniform              // same in every lane of a warp
	Varying                  // differs between lanes of a warp
)

func (l Level) String() string {
	switch l {
	case Uniform:
		return "uniform"
	case WarpUniform:
		return "warp-uniform"
	default:
		return "varying"
	}
}

func join(a, b Level) Level {
	if a > b {
		return a
	}
	return b
}

// Info is the thread dependence of one function.
type Info struct {
	scope *affine.Scope
	src   []byte
	param Level
	// vars and writes are by Decl.Index in the scope's Decls.
	vars   []Level
	writes [][]write
	// memo caches expression levels for the current variable levels (see
	// Analyze for when entries go); guards caches the controlling
	// conditions of a node, which depend only on the tree.
	memo   map[[2]uint32]memoLevel
	guards map[[2]uint32][]*syntax.Node
	depth  int
	reads  int // variable levels read so far, to tell which levels depend on them
	// macros memoizes object-like macros' levels (a macro's own names are
	// not the function's variables, so its level is the same wherever it
	// is used); expanding holds those being expanded (see macro).
	macros    map[string]Level
	expanding map[string]bool
}

// memoLevel is a memoized expression level; vars says whether it was
// computed from variable levels (else it is final at once).
type memoLevel struct {
	l    Level
	vars bool
}

func key(n *syntax.Node) [2]uint32 { return [2]uint32{n.StartByte(), n.EndByte()} }

// write is one assignment to a variable: the value written and the node
// whose control context applies.
type write struct {
	value *syntax.Node // nil: the write's level is given by lvl
	lvl   Level
	at    *syntax.Node
}

// Options adjusts the analysis.
type Options struct {
	// ParamLevel is the level of the function's parameters: Uniform for
	// kernels (every thread gets the same arguments); a device function
	// called with per-thread arguments is better analysed with Varying.
	ParamLevel Level
	// Params overrides ParamLevel for named parameters: the levels of the
	// arguments a device function is called with.
	Params map[string]Level
}

// Analyze computes the levels of all variables of scope's function.
func Analyze(scope *affine.Scope, opts Options) *Info {
	decls := scope.Decls()
	in := &Info{scope: scope, src: scope.File.Source(), param: opts.ParamLevel, vars: make([]Level, len(decls)), writes: make([][]write, len(decls)),
		memo: map[[2]uint32]memoLevel{}, guards: map[[2]uint32][]*syntax.Node{}}
	for _, d := range decls {
		if d.Has("__shared__") && len(d.Dims) == 0 && d.Pointer == 0 {
			// One __shared__ scalar per block: whichever thread writes it
			// (if (tid == 0) n = ...), every thread reads the same value
			// after the barrier, so it stays Uniform.
			continue
		}
		if d.Value != nil {
			in.addWrite(d, write{value: d.Value, at: d.Ident})
		}
		for _, w := range d.Writes() {
			switch w.Type() {
			case "assignment_expression":
				in.addWrite(d, write{value: w.ChildByFieldName("right"), at: w})
			case "update_expression":
				in.addWrite(d, write{lvl: Uniform, at: w})
			default: // &x handed to a call: the callee may write anything
				in.addWrite(d, write{lvl: Varying, at: w})
			}
		}
	}
	for _, n := range scope.Assignments() {
		// Element writes of per-thread arrays: acc[i] = v.
		if base := baseIdent(n.ChildByFieldName("left")); base != nil {
			if d := scope.Lookup(base.Content(in.src), n.StartByte()); d != nil && !d.Global && !d.Param && len(d.Dims) > 0 && !d.Has("__shared__") {
				in.addWrite(d, write{value: n.ChildByFieldName("right"), at: n})
			}
		}
	}
	for _, n := range scope.InlineAsm() {
		in.asmWrites(n)
	}
	for i, d := range decls {
		if d.Param {
			in.vars[i] = in.param
			if l, ok := opts.Params[d.Name]; ok {
				in.vars[i] = l
			}
		}
	}
	// Levels only grow and there are three, so this terminates quickly.
	// Variables are visited in source order, where values mostly flow,
	// and the memo of expression levels is pruned once per round that
	// changed a level rather than at every change: a stale (lower) level
	// only delays a rise to the next round, and the last round, which
	// changes nothing, sees only current levels. The result is the least
	// fixed point either way (the levels are monotone). Pruning keeps the
	// levels that cannot change: those computed without reading a
	// variable, and Varying, the top.
	var order []int // the variables written, in source order
	for i, ws := range in.writes {
		if ws != nil {
			order = append(order, i)
		}
	}
	for iter := 0; iter < 3*len(order)+2; iter++ {
		changed := false
		for _, d := range order {
			l := in.vars[d]
			// Varying is the top: once there, the remaining writes and
			// their conditions cannot change the level.
			for _, w := range in.writes[d] {
				if l == Varying {
					break
				}
				wl := w.lvl
				if w.value != nil {
					wl = in.Expr(w.value)
				}
				if l = join(l, wl); l < Varying {
					l = join(l, in.Control(w.at))
				}
			}
			if l != in.vars[d] {
				in.vars[d] = l
				changed = true
			}
		}
		if !changed {
			break
		}
		for k, m := range in.memo {
			if m.vars && m.l != Varying {
				delete(in.memo, k)
			}
		}
	}
	return in
}

// asmWrites records the outputs of inline PTX: Varying when the assembly
// reads per-thread registers, else the join of its inputs.
func (in *Info) asmWrites(n *syntax.Node) {
	code := ""
	if c := n.ChildByFieldName("assembly_code"); c != nil {
		code = c.Content(in.src)
	}
	lvl := Uniform
	for _, reg := range []string{"%laneid", "%tid", "%clock", "%globaltimer", "%smid", "%warpid", "%lanemask"} {
		if strings.Contains(code, reg) {
			lvl = Varying
		}
	}
	if ins := n.ChildByFieldName("input_operands"); ins != nil {
		lvl = join(lvl, in.children(ins, in.src, true))
	}
	outs := n.ChildByFieldName("output_operands")
	if outs == nil {
		return
	}
	syntax.Inspect(outs, func(c *syntax.Node) bool {
		if c.Type() == "gnu_asm_output_operand" {
			if v := c.ChildByFieldName("value"); v != nil && v.Type() == "identifier" {
				if d := in.scope.Lookup(v.Content(in.src), n.StartByte()); d != nil && !d.Global {
					in.addWrite(d, write{lvl: lvl, at: n})
				}
			}
			return false
		}
		return true
	})
}

// addWrite records a write of d, a variable of the scope.
func (in *Info) addWrite(d *affine.Decl, w write) {
	if i := d.Index(); i >= 0 && i < len(in.writes) {
		in.writes[i] = append(in.writes[i], w)
	}
}

// Var returns the level of a declared variable.
func (in *Info) Var(d *affine.Decl) Level {
	if d == nil {
		return Uniform
	}
	if i := d.Index(); i >= 0 && i < len(in.vars) {
		return in.vars[i]
	}
	return Uniform
}

// Expr returns the level of an expression of the function.
func (in *Info) Expr(n *syntax.Node) Level {
	if n == nil {
		return Uniform
	}
	k := key(n)
	if m, ok := in.memo[k]; ok {
		if m.vars {
			in.reads++
		}
		return m.l
	}
	reads := in.reads
	l := in.expr(n, in.src, true)
	in.memo[k] = memoLevel{l: l, vars: in.reads != reads}
	return l
}

// Control returns the level of the conditions that decide whether n runs:
// the join of the conditions of the enclosing if, switch, loops, ?: and
// short-circuit operators, up to the function body.
func (in *Info) Control(n *syntax.Node) Level {
	l := Uniform
	for _, cond := range in.guardsOf(n) {
		l = join(l, in.Expr(cond))
		if l == Varying {
			break
		}
	}
	return l
}

// guardsOf lists the conditions that control n, innermost first.
func (in *Info) guardsOf(n *syntax.Node) []*syntax.Node {
	k := key(n)
	if g, ok := in.guards[k]; ok {
		return g
	}
	var out []*syntax.Node
	for c := n; c != nil; {
		p := c.Parent()
		if p == nil || p.Type() == "function_definition" || p.Type() == "lambda_expression" {
			break
		}
		if cond := guard(p, c); cond != nil {
			out = append(out, cond)
		}
		c = p
	}
	in.guards[k] = out
	return out
}

// Guards returns the conditions that control n's execution within its
// function (if, switch, loop and ?: conditions, short-circuit operands),
// innermost first.
func (in *Info) Guards(n *syntax.Node) []*syntax.Node { return in.guardsOf(n) }

// ControlCond returns the condition that makes n's execution most
// thread-dependent (the innermost one of the highest level) and its level;
// nil and Uniform when n runs in every thread that runs its function.
func (in *Info) ControlCond(n *syntax.Node) (*syntax.Node, Level) {
	var best *syntax.Node
	l := Uniform
	for _, cond := range in.guardsOf(n) {
		if cl := in.Expr(cond); cl > l {
			best, l = cond, cl
		}
	}
	return best, l
}

// Cond returns the level of the condition of a branch or loop statement
// (if, while, do, for, switch, ?:), Uniform when it has none.
func (in *Info) Cond(stmt *syntax.Node) Level {
	if c := CondOf(stmt); c != nil {
		return in.Expr(c)
	}
	return Uniform
}

// CondOf returns the condition expression of a branch or loop statement.
func CondOf(stmt *syntax.Node) *syntax.Node {
	switch stmt.Type() {
	case "if_statement", "while_statement", "do_statement", "for_statement", "switch_statement", "conditional_expression":
		return stmt.ChildByFieldName("condition")
	}
	return nil
}

// guard returns the condition of p that controls its child c, or nil when
// c runs unconditionally with respect to p.
func guard(p, c *syntax.Node) *syntax.Node {
	switch p.Type() {
	case "if_statement", "conditional_expression", "switch_statement":
		cond := p.ChildByFieldName("condition")
		if cond != nil && cond.StartByte() == c.StartByte() && cond.EndByte() == c.EndByte() {
			return nil
		}
		return cond
	case "while_statement", "do_statement", "for_statement":
		cond := p.ChildByFieldName("condition")
		if init := p.ChildByFieldName("initializer"); init != nil && init.StartByte() == c.StartByte() {
			return nil
		}
		return cond // the body, the update and later tests of the condition
	case "binary_expression":
		op := p.ChildByFieldName("operator")
		if op != nil && (op.Type() == "&&" || op.Type() == "||") {
			if r := p.ChildByFieldName("right"); r != nil && r.StartByte() == c.StartByte() {
				return p.ChildByFieldName("left")
			}
		}
	}
	return nil
}

func (in *Info) expr(n *syntax.Node, src []byte, own bool) Level {
	if n == nil {
		return Uniform
	}
	if in.depth > maxDepth {
		return Varying // pathological nesting: assume the worst
	}
	in.depth++
	l := in.level(n, src, own)
	in.depth--
	return l
}

// maxDepth bounds the recursion through nested expressions.
const maxDepth = 512

func (in *Info) level(n *syntax.Node, src []byte, own bool) Level {
	switch n.Type() {
	case "number_literal", "string_literal", "char_literal", "true", "false", "null", "nullptr", "sizeof_expression":
		return Uniform
	case "identifier":
		name := n.Content(src)
		if _, ok := in.scope.File.MacroInt(name); ok {
			// A literal, as the parsed macro would say (depth limit
			// included), without parsing it.
			if in.depth > maxDepth {
				return Varying
			}
			return Uniform
		}
		if e, msrc := in.scope.File.MacroExpr(name); e != nil {
			return in.macro(name, e, msrc)
		}
		if d := in.scope.Lookup(name, n.StartByte()); d != nil && own {
			in.reads++
			return in.Var(d)
		}
		return Uniform
	case "field_expression":
		arg := n.ChildByFieldName("argument")
		if arg != nil && arg.Type() == "identifier" {
			switch arg.Content(src) {
			case "threadIdx":
				return Varying
			case "blockIdx", "blockDim", "gridDim":
				return Uniform
			}
		}
		return in.expr(arg, src, own)
	case "call_expression":
		return in.call(n, src, own)
	case "binary_expression":
		if own {
			if l, ok := in.warpUniform(n); ok {
				return l
			}
		}
		return join(in.expr(n.ChildByFieldName("left"), src, own), in.expr(n.ChildByFieldName("right"), src, own))
	case "assignment_expression":
		return in.expr(n.ChildByFieldName("right"), src, own)
	}
	return in.children(n, src, own)
}

// macro is the level of object-like macro name, whose replacement is e.
// As the preprocessor does, a macro's name inside its own expansion is not
// expanded again (C11 6.10.3.4p2): it is a name of no variable, Uniform.
// Each macro is evaluated once: "#define A2 (A1 + A1)", "#define A3 (A2 +
// A2)", … cost n expansions, not 2^n (a GRPO completion's self-naming
// macros held the analyzer for good: driver/testdata/macro_recursion.cu).
func (in *Info) macro(name string, e *syntax.Node, src []byte) Level {
	if l, ok := in.macros[name]; ok {
		return l
	}
	if in.expanding[name] {
		return Uniform
	}
	if in.macros == nil {
		in.macros, in.expanding = map[string]Level{}, map[string]bool{}
	}
	in.expanding[name] = true
	l := in.expr(e, src, false)
	delete(in.expanding, name)
	in.macros[name] = l
	return l
}

func (in *Info) children(n *syntax.Node, src []byte, own bool) Level {
	l := Uniform
	// Child(i) is direct; NamedChild(i) scans, which is quadratic on long
	// lists such as initializers.
	for i := 0; i < int(n.ChildCount()) && l < Varying; i++ {
		if c := n.Child(i); c.IsNamed() {
			l = join(l, in.expr(c, src, own))
		}
	}
	return l
}

// Shuffles and votes by how their result varies.
var intrinsics = map[string]Level{
	"__shfl_xor_sync": Varying, "__shfl_down_sync": Varying, "__shfl_up_sync": Varying,
	"__shfl_xor": Varying, "__shfl_down": Varying, "__shfl_up": Varying,
	"__match_any_sync": Varying, "__match_all_sync": Varying,
	"__ballot_sync": WarpUniform, "__any_sync": WarpUniform, "__all_sync": WarpUniform,
	"__ballot": WarpUniform, "__any": WarpUniform, "__all": WarpUniform, "__activemask": WarpUniform,
	"__reduce_add_sync": WarpUniform, "__reduce_min_sync": WarpUniform, "__reduce_max_sync": WarpUniform,
	"__reduce_and_sync": WarpUniform, "__reduce_or_sync": WarpUniform, "__reduce_xor_sync": WarpUniform,
	"__syncthreads_count": Uniform, "__syncthreads_and": Uniform, "__syncthreads_or": Uniform,
	"clock": Varying, "clock64": Varying, "__clock": Varying, "globaltimer": Varying,
	"thread_rank": Varying, "thread_index": Varying, "__lane_id": Varying, "laneid": Varying,
}

func (in *Info) call(n *syntax.Node, src []byte, own bool) Level {
	fn := n.ChildByFieldName("function")
	args := n.ChildByFieldName("arguments")
	name := ""
	if fn != nil {
		name = fn.Content(src)
		if fn.Type() == "field_expression" { // g.thread_rank()
			if f := fn.ChildByFieldName("field"); f != nil {
				name = f.Content(src)
			}
		}
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
	}
	if strings.HasPrefix(name, "atomic") || strings.HasPrefix(name, "curand") {
		return Varying
	}
	if name == "__shfl_sync" || name == "__shfl" {
		// A broadcast from a lane chosen uniformly gives every lane the
		// same value.
		if args != nil && args.NamedChildCount() >= 3 {
			idx := 2
			if name == "__shfl" {
				idx = 1
			}
			if in.expr(args.NamedChild(idx), src, own) <= WarpUniform {
				return WarpUniform
			}
		}
		return Varying
	}
	if l, ok := intrinsics[name]; ok {
		return l
	}
	if fn != nil && fn.Type() == "template_function" {
		// CuTe's shape queries, size<2>(tAgA): the shape of a thread's
		// partition is the same in every thread.
		switch base, _, _ := strings.Cut(name, "<"); base {
		case "size", "rank", "depth", "shape", "cosize":
			return Uniform
		}
	}
	if args == nil {
		return Uniform
	}
	return in.children(args, src, own)
}

// warpUniform applies the rules for e/c, e>>k, e&m and comparisons of an
// affine lane index with a multiple of 32 (see the package doc).
func (in *Info) warpUniform(n *syntax.Node) (Level, bool) {
	op := ""
	if o := n.ChildByFieldName("operator"); o != nil {
		op = o.Type()
	}
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if left == nil || right == nil {
		return 0, false
	}
	switch op {
	case "/", ">>", "&":
		c, ok := in.scope.Eval(right).Int()
		if !ok {
			return 0, false
		}
		e := in.scope.Eval(left)
		a, ok := laneStride(e)
		if !ok || in.hiddenVarying(left) {
			return 0, false
		}
		switch op {
		case "/":
			if c > 0 && c%(32*a) == 0 {
				return WarpUniform, true
			}
		case ">>":
			if c >= 0 && c < 62 && (int64(1)<<c)%(32*a) == 0 {
				return WarpUniform, true
			}
		case "&":
			if a == 1 && c&31 == 0 {
				return WarpUniform, true
			}
		}
	case "<", "<=", ">", ">=":
		l, r := in.scope.Eval(left), in.scope.Eval(right)
		if l.Kind != affine.Affine || r.Kind != affine.Affine || l.Coef("threadIdx.x") == r.Coef("threadIdx.x") {
			return 0, false // no lane term in the difference: laneStride would say no
		}
		d := l.Sub(r)
		if op == "<=" || op == ">" {
			d = d.Sub(affine.Const(1))
		}
		if _, ok := laneStride(d); ok && !in.hiddenVarying(left) && !in.hiddenVarying(right) {
			return WarpUniform, true
		}
	}
	return 0, false
}

// hiddenVarying reports whether an expression's value varies for reasons the
// affine form does not show (a loaded value, a shuffle): the warp-uniform
// rules only apply when the form is the whole story.
func (in *Info) hiddenVarying(n *syntax.Node) bool {
	f := in.scope.Eval(n)
	if f.Kind != affine.Affine {
		return true
	}
	for _, sym := range f.Symbols() {
		// A variable that stands for itself in the form (a counter, s >>= 1)
		// must not vary for reasons of its own.
		if d := in.scope.Lookup(sym, n.StartByte()); d != nil && !d.Global {
			in.reads++
			if in.Var(d) == Varying {
				return true
			}
		}
	}
	return false
}

// laneStride returns |a| for e = a·threadIdx.x + r whose remainder is a
// multiple of 32·|a| (terms carrying blockDim.x count as multiples of 32
// when |a| is 1); ok is false otherwise, and for forms without threadIdx.x.
func laneStride(e affine.Form) (int64, bool) {
	if e.Kind != affine.Affine {
		return 0, false
	}
	a := e.Coef("threadIdx.x")
	if a < 0 {
		a = -a
	}
	if a == 0 {
		return 0, false
	}
	g := 32 * a
	if e.Const%g != 0 {
		return 0, false
	}
	for _, t := range e.Terms() {
		if t.Mono == "threadIdx.x" {
			continue
		}
		if t.Coef%g == 0 {
			continue
		}
		if a == 1 && hasFactor(t.Mono, "blockDim.x") {
			continue
		}
		return 0, false
	}
	return a, true
}

func hasFactor(mono, sym string) bool {
	for _, f := range affine.Factors(mono) {
		if f == sym {
			return true
		}
	}
	return false
}

func baseIdent(n *syntax.Node) *syntax.Node {
	for n != nil {
		switch n.Type() {
		case "identifier":
			return n
		case "subscript_expression", "field_expression":
			n = n.ChildByFieldName("argument")
		case "parenthesized_expression":
			n = n.NamedChild(0)
		default:
			return nil
		}
	}
	return nil
}
