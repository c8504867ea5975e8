package dataflow

import (
	_ "embed"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/analysis/taint"
)

//go:embed doc.go
var doc string

// Analyzer computes the memory accesses and taint of the file's device
// code; its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "dataflow",
	NoChecks:   true, // infrastructure: results and features only
	Doc:        analysis.MustExtractDoc(doc, "dataflow"),
	URL:        "https://cudaperf.dev/checks/dataflow",
	Requires:   []*analysis.Analyzer{kernels.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	Severity:   analysis.Info,
}

// Space is a CUDA memory space.
type Space uint8

const (
	Unknown Space = iota
	Global
	Shared
	Constant
	Local
)

func (s Space) String() string {
	switch s {
	case Global:
		return "global"
	case Shared:
		return "shared"
	case Constant:
		return "constant"
	case Local:
		return "local"
	}
	return "unknown"
}

// Access is one memory access.
type Access struct {
	Node     *syntax.Node // the subscript, pointer or field expression
	Func     *kernels.Function
	Base     string       // the variable accessed through (after following pointer copies)
	Decl     *affine.Decl // its declaration, nil for undeclared names
	Space    Space
	Read     bool
	Write    bool
	Elem     string      // element type as declared (float4 for a float4 view of a float*)
	Size     int64       // element size in bytes (4 when the type is unknown)
	SizeOK   bool        // Size comes from a known type
	Index    affine.Form // element index, in elements of Elem
	Weight   float64     // loop weight inside Func
	ReadOnly bool        // through __ldg or a const __restrict__ pointer
}

// Vector returns the number of scalars the access moves (float4 → 4).
func (a *Access) Vector() int { return affine.VectorWidth(a.Elem) }

// Call is a device function reached from a kernel, with the product of the
// loop weights of the call sites on the way and the forms of the arguments
// of its first call site, by parameter name, so that an index written in
// terms of a parameter can be seen in terms of threadIdx (Index.Subst(Bind)).
//
// Cond and Control are the most thread-dependent condition around the call
// sites on the way (see taint.Info.ControlCond) and its level: a barrier in
// a device function called under if (threadIdx.x < 16) is conditional too.
type Call struct {
	Func    *kernels.Function
	Weight  float64
	Bind    map[string]affine.Form
	Cond    *syntax.Node
	Control taint.Level
	// Levels are the thread dependence of the arguments, by parameter name
	// (nil for the kernel itself).
	Levels map[string]taint.Level
	// Spaces are the memory the pointer arguments point into, by parameter
	// name, where the caller knows it (a __shared__ array passed to a
	// device function): inside the callee a pointer parameter reads as
	// global memory.
	Spaces map[string]Space
}

// Index returns an access's index in the kernel's terms.
func (c Call) Index(a *Access) affine.Form { return a.Index.Subst(c.Bind) }

// BoundScope returns the scope of the called function with its parameters
// bound to the call's arguments (affine.Scope.Bind), once per function and
// binding.
func (r *Result) BoundScope(c Call) *affine.Scope {
	if len(c.Bind) == 0 {
		return r.Kernels.Scope(c.Func)
	}
	names := make([]string, 0, len(c.Bind))
	for n := range c.Bind {
		names = append(names, n)
	}
	sort.Strings(names)
	key := fmt.Sprintf("%p", c.Func)
	for _, n := range names {
		key += "|" + n + "=" + c.Bind[n].String()
	}
	if s, ok := r.bound[key]; ok {
		return s
	}
	s := r.Kernels.Scope(c.Func).Bind(c.Bind)
	r.bound[key] = s
	return s
}

// CallTaint returns the thread dependence of the called function's values with
// the call's argument levels.
func (r *Result) CallTaint(c Call) *taint.Info { return r.TaintOf(c.Func, c.Levels) }

