// Package hostexec runs the host code of a CUDA file on integers, to find
// which kernels one call of its entry point launches, how often and with
// which grid, block and scalar arguments at a problem size.
//
// The workload pass binds sizes to the entry's parameters, but host code
// computes launch shapes with statements, not only expressions: a
// power of two found by `while (m < n) m <<= 1;`, a reduction that
// relaunches `for (;;) { …; if (b == 1) break; n = b; }`, a grid capped
// by `if (blocks > need) blocks = need;`. Evaluating such code symbolically
// gives "unknown"; running it on integers gives the launches.
//
// Run interprets a subset of C++ over int64: declarations (scalars and
// dim3), assignments, ++ and --, if, for, while, do, switch-free blocks,
// break, continue and return, arithmetic, comparisons and logic, the
// conditional operator, casts, min and max, calls of the file's other host
// functions, cudaDeviceGetAttribute for the SM count, and the other CUDA
// runtime calls as succeeding (cudaSuccess, 0). Every other
// value (a pointer, a load from memory, a call it does not know) is
// unknown: a launch whose grid or block depends on one is recorded with
// Known false, and a branch or loop whose condition depends on one stops
// the run (Complete false), since which path the code takes is then not
// known. Steps and launches are bounded, so a file cannot make it run
// forever.
package hostexec

import (
	"strings"

	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// Value is an integer that may be unknown.
type Value struct {
	V     int64
	Known bool
}

func known(v int64) Value { return Value{V: v, Known: true} }

var unknown = Value{}

// Launch is one launch site as executed: its dimensions and scalar
// arguments at one run, and how many times the run reached it with them.
type Launch struct {
	Node        *syntax.Node // the call_expression
	Grid, Block [3]Value
	Args        []Value
	Count       int64
}

// Known reports whether every dimension is known.
func (l *Launch) Known() bool {
	for i := 0; i < 3; i++ {
		if !l.Grid[i].Known || !l.Block[i].Known {
			return false
		}
	}
	return true
}

// Result is what one run launched.
type Result struct {
	Launches []*Launch
	// Complete is false when the run stopped early: a branch on an
	// unknown value, a construct it does not run, or a limit.
	Complete bool
	Reason   string // why it stopped, when it did
}

// DefaultMaxSteps bounds a run. A step costs about 25-30 µs (measured:
// a main() of cuda-samples' fastWalshTransform.cu that initialises its
// arrays element by element made `cudaperf lint` of that one file take
// 32 s at 1,000,000 steps, 2.5 s at 100,000, 0.6 s at 20,000). Entry
// points of c2cuda's variants need far fewer: every task's features at its
// primary size are the same at 50,000 as at 1,000,000 (features --task
// over the whole suite, compared byte for byte). A run that hits the limit
// falls back to the symbolic walk, as for any host code it cannot run.
const DefaultMaxSteps = 50_000

// Options are the limits and facts of a run.
type Options struct {
	MaxSteps int   // statements and loop iterations; 0 means DefaultMaxSteps
	SMs      int64 // what cudaDeviceGetAttribute reports for the SM count; 0: unknown
}

// Func is a host function the run may call.
type Func struct {
	Node   *syntax.Node // function_definition
	Body   *syntax.Node
	Params []string
}

// Run executes entry with its parameters set to args (missing ones are
// unknown) and returns the launches. file gives macros and file-level
// constants; funcs are the file's host functions by name.
func Run(file *affine.File, entry Func, args map[string]int64, funcs map[string]Func, opt Options) *Result {
	if opt.MaxSteps <= 0 {
		opt.MaxSteps = DefaultMaxSteps
	}
	m := &machine{file: file, src: file.Source(), funcs: funcs, opt: opt, byKey: map[string]*Launch{}, res: &Result{Complete: true}}
	vals := make([]Value, len(entry.Params))
	for i, p := range entry.Params {
		if v, ok := args[p]; ok {
			vals[i] = known(v)
		}
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if s, ok := r.(stop); ok {
					m.res.Complete, m.res.Reason = false, string(s)
					return
				}
				panic(r)
			}
		}()
		m.call(entry, vals, 0)
	}()
	return m.res
}