// Result holds the accesses and taint of every function.
type Result struct {
	Kernels  *kernels.Result
	accesses map[*kernels.Function][]*Access
	taints   map[*kernels.Function]*taint.Info
	taintsBy map[string]*taint.Info   // by function and argument levels
	bound    map[string]*affine.Scope // by function and argument forms
	// following holds the local pointers whose initializers base is
	// resolving: `float *p = p + 1;` names itself (its scope starts at
	// its declarator), and following it again recursed until the stack
	// overflowed (found by FuzzPasses).
	following map[*affine.Decl]bool
	reach     map[*kernels.Function][]Call
	blockX    map[*kernels.Function]int64
	src       []byte
}

// Accesses returns the memory accesses written in f's body.
func (r *Result) Accesses(f *kernels.Function) []*Access { return r.accesses[f] }

// TaintOf returns the thread dependence of f's values when its parameters
// have the given levels (those of a call's arguments; nil: uniform).
func (r *Result) TaintOf(f *kernels.Function, params map[string]taint.Level) *taint.Info {
	varying := false
	for _, l := range params {
		varying = varying || l != taint.Uniform
	}
	if !varying {
		return r.Taint(f)
	}
	key := fmt.Sprintf("%p%v", f, params) // fmt sorts map keys
	if in, ok := r.taintsBy[key]; ok {
		return in
	}
	in := taint.Analyze(r.Kernels.Scope(f), taint.Options{ParamLevel: taint.Uniform, Params: params})
	r.taintsBy[key] = in
	return in
}

// Taint returns the thread dependence of f's values with uniform
// parameters (as a kernel's are).
func (r *Result) Taint(f *kernels.Function) *taint.Info {
	if in, ok := r.taints[f]; ok {
		return in
	}
	in := taint.Analyze(r.Kernels.Scope(f), taint.Options{ParamLevel: taint.Uniform})
	r.taints[f] = in
	return in
}

// BlockX returns the block width (block.x) every launch of kernel k in the
// file uses, when they agree on a constant; 0 otherwise. Below 32 a warp
// spans several rows of the block (see affine.Form.WarpShape).
func (r *Result) BlockX(k *kernels.Function) int64 {
	if v, ok := r.blockX[k]; ok {
		return v
	}
	var bx int64
	for i, l := range k.LaunchedBy {
		cfg := l.Evaluated()
		if cfg == nil {
			bx = 0
			break
		}
		v, ok := cfg.Block[0].Int()
		if !ok || (i > 0 && v != bx) {
			bx = 0
			break
		}
		bx = v
	}
	r.blockX[k] = bx
	return bx
}

// Reach returns f itself (weight 1) and the functions of the file it calls,
// transitively, each with the loop weight of its call site (the product
// along the call chain; a function called from several places gets the
// sum).
func (r *Result) Reach(f *kernels.Function) []Call {
	if out, ok := r.reach[f]; ok {
		return out
	}
	out := r.reachOf(f)
	r.reach[f] = out
	return out
}

func (r *Result) reachOf(f *kernels.Function) []Call {
	out := []Call{{Func: f, Weight: 1}}
	index := map[*kernels.Function]int{f: 0}
	var visit func(g *kernels.Function, w float64, bind map[string]affine.Form, levels map[string]taint.Level, spaces map[string]Space, cond *syntax.Node, ctl taint.Level, depth int)
	visit = func(g *kernels.Function, w float64, bind map[string]affine.Form, levels map[string]taint.Level, spaces map[string]Space, cond *syntax.Node, ctl taint.Level, depth int) {
		if depth > 8 || g.Body == nil {
			return
		}
		loops := r.Kernels.Loops(g)
		scope := r.Kernels.Scope(g)
		for _, st := range g.Sites {
			n := st.Node
			if st.Kind != kernels.CallSite || n.ChildByFieldName("config") != nil {
				continue
			}
			fn := n.ChildByFieldName("function")
			if fn == nil {
				continue
			}
			name := fn.Content(r.src)
			for _, callee := range g.Calls {
				if callee.Name != name && callee.Qualified != name {
					continue
				}
				cw := w * loops.Weight(n)
				if i, ok := index[callee]; ok {
					if callee != f {
						out[i].Weight += cw
					}
					continue
				}
				cb := map[string]affine.Form{}
				lv := map[string]taint.Level{}
				sp := map[string]Space{}
				if args := n.ChildByFieldName("arguments"); args != nil {
					named := namedChildren(args)
					callerTaint := r.TaintOf(g, levels)
					for i, p := range callee.Params {
						if i < len(named) && p.Name != "" {
							cb[p.Name] = scope.Eval(named[i]).Subst(bind)
							lv[p.Name] = callerTaint.Expr(named[i])
							if p.Pointer > 0 {
								sp[p.Name] = r.argSpace(g, named[i], spaces)
							}
						}
					}
				}
				ccond, cctl := cond, ctl
				if c, l := r.TaintOf(g, levels).ControlCond(n); l > cctl {
					ccond, cctl = c, l
				}
				index[callee] = len(out)
				out = append(out, Call{Func: callee, Weight: cw, Bind: cb, Cond: ccond, Control: cctl, Levels: lv, Spaces: sp})
				visit(callee, cw, cb, lv, sp, ccond, cctl, depth+1)
			}
		}
	}
	visit(f, 1, nil, nil, nil, nil, taint.Uniform, 0)
	return out
}