// stop ends a run early (a panic caught by Run).
type stop string

type variable struct {
	v    Value
	dim  [3]Value
	dim3 bool
}

type frame struct {
	scopes []map[string]*variable
	fn     Func
}

type machine struct {
	file  *affine.File
	src   []byte
	funcs map[string]Func
	opt   Options
	steps int
	byKey map[string]*Launch
	res   *Result
	stack []*frame
}

type flow int

const (
	next flow = iota
	brk
	cont
	ret
)

func (m *machine) frame() *frame { return m.stack[len(m.stack)-1] }

func (m *machine) step() {
	m.steps++
	if m.steps > m.opt.MaxSteps {
		panic(stop("step limit"))
	}
}

func (m *machine) call(f Func, args []Value, depth int) Value {
	if depth > 16 || f.Body == nil {
		return unknown
	}
	fr := &frame{fn: f, scopes: []map[string]*variable{{}}}
	for i, p := range f.Params {
		v := unknown
		if i < len(args) {
			v = args[i]
		}
		fr.scopes[0][p] = &variable{v: v}
	}
	m.stack = append(m.stack, fr)
	defer func() { m.stack = m.stack[:len(m.stack)-1] }()
	_, v := m.stmt(f.Body)
	return v
}

func (m *machine) lookup(name string) *variable {
	fr := m.frame()
	for i := len(fr.scopes) - 1; i >= 0; i-- {
		if v, ok := fr.scopes[i][name]; ok {
			return v
		}
	}
	return nil
}

func (m *machine) push() { fr := m.frame(); fr.scopes = append(fr.scopes, map[string]*variable{}) }
func (m *machine) pop()  { fr := m.frame(); fr.scopes = fr.scopes[:len(fr.scopes)-1] }

func (m *machine) declare(name string, v *variable) {
	fr := m.frame()
	fr.scopes[len(fr.scopes)-1][name] = v
}

// stmt runs one statement.
func (m *machine) stmt(n *syntax.Node) (flow, Value) {
	if n == nil {
		return next, unknown
	}
	m.step()
	switch n.Type() {
	case "compound_statement":
		m.push()
		defer m.pop()
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if f, v := m.stmt(n.NamedChild(i)); f != next {
				return f, v
			}
		}
	case "declaration":
		m.declaration(n)
	case "expression_statement":
		if n.NamedChildCount() > 0 {
			m.expr(n.NamedChild(0))
		}
	case "if_statement":
		c := m.cond(n.ChildByFieldName("condition"))
		if c {
			return m.stmt(n.ChildByFieldName("consequence"))
		}
		if alt := n.ChildByFieldName("alternative"); alt != nil {
			if alt.Type() == "else_clause" && alt.NamedChildCount() > 0 {
				alt = alt.NamedChild(0)
			}
			return m.stmt(alt)
		}
	case "for_statement":
		m.push()
		defer m.pop()
		if init := n.ChildByFieldName("initializer"); init != nil {
			if init.Type() == "declaration" {
				m.declaration(init)
			} else {
				m.expr(init)
			}
		}
		for {
			if c := n.ChildByFieldName("condition"); c != nil && !m.cond(c) {
				break
			}
			f, v := m.stmt(n.ChildByFieldName("body"))
			if f == brk {
				break
			}
			if f == ret {
				return f, v
			}
			if u := n.ChildByFieldName("update"); u != nil {
				m.expr(u)
			}
		}
	case "while_statement":
		for m.cond(n.ChildByFieldName("condition")) {
			f, v := m.stmt(n.ChildByFieldName("body"))
			if f == brk {
				break
			}
			if f == ret {
				return f, v
			}
		}
	case "do_statement":
		for {
			f, v := m.stmt(n.ChildByFieldName("body"))
			if f == brk {
				break
			}
			if f == ret {
				return f, v
			}
			if !m.cond(n.ChildByFieldName("condition")) {
				break
			}
		}
	case "break_statement":
		return brk, unknown
	case "continue_statement":
		return cont, unknown
	case "return_statement":
		if n.NamedChildCount() > 0 {
			return ret, m.expr(n.NamedChild(0))
		}
		return ret, unknown
	case "comment", "type_definition", "static_assert_declaration", "alias_declaration", "using_declaration":
	default:
		// Anything else (switch, goto, try, a lambda statement): which
		// launches follow is not known.
		panic(stop("statement " + n.Type()))
	}
	return next, unknown
}