// argSpace is the memory a pointer argument of a call in g points into:
// what g declares it as, or, for g's own pointer parameter, what g's
// caller passed (spaces); Unknown when neither says.
func (r *Result) argSpace(g *kernels.Function, arg *syntax.Node, spaces map[string]Space) Space {
	a := r.Address(g, arg)
	if a == nil {
		return Unknown
	}
	if a.Decl != nil && a.Decl.Param {
		if s, ok := spaces[a.Base]; ok {
			return s
		}
	}
	return a.Space
}

func run(pass *analysis.Pass) (any, error) {
	kr := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	return Build(kr, pass.File.Src), nil
}

// Build computes the Result from the kernels analyzer's result.
func Build(kr *kernels.Result, src []byte) *Result {
	r := &Result{Kernels: kr, accesses: map[*kernels.Function][]*Access{}, taints: map[*kernels.Function]*taint.Info{}, taintsBy: map[string]*taint.Info{}, bound: map[string]*affine.Scope{},
		following: map[*affine.Decl]bool{}, reach: map[*kernels.Function][]Call{}, blockX: map[*kernels.Function]int64{}, src: src}
	for _, f := range kr.Functions {
		if !f.IsDeviceCode() || f.Body == nil {
			continue
		}
		r.accesses[f] = r.collect(f)
	}
	return r
}

// collect finds the accesses of one function.
func (r *Result) collect(f *kernels.Function) []*Access {
	s := r.Kernels.Scope(f)
	loops := r.Kernels.Loops(f)
	var out []*Access
	f.WalkExprs(func(n *syntax.Node, kind string) bool {
		var a *Access
		switch kind {
		case "lambda_expression":
			return false
		case "subscript_expression":
			// Only the outermost subscript of a chain is an access.
			if p := n.Parent(); p != nil && p.Type() == "subscript_expression" && sameNode(p.ChildByFieldName("argument"), n) {
				return true
			}
			a = r.subscript(s, n)
			r.fieldView(a, memberOf(n))
		case "pointer_expression":
			if op := n.ChildByFieldName("operator"); op != nil && op.Type() == "*" {
				a = r.deref(s, n, n.ChildByFieldName("argument"))
			}
		case "field_expression":
			if op := n.ChildByFieldName("operator"); op != nil && op.Type() == "->" {
				a = r.deref(s, n, n.ChildByFieldName("argument"))
				r.fieldView(a, n) // (p + i)->x: one member, as p[i].x
			}
		case "call_expression":
			if fn := n.ChildByFieldName("function"); fn != nil && strings.HasPrefix(fn.Content(r.src), "__ldg") {
				if args := n.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() == 1 {
					a = r.ldg(s, n, args.NamedChild(0))
					if a != nil {
						a.Func, a.Weight = f, loops.Weight(n)
						out = append(out, a)
					}
					return false
				}
			}
		}
		if a == nil {
			return true
		}
		if addressTaken(n) {
			return true // &a[i] is an address, not an access
		}
		a.Func, a.Weight = f, loops.Weight(n)
		a.Read, a.Write = direction(n)
		out = append(out, a)
		return true
	})
	return out
}

// ldg reads __ldg(&a[i]) and __ldg(p + i).
func (r *Result) ldg(s *affine.Scope, call, arg *syntax.Node) *Access {
	var a *Access
	if arg.Type() == "pointer_expression" {
		if op := arg.ChildByFieldName("operator"); op != nil && op.Type() == "&" {
			if in := arg.ChildByFieldName("argument"); in != nil && in.Type() == "subscript_expression" {
				a = r.subscript(s, in)
			}
		}
	} else {
		a = r.deref(s, call, arg)
	}
	if a == nil {
		return nil
	}
	a.Node, a.Read, a.ReadOnly = call, true, true
	return a
}

func sameNode(a, b *syntax.Node) bool {
	return a != nil && b != nil && a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte() && a.Type() == b.Type()
}

func addressTaken(n *syntax.Node) bool {
	p := n.Parent()
	for p != nil && p.Type() == "parenthesized_expression" {
		p = p.Parent()
	}
	if p == nil || p.Type() != "pointer_expression" {
		return false
	}
	op := p.ChildByFieldName("operator")
	return op != nil && op.Type() == "&"
}

// fieldView narrows a[i].f, an access of one member of an element of a
// struct the file lays out (affine.File.StructLayout), to that member:
// its size, and the index in its units (i * sizeof(struct) / sizeof(f) +
// offsetof(f) / sizeof(f)). Without it the struct's size was unknown and
// taken as 4 bytes, so reading one float of a 32-byte struct per thread
// looked perfectly coalesced. Left alone when the struct's size or the
// member's offset is not a multiple of the member's size.
func (r *Result) fieldView(a *Access, p *syntax.Node) {
	if a == nil || a.SizeOK || p == nil {
		return
	}
	name := p.ChildByFieldName("field")
	if name == nil {
		return
	}
	l, ok := r.Kernels.Affine.StructLayout(a.Elem)
	if !ok {
		return
	}
	f, ok := l.Fields[name.Content(r.src)]
	if !ok || f.Count != 1 || l.Size%f.Size != 0 || f.Offset%f.Size != 0 {
		return
	}
	if a.Index.Kind == affine.Affine {
		a.Index = a.Index.Scale(l.Size / f.Size).Add(affine.Const(f.Offset / f.Size))
	}
	a.Elem, a.Size, a.SizeOK = f.Type, f.Size, true
}

// memberOf returns the field expression n.f that selects a member of the
// element subscript n names (a[i].f), or nil.
func memberOf(n *syntax.Node) *syntax.Node {
	c, p := n, n.Parent()
	for p != nil && p.Type() == "parenthesized_expression" {
		c, p = p, p.Parent()
	}
	if p == nil || p.Type() != "field_expression" || !sameNode(p.ChildByFieldName("argument"), c) {
		return nil
	}
	if op := p.ChildByFieldName("operator"); op == nil || op.Type() != "." {
		return nil
	}
	return p
}

// direction says whether an access node is read, written or both.
func direction(n *syntax.Node) (read, write bool) {
	c := n
	p := c.Parent()
	for p != nil && p.Type() == "parenthesized_expression" {
		c, p = p, p.Parent()
	}
	// a[i].x = v writes a[i].
	for p != nil && p.Type() == "field_expression" && p.ChildByFieldName("operator") != nil && p.ChildByFieldName("operator").Type() == "." {
		c, p = p, p.Parent()
	}
	if p == nil {
		return true, false
	}
	switch p.Type() {
	case "assignment_expression":
		if sameNode(p.ChildByFieldName("left"), c) {
			op := p.ChildByFieldName("operator")
			if op != nil && op.Type() == "=" {
				return false, true
			}
			return true, true
		}
	case "update_expression":
		return true, true
	}
	return true, false
}