// cond evaluates a condition; an unknown one stops the run.
func (m *machine) cond(n *syntax.Node) bool {
	for n != nil && (n.Type() == "condition_clause" || n.Type() == "parenthesized_expression") && n.NamedChildCount() > 0 {
		n = n.NamedChild(int(n.NamedChildCount()) - 1)
	}
	if n != nil && n.Type() == "declaration" {
		v := m.declaration(n)
		if !v.Known {
			panic(stop("unknown condition"))
		}
		return v.V != 0
	}
	v := m.expr(n)
	if !v.Known {
		panic(stop("unknown condition: " + strings.Join(strings.Fields(n.Content(m.src)), " ")))
	}
	return v.V != 0
}

// declaration declares its variables and returns the last one's value.
func (m *machine) declaration(n *syntax.Node) Value {
	typ := strings.TrimSpace(strings.TrimPrefix(affine.Squeezed(n.ChildByFieldName("type"), m.src), "const "))
	isDim3 := typ == "dim3" || typ == "uint3"
	last := unknown
	for i := 0; i < int(n.NamedChildCount()); i++ {
		d := n.NamedChild(i)
		if n.FieldNameForChild(childIndex(n, d)) != "declarator" {
			continue
		}
		name, val := d, (*syntax.Node)(nil)
		switch {
		case d.Type() == "init_declarator":
			name, val = d.ChildByFieldName("declarator"), d.ChildByFieldName("value")
		case d.Type() == "function_declarator" && isDim3:
			// dim3 block(TILE, TILE) parses as a function declaration.
			name, val = d.ChildByFieldName("declarator"), d.ChildByFieldName("parameters")
		}
		if name == nil || name.Type() != "identifier" {
			// A pointer, array or reference: not an integer we follow.
			if name != nil {
				if id := m.innerIdent(name); id != "" {
					m.declare(id, &variable{})
				}
			}
			continue
		}
		v := &variable{dim3: isDim3}
		switch {
		case isDim3:
			v.dim = [3]Value{known(1), known(1), known(1)}
			if val != nil {
				v.dim = m.dims(val)
			}
		case val != nil:
			v.v = m.expr(val)
			if val.Type() == "initializer_list" && val.NamedChildCount() == 1 {
				v.v = m.expr(val.NamedChild(0))
			}
		}
		m.declare(name.Content(m.src), v)
		last = v.v
	}
	return last
}

func childIndex(p, c *syntax.Node) int {
	for i := 0; i < int(p.ChildCount()); i++ {
		if p.Child(i) == c {
			return i
		}
	}
	return -1
}

// innerIdent is the name a pointer, array or reference declarator declares.
func (m *machine) innerIdent(n *syntax.Node) string {
	for n != nil {
		if n.Type() == "identifier" {
			return n.Content(m.src)
		}
		n = n.ChildByFieldName("declarator")
	}
	return ""
}