// subscript resolves a[i], a[i][j] and view[i] of a cast pointer.
func (r *Result) subscript(s *affine.Scope, n *syntax.Node) *Access {
	var idx []*syntax.Node
	cur := n
	for cur != nil && cur.Type() == "subscript_expression" {
		ind := cur.ChildByFieldName("indices")
		if ind == nil || ind.NamedChildCount() == 0 {
			ind = cur.ChildByFieldName("index")
			if ind == nil {
				return nil
			}
		} else {
			ind = ind.NamedChild(0)
		}
		idx = append([]*syntax.Node{ind}, idx...)
		cur = unparen(cur.ChildByFieldName("argument"))
	}
	if cur == nil {
		return nil
	}
	// reinterpret_cast<float4*>(p)[i], ((float4*)(p + off))[i]
	if _, inner := castPointer(cur, r.src); inner != nil {
		a := r.pointer(s, cur, n.StartByte(), 0)
		if a == nil {
			return nil
		}
		a.Node = n
		if len(idx) == 1 {
			a.Index = a.Index.Add(s.Eval(idx[0]))
		} else {
			a.Index = affine.Opaque(affine.Unknown)
		}
		return a
	}
	a := r.pointer(s, cur, n.StartByte(), 0)
	if a == nil {
		return nil
	}
	a.Node = n
	// Flatten with the declared dimensions: t[i][j] of t[R][C] is i*C + j.
	form := a.Index
	var dims []*syntax.Node
	if a.Decl != nil {
		dims = a.Decl.Dims
	}
	for k, ix := range idx {
		f := s.Eval(ix)
		if k > 0 {
			if k < len(dims) && dims[k] != nil {
				form = form.Mul(s.Eval(dims[k]))
			} else {
				form = affine.Opaque(affine.Unknown)
			}
		}
		form = form.Add(f)
	}
	a.Index = form
	return a
}

// deref resolves *p, *(p + i), p->f and *reinterpret_cast<float4*>(p + i).
func (r *Result) deref(s *affine.Scope, n, ptr *syntax.Node) *Access {
	a := r.pointer(s, ptr, n.StartByte(), 0)
	if a == nil {
		return nil
	}
	a.Node = n
	return a
}

// pointer resolves a pointer expression to the access it designates: p,
// p + e, &a[e], (T*)e and reinterpret_cast<T*>(e), the index counted in
// elements of the final type.
func (r *Result) pointer(s *affine.Scope, n *syntax.Node, at uint32, depth int) *Access {
	n = unparen(n)
	if n == nil || depth > 8 {
		return nil
	}
	switch n.Type() {
	case "identifier":
		return r.base(s, n, at)
	case "binary_expression":
		op := n.ChildByFieldName("operator")
		if op == nil || (op.Type() != "+" && op.Type() != "-") {
			return nil
		}
		a := r.pointer(s, n.ChildByFieldName("left"), at, depth+1)
		if a == nil {
			return nil
		}
		off := s.Eval(n.ChildByFieldName("right"))
		if op.Type() == "-" {
			off = off.Scale(-1)
		}
		a.Index = a.Index.Add(off)
		return a
	case "pointer_expression":
		op := n.ChildByFieldName("operator")
		arg := unparen(n.ChildByFieldName("argument"))
		if op != nil && op.Type() == "&" && arg != nil && arg.Type() == "subscript_expression" {
			return r.subscript(s, arg)
		}
		return nil
	}
	if elem, inner := castPointer(n, r.src); inner != nil {
		a := r.pointer(s, inner, at, depth+1)
		if a != nil {
			r.view(a, elem)
		}
		return a
	}
	return nil
}

// base resolves the variable an access goes through, following local
// pointers to what they were initialised from: float* row = A + r*K.
func (r *Result) base(s *affine.Scope, n *syntax.Node, at uint32) *Access {
	n = unparen(n)
	if n == nil || n.Type() != "identifier" {
		return nil
	}
	name := n.Content(r.src)
	d := s.Lookup(name, at)
	a := &Access{Base: name, Decl: d, Index: affine.Const(0), Size: 4}
	if d == nil {
		a.Space = Global // an undeclared name: a __device__ array from a header
		return a
	}
	a.Elem = d.Type
	a.Size, a.SizeOK = affine.SizeOf(d.Type)
	if !a.SizeOK {
		a.Size = 4
	}
	a.ReadOnly = d.Has("const") && d.Has("__restrict__")
	switch {
	case d.Has("__shared__"):
		a.Space = Shared
	case d.Has("__constant__"):
		a.Space = Constant
	case d.Param && d.Pointer > 0:
		a.Space = Global
	case d.Global:
		a.Space = Global
	case len(d.Dims) > 0:
		a.Space = Local
	case (d.Pointer > 0 || isAuto(d.Type)) && pointerValue(d) != nil && !r.following[d]:
		// A local pointer: follow its initializer, or its one plain
		// assignment (const float4 *p; p = (const float4 *)x;), unless
		// it leads back here: then where the pointer points is unknown.
		// auto p = reinterpret_cast<const float4 *>(x + 4 * i) is one.
		r.following[d] = true
		inner := r.pointerInit(s, d)
		delete(r.following, d)
		if inner == nil {
			a.Space = Unknown
			return a
		}
		if inner.Elem != d.Type && d.Type != "" {
			r.view(inner, d.Type)
		}
		return inner
	default:
		a.Space = Unknown
	}
	return a
}

// pointerInit resolves a local pointer's initializer: p = A, A + e, &A[e],
// reinterpret_cast<T*>(A).
func (r *Result) pointerInit(s *affine.Scope, d *affine.Decl) *Access {
	val := pointerValue(d)
	v := unparen(val)
	if v == nil {
		return nil
	}
	at := val.StartByte()
	switch v.Type() {
	case "identifier":
		return r.base(s, v, at)
	case "binary_expression":
		op := v.ChildByFieldName("operator")
		if op == nil || op.Type() != "+" {
			return nil
		}
		l, rr := unparen(v.ChildByFieldName("left")), v.ChildByFieldName("right")
		if elem, inner := castPointer(l, r.src); inner != nil {
			a := r.base(s, inner, at)
			if a == nil {
				return nil
			}
			r.view(a, elem)
			a.Index = s.Eval(rr)
			return a
		}
		a := r.base(s, l, at)
		if a == nil {
			return nil
		}
		a.Index = a.Index.Add(s.Eval(rr))
		return a
	case "pointer_expression":
		op := v.ChildByFieldName("operator")
		arg := v.ChildByFieldName("argument")
		if op == nil || op.Type() != "&" || arg == nil || arg.Type() != "subscript_expression" {
			return nil
		}
		return r.subscript(s, arg)
	}
	if elem, inner := castPointer(v, r.src); inner != nil {
		// reinterpret_cast<const float4 *>(x + 4 * i): the cast pointer
		// may itself be an expression.
		a := r.pointer(s, inner, at, 1)
		if a != nil {
			r.view(a, elem)
		}
		return a
	}
	return nil
}

// pointerValue is what a local pointer points at: its initializer, or
// the right side of its only write when that is a plain assignment and it
// has no initializer; nil otherwise.
func pointerValue(d *affine.Decl) *syntax.Node {
	ws := d.Writes()
	if d.Value != nil {
		if len(ws) == 0 {
			return d.Value
		}
		return nil
	}
	if len(ws) != 1 || ws[0].Type() != "assignment_expression" {
		return nil
	}
	if op := ws[0].ChildByFieldName("operator"); op == nil || op.Type() != "=" {
		return nil
	}
	return ws[0].ChildByFieldName("right")
}

func isAuto(t string) bool {
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "const "))
	return t == "auto" || t == "auto const"
}

// view re-types an access as elem (a float4 view of a float array):
// the index is then in units of elem.
func (r *Result) view(a *Access, elem string) {
	if sz, ok := affine.SizeOf(elem); ok {
		if a.Index.Kind == affine.Affine && a.Size > 0 && sz > 0 && sz != a.Size {
			a.Index = a.Index.Scale(a.Size).Div(affine.Const(sz))
		}
		a.Elem, a.Size, a.SizeOK = strings.TrimSpace(strings.TrimPrefix(elem, "const ")), sz, true
	}
}