// dims evaluates a dim3 initializer or expression.
func (m *machine) dims(n *syntax.Node) [3]Value {
	out := [3]Value{known(1), known(1), known(1)}
	if n == nil {
		return out
	}
	switch n.Type() {
	case "parameter_list":
		// The vexing parse of dim3 b(TILE, TILE): each "parameter" is a
		// type name that is really a value.
		k := 0
		for i := 0; i < int(n.NamedChildCount()) && k < 3; i++ {
			c := n.NamedChild(i)
			if c.Type() != "parameter_declaration" {
				continue
			}
			if t := c.ChildByFieldName("type"); t != nil && c.NamedChildCount() == 1 {
				if v := m.lookup(t.Content(m.src)); v != nil {
					out[k] = v.v
				} else {
					out[k] = m.fallback(c) // the affine evaluator reads these too
				}
			} else {
				out[k] = unknown
			}
			k++
		}
		return out
	case "argument_list", "initializer_list":
		k := 0
		for i := 0; i < int(n.NamedChildCount()) && k < 3; i++ {
			if c := n.NamedChild(i); c.Type() != "comment" {
				out[k] = m.expr(c)
				k++
			}
		}
		return out
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return m.dims(n.NamedChild(0))
		}
	case "call_expression", "compound_literal_expression":
		f := n.ChildByFieldName("function")
		if f == nil {
			f = n.ChildByFieldName("type")
		}
		if f != nil && (f.Content(m.src) == "dim3" || f.Content(m.src) == "uint3") {
			args := n.ChildByFieldName("arguments")
			if args == nil {
				args = n.ChildByFieldName("value")
			}
			return m.dims(args)
		}
	case "identifier":
		if v := m.lookup(n.Content(m.src)); v != nil && v.dim3 {
			return v.dim
		}
	}
	out[0] = m.expr(n)
	return out
}

// expr evaluates an expression.
func (m *machine) expr(n *syntax.Node) Value {
	if n == nil {
		return unknown
	}
	switch n.Type() {
	case "number_literal":
		v, ok := affine.ParseInt(n.Content(m.src))
		if ok {
			return known(v)
		}
		return unknown
	case "true":
		return known(1)
	case "false", "nullptr", "null":
		return known(0)
	case "identifier":
		name := n.Content(m.src)
		if v := m.lookup(name); v != nil {
			return v.v
		}
		if name == "cudaSuccess" {
			return known(0) // what the calls the run answers return
		}
		return m.fallback(n)
	case "parenthesized_expression", "condition_clause":
		if n.NamedChildCount() == 0 {
			return unknown
		}
		return m.expr(n.NamedChild(int(n.NamedChildCount()) - 1))
	case "cast_expression":
		return m.expr(n.ChildByFieldName("value"))
	case "comma_expression":
		m.expr(n.ChildByFieldName("left"))
		return m.expr(n.ChildByFieldName("right"))
	case "field_expression":
		arg, field := n.ChildByFieldName("argument"), n.ChildByFieldName("field")
		if arg != nil && field != nil && arg.Type() == "identifier" {
			if v := m.lookup(arg.Content(m.src)); v != nil && v.dim3 {
				if i := strings.Index("xyz", field.Content(m.src)); i >= 0 && len(field.Content(m.src)) == 1 {
					return v.dim[i]
				}
			}
		}
		return unknown
	case "assignment_expression":
		return m.assign(n)
	case "update_expression":
		arg := n.ChildByFieldName("argument")
		v := m.target(arg)
		if v == nil {
			return unknown
		}
		old := v.v
		d := int64(1)
		if n.Operator() == "--" {
			d = -1
		}
		if old.Known {
			v.v = known(old.V + d)
		} else {
			v.v = unknown
		}
		if arg.StartByte() > n.StartByte() { // prefix
			return v.v
		}
		return old
	case "unary_expression":
		x := m.expr(n.ChildByFieldName("argument"))
		if !x.Known {
			return unknown
		}
		switch n.Operator() {
		case "-":
			return known(-x.V)
		case "+":
			return x
		case "!":
			return known(b2i(x.V == 0))
		case "~":
			return known(^x.V)
		}
		return unknown
	case "binary_expression":
		return m.binary(n)
	case "conditional_expression":
		c := m.expr(n.ChildByFieldName("condition"))
		if !c.Known {
			a, b := m.expr(n.ChildByFieldName("consequence")), m.expr(n.ChildByFieldName("alternative"))
			if a == b {
				return a
			}
			return unknown
		}
		if c.V != 0 {
			return m.expr(n.ChildByFieldName("consequence"))
		}
		return m.expr(n.ChildByFieldName("alternative"))
	case "call_expression":
		return m.callExpr(n)
	case "sizeof_expression":
		return m.fallback(n)
	}
	return unknown
}

// fallback evaluates what the run does not hold (macros, file-level
// constants, sizeof) with the affine evaluator of the current function.
func (m *machine) fallback(n *syntax.Node) Value {
	if v, ok := m.file.Scope(m.frame().fn.Node).Eval(n).Int(); ok {
		return known(v)
	}
	return unknown
}

func (m *machine) target(n *syntax.Node) *variable {
	for n != nil && n.Type() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	if n == nil || n.Type() != "identifier" {
		return nil
	}
	return m.lookup(n.Content(m.src))
}

func (m *machine) assign(n *syntax.Node) Value {
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	op := n.Operator()
	if left != nil && left.Type() == "field_expression" {
		// grid.x = …
		arg, field := left.ChildByFieldName("argument"), left.ChildByFieldName("field")
		r := m.expr(right)
		if arg != nil && field != nil {
			if v := m.target(arg); v != nil && v.dim3 {
				if i := strings.Index("xyz", field.Content(m.src)); i >= 0 && len(field.Content(m.src)) == 1 {
					if op == "=" {
						v.dim[i] = r
					} else {
						v.dim[i] = arith(strings.TrimSuffix(op, "="), v.dim[i], r)
					}
					return v.dim[i]
				}
			}
		}
		return r
	}
	v := m.target(left)
	if v != nil && v.dim3 && op == "=" {
		v.dim = m.dims(right)
		return v.dim[0]
	}
	r := m.expr(right)
	if v == nil {
		return r // a store through a pointer or into an array: not followed
	}
	if op == "=" {
		v.v = r
	} else {
		v.v = arith(strings.TrimSuffix(op, "="), v.v, r)
	}
	return v.v
}

func (m *machine) binary(n *syntax.Node) Value {
	op := n.Operator()
	l := m.expr(n.ChildByFieldName("left"))
	// && and || short-circuit, as C does: the right side may be unknown.
	switch op {
	case "&&":
		if l.Known && l.V == 0 {
			return known(0)
		}
		r := m.expr(n.ChildByFieldName("right"))
		if r.Known && r.V == 0 {
			return known(0)
		}
		if l.Known && r.Known {
			return known(1)
		}
		return unknown
	case "||":
		if l.Known && l.V != 0 {
			return known(1)
		}
		r := m.expr(n.ChildByFieldName("right"))
		if r.Known && r.V != 0 {
			return known(1)
		}
		if l.Known && r.Known {
			return known(0)
		}
		return unknown
	}
	return arith(op, l, m.expr(n.ChildByFieldName("right")))
}