// castPointer recognises reinterpret_cast<T*>(p), (T*)p and
// static_cast<T*>(p), returning T and p.
func castPointer(n *syntax.Node, src []byte) (string, *syntax.Node) {
	n = unparen(n)
	if n == nil {
		return "", nil
	}
	switch n.Type() {
	case "cast_expression":
		t := n.ChildByFieldName("type")
		if t == nil || !strings.Contains(t.Content(src), "*") {
			return "", nil
		}
		return strings.TrimSpace(strings.ReplaceAll(t.Content(src), "*", "")), n.ChildByFieldName("value")
	case "call_expression":
		fn := n.ChildByFieldName("function")
		if fn == nil || fn.Type() != "template_function" {
			return "", nil
		}
		name := fn.ChildByFieldName("name")
		if name == nil {
			return "", nil
		}
		switch name.Content(src) {
		case "reinterpret_cast", "static_cast":
		default:
			return "", nil
		}
		targs := fn.ChildByFieldName("arguments")
		args := n.ChildByFieldName("arguments")
		if targs == nil || args == nil || args.NamedChildCount() != 1 {
			return "", nil
		}
		t := strings.Trim(targs.Content(src), "<>")
		if !strings.Contains(t, "*") {
			return "", nil
		}
		return strings.TrimSpace(strings.ReplaceAll(t, "*", "")), args.NamedChild(0)
	}
	return "", nil
}

func unparen(n *syntax.Node) *syntax.Node {
	for n != nil && n.Type() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	return n
}

// Address resolves a pointer expression of function f — &a[i], a + i, a,
// &x — to the access it designates (the target of an atomic, say), or nil
// when it cannot tell.
func (r *Result) Address(f *kernels.Function, n *syntax.Node) *Access {
	s := r.Kernels.Scope(f)
	n = unparen(n)
	for n != nil && n.Type() == "cast_expression" {
		n = unparen(n.ChildByFieldName("value"))
	}
	if n == nil {
		return nil
	}
	var a *Access
	if n.Type() == "pointer_expression" {
		if op := n.ChildByFieldName("operator"); op != nil && op.Type() == "&" {
			arg := unparen(n.ChildByFieldName("argument"))
			switch {
			case arg == nil:
				return nil
			case arg.Type() == "subscript_expression":
				a = r.subscript(s, arg)
			case arg.Type() == "identifier":
				a = r.base(s, arg, n.StartByte())
				if a != nil && a.Decl != nil && !a.Decl.Global && !a.Decl.Has("__shared__") {
					a.Space = Local // the address of a per-thread variable
				}
			}
		}
	} else {
		a = r.deref(s, n, n)
	}
	if a != nil {
		a.Node, a.Func = n, f
		a.Weight = r.Kernels.Loops(f).Weight(n)
	}
	return a
}

func namedChildren(n *syntax.Node) []*syntax.Node {
	var out []*syntax.Node
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); c.IsNamed() && c.Type() != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// IndexIn resolves access a again in scope s, a scope of a.Func with
// parameters (and blockDim, gridDim) bound (affine.Scope.Bind), and
// returns its index there: k / 2 is a constant once k is bound, which
// substituting into a.Index afterwards cannot give. It returns a.Index
// when the node no longer reads as an access.
func (r *Result) IndexIn(s *affine.Scope, a *Access) affine.Form {
	n := a.Node
	var b *Access
	switch n.Type() {
	case "subscript_expression":
		b = r.subscript(s, n)
	case "pointer_expression", "field_expression":
		b = r.deref(s, n, n.ChildByFieldName("argument"))
	case "call_expression":
		if args := n.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() == 1 {
			b = r.ldg(s, n, args.NamedChild(0))
		}
	}
	if b == nil {
		return a.Index
	}
	return b.Index
}