func arith(op string, a, b Value) Value {
	if !a.Known || !b.Known {
		return unknown
	}
	x, y := a.V, b.V
	switch op {
	case "+":
		return known(x + y)
	case "-":
		return known(x - y)
	case "*":
		return known(x * y)
	case "/":
		if y == 0 {
			return unknown
		}
		return known(x / y)
	case "%":
		if y == 0 {
			return unknown
		}
		return known(x % y)
	case "<<":
		if y < 0 || y > 62 {
			return unknown
		}
		return known(x << y)
	case ">>":
		if y < 0 || y > 62 {
			return unknown
		}
		return known(x >> y)
	case "&":
		return known(x & y)
	case "|":
		return known(x | y)
	case "^":
		return known(x ^ y)
	case "<":
		return known(b2i(x < y))
	case "<=":
		return known(b2i(x <= y))
	case ">":
		return known(b2i(x > y))
	case ">=":
		return known(b2i(x >= y))
	case "==":
		return known(b2i(x == y))
	case "!=":
		return known(b2i(x != y))
	}
	return unknown
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// callExpr runs a call: a launch is recorded, min and max computed, the
// SM count answered, a host function of the file run; anything else is
// an unknown value (its side effects on integers are not followed).
func (m *machine) callExpr(n *syntax.Node) Value {
	args := n.ChildByFieldName("arguments")
	var argNodes []*syntax.Node
	for i := 0; args != nil && i < int(args.NamedChildCount()); i++ {
		if c := args.NamedChild(i); c.Type() != "comment" {
			argNodes = append(argNodes, c)
		}
	}
	if cfg := n.ChildByFieldName("config"); cfg != nil {
		m.launch(n, m.dims(cfg.ChildByFieldName("grid")), m.dims(cfg.ChildByFieldName("block")), argNodes)
		return known(0)
	}
	fn := n.ChildByFieldName("function")
	if fn == nil {
		return unknown
	}
	name := fn.Content(m.src)
	if i := strings.IndexByte(name, '<'); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimPrefix(strings.TrimPrefix(name, "std::"), "::")
	switch name {
	case "min", "max", "fmin", "fmax", "umin", "umax", "llmin", "llmax":
		if len(argNodes) == 2 {
			a, b := m.expr(argNodes[0]), m.expr(argNodes[1])
			if !a.Known || !b.Known {
				return unknown
			}
			if (strings.HasSuffix(name, "min")) == (a.V < b.V) {
				return a
			}
			return b
		}
	case "cudaLaunchKernel", "cudaLaunchCooperativeKernel":
		if len(argNodes) >= 3 {
			m.launch(n, m.dims(argNodes[1]), m.dims(argNodes[2]), nil)
		}
		return known(0)
	case "cudaDeviceGetAttribute", "cudaDeviceGetAttribute_v2":
		// cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)
		if len(argNodes) >= 2 && strings.Contains(argNodes[1].Content(m.src), "MultiProcessorCount") && m.opt.SMs > 0 {
			if p := argNodes[0]; p.Type() == "pointer_expression" {
				if v := m.target(p.ChildByFieldName("argument")); v != nil {
					v.v = known(m.opt.SMs)
				}
			}
		}
		return known(0) // cudaSuccess
	}
	if strings.HasPrefix(name, "cuda") && !strings.HasPrefix(name, "cudaOccupancy") {
		// cudaMalloc, cudaMemcpyAsync, cudaGetLastError, …: the harness
		// runs the code where they succeed. An address passed out makes
		// the variable unknown.
		m.args(argNodes)
		return known(0)
	}
	if f, ok := m.funcs[name]; ok && len(f.Params) == len(argNodes) {
		vals := make([]Value, len(argNodes))
		for i, a := range argNodes {
			vals[i] = m.expr(a)
		}
		return m.call(f, vals, len(m.stack))
	}
	m.args(argNodes)
	return unknown
}

// args runs the arguments of a call the run does not follow: they still
// run (n++ in an argument), and a variable whose address is passed out
// becomes unknown.
func (m *machine) args(argNodes []*syntax.Node) {
	for _, a := range argNodes {
		if a.Type() == "pointer_expression" && a.Operator() == "&" {
			if v := m.target(a.ChildByFieldName("argument")); v != nil {
				v.v = unknown
			}
			continue
		}
		m.expr(a)
	}
}

// maxLaunches bounds the distinct launches a run records.
const maxLaunches = 10000

func (m *machine) launch(n *syntax.Node, grid, block [3]Value, args []*syntax.Node) {
	vals := make([]Value, len(args))
	for i, a := range args {
		vals[i] = m.expr(a)
	}
	key := keyOf(n, grid, block, vals)
	if l, ok := m.byKey[key]; ok {
		l.Count++
		return
	}
	if len(m.res.Launches) >= maxLaunches {
		panic(stop("launch limit"))
	}
	l := &Launch{Node: n, Grid: grid, Block: block, Args: vals, Count: 1}
	m.byKey[key] = l
	m.res.Launches = append(m.res.Launches, l)
}

func keyOf(n *syntax.Node, grid, block [3]Value, args []Value) string {
	var b strings.Builder
	w := func(v Value) {
		if v.Known {
			b.WriteString(itoa(v.V))
		} else {
			b.WriteByte('?')
		}
		b.WriteByte(',')
	}
	b.WriteString(itoa(int64(n.StartByte())))
	b.WriteByte('|')
	for i := 0; i < 3; i++ {
		w(grid[i])
		w(block[i])
	}
	for _, a := range args {
		w(a)
	}
	return b.String()
}

func itoa(v int64) string {
	neg := v < 0
	if neg {
		v = -v
	}
	var buf [24]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}
