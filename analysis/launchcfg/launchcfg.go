package launchcfg

import (
	"fmt"
	"strings"

	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// Dim is one launch dimension.
type Dim struct {
	Form affine.Form
	Text string // the value as written when it is not a constant
	// Upper is an upper bound of a value that is not a constant, when
	// the expression gives one (c / 2 with c = m < 1024 ? m : 1024 is at
	// most 512); 0 when none is known.
	Upper int64
}

// Int returns the dimension's value when it is a constant.
func (d Dim) Int() (int64, bool) { return d.Form.Int() }

func (d Dim) String() string {
	if v, ok := d.Int(); ok {
		return fmt.Sprint(v)
	}
	if d.Text != "" {
		return d.Text
	}
	return d.Form.String()
}

func one() Dim { return Dim{Form: affine.Const(1)} }

// Launch is one kernel launch site.
type Launch struct {
	Node      *syntax.Node // the call_expression
	Config    *syntax.Node // the launch_config, or the call's argument list for cudaLaunchKernel
	Caller    *syntax.Node // the enclosing function_definition, or nil
	Kernel    string       // the launched function's name, without template arguments or namespace
	Grid      [3]Dim
	Block     [3]Dim
	SharedMem Dim    // dynamic shared memory in bytes; 0 when not given
	Stream    string // the stream expression as written; "" for the default stream
}

// ThreadsPerBlock returns block.x·block.y·block.z when all are constants.
func (l *Launch) ThreadsPerBlock() (int64, bool) { return product(l.Block) }

// ThreadsPerBlockBound is ThreadsPerBlock that falls back to the
// dimensions' upper bounds: exact is false when a bound stood in for a
// value (the block is at most that large), ok false when some dimension
// has neither.
func (l *Launch) ThreadsPerBlockBound() (tpb int64, exact, ok bool) {
	if v, ok := product(l.Block); ok {
		return v, true, true
	}
	p := int64(1)
	for _, x := range l.Block {
		v, ok := x.Int()
		if !ok {
			if x.Upper <= 0 {
				return 0, false, false
			}
			v = x.Upper
		}
		p *= v
	}
	return p, false, true
}

// Blocks returns grid.x·grid.y·grid.z when all are constants.
func (l *Launch) Blocks() (int64, bool) { return product(l.Grid) }

func product(d [3]Dim) (int64, bool) {
	p := int64(1)
	for _, x := range d {
		v, ok := x.Int()
		if !ok {
			return 0, false
		}
		p *= v
	}
	return p, true
}

// Find returns the launch sites of a file in source order.
func Find(file *affine.File, root *syntax.Node) []*Launch {
	var out []*Launch
	scopes := map[[2]uint32]*affine.Scope{}
	scopeOf := func(fn *syntax.Node) *affine.Scope {
		if fn == nil {
			return file.Scope(nil)
		}
		k := [2]uint32{fn.StartByte(), fn.EndByte()}
		if s, ok := scopes[k]; ok {
			return s
		}
		s := file.Scope(fn)
		scopes[k] = s
		return s
	}
	syntax.Inspect(root, func(n *syntax.Node) bool {
		if n.Type() != "call_expression" {
			return true
		}
		if l := At(scopeOf(enclosingFunc(n)), n); l != nil {
			out = append(out, l)
		}
		return true
	})
	return out
}

// At evaluates the launch configuration of one call_expression in the
// scope of the function that contains it: a <<<…>>> launch or a
// cudaLaunchKernel call. It returns nil for other calls.
func At(scope *affine.Scope, n *syntax.Node) *Launch {
	src := scope.File.Source()
	if n == nil || n.Type() != "call_expression" {
		return nil
	}
	x := extractor{s: scope, src: src, at: n.StartByte()}
	if cfg := n.ChildByFieldName("config"); cfg != nil {
		l := &Launch{Node: n, Config: cfg, Caller: scope.Func, Kernel: KernelName(n.ChildByFieldName("function"), src)}
		l.Grid = x.dims(cfg.ChildByFieldName("grid"))
		l.Block = x.dims(cfg.ChildByFieldName("block"))
		l.SharedMem = x.scalar(cfg.ChildByFieldName("shared_mem"), 0)
		if st := cfg.ChildByFieldName("stream"); st != nil {
			l.Stream = st.Content(src)
		}
		return l
	}
	// cudaLaunchKernel(func, grid, block, args, sharedMem, stream)
	f := n.ChildByFieldName("function")
	if f == nil {
		return nil
	}
	name := f.Content(src)
	if name != "cudaLaunchKernel" && name != "cudaLaunchCooperativeKernel" {
		return nil
	}
	args := n.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() < 3 {
		return nil
	}
	l := &Launch{Node: n, Config: args, Caller: scope.Func, Kernel: KernelName(args.NamedChild(0), src)}
	l.Grid = x.dims(args.NamedChild(1))
	l.Block = x.dims(args.NamedChild(2))
	l.SharedMem = Dim{Form: affine.Const(0)}
	if args.NamedChildCount() >= 5 {
		l.SharedMem = x.scalar(args.NamedChild(4), 0)
	}
	if args.NamedChildCount() >= 6 {
		l.Stream = args.NamedChild(5).Content(src)
	}
	return l
}

// KernelName returns the plain name of a launched function expression:
// k, k<T, 4>, ns::k, (void*)k, &k.
func KernelName(n *syntax.Node, src []byte) string {
	for n != nil {
		switch n.Type() {
		case "identifier", "field_identifier":
			return n.Content(src)
		case "template_function", "qualified_identifier":
			n = n.ChildByFieldName("name")
		case "field_expression":
			n = n.ChildByFieldName("field")
		case "cast_expression":
			n = n.ChildByFieldName("value")
		case "pointer_expression":
			n = n.ChildByFieldName("argument")
		case "parenthesized_expression":
			n = n.NamedChild(0)
		default:
			t := n.Content(src)
			if i := strings.LastIndex(t, "::"); i >= 0 {
				t = t[i+2:]
			}
			if i := strings.IndexByte(t, '<'); i >= 0 {
				t = t[:i]
			}
			return strings.TrimSpace(t)
		}
	}
	return ""
}

func enclosingFunc(n *syntax.Node) *syntax.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == "function_definition" {
			return p
		}
	}
	return nil
}

type extractor struct {
	s     *affine.Scope
	src   []byte
	at    uint32 // the launch site, for name lookups and member writes
	depth int
}

// scalar evaluates a scalar configuration value; def is its value when
// the expression is absent.
func (x *extractor) scalar(n *syntax.Node, def int64) Dim {
	if n == nil {
		return Dim{Form: affine.Const(def)}
	}
	f := x.s.Eval(n)
	d := Dim{Form: f}
	if _, ok := f.Int(); !ok {
		d.Text = x.text(n, f)
		if u, ok := x.upper(n, 0); ok && u > 0 {
			d.Upper = u
		}
	}
	return d
}

// upper returns an upper bound of a non-negative integer expression: a
// constant, a variable with one definition, the smaller branch of a
// min-like conditional (m < C ? m : C), min(a, b), and sums, products,
// quotients and shifts of bounded values by constants.
func (x *extractor) upper(n *syntax.Node, depth int) (int64, bool) {
	if n == nil || depth > 8 {
		return 0, false
	}
	if v, ok := x.s.Eval(n).Int(); ok {
		return v, true
	}
	switch n.Type() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return x.upper(n.NamedChild(0), depth+1)
		}
	case "cast_expression":
		return x.upper(n.ChildByFieldName("value"), depth+1)
	case "identifier":
		d := x.s.Lookup(n.Content(x.src), x.at)
		if d != nil && d.Value != nil && len(d.Writes()) == 0 && !d.Param {
			return x.upper(d.Value, depth+1)
		}
	case "conditional_expression":
		a, aok := x.upper(n.ChildByFieldName("consequence"), depth+1)
		b, bok := x.upper(n.ChildByFieldName("alternative"), depth+1)
		switch {
		case aok && bok:
			return max(a, b), true
		case aok || bok:
			// m < C ? m : C (and the other spellings of min) is at most C.
			c := n.ChildByFieldName("condition")
			for c != nil && c.Type() == "parenthesized_expression" && c.NamedChildCount() == 1 {
				c = c.NamedChild(0)
			}
			if c == nil || c.Type() != "binary_expression" {
				return 0, false
			}
			op := c.Operator()
			l, r := c.ChildByFieldName("left"), c.ChildByFieldName("right")
			other := n.ChildByFieldName("consequence")
			bound := b
			lessFirst := op == "<" || op == "<="
			if !bok {
				other, bound = n.ChildByFieldName("alternative"), a
				lessFirst = op == ">" || op == ">="
			}
			if lessFirst && l != nil && r != nil && squeeze(l, x.src) == squeeze(other, x.src) {
				if v, ok := x.s.Eval(r).Int(); ok && v == bound {
					return bound, true
				}
			}
		}
	case "call_expression":
		if f := n.ChildByFieldName("function"); f != nil && (f.Content(x.src) == "min" || f.Content(x.src) == "std::min") {
			args := n.ChildByFieldName("arguments")
			best, found := int64(0), false
			for i := 0; args != nil && i < int(args.NamedChildCount()); i++ {
				if v, ok := x.upper(args.NamedChild(i), depth+1); ok && (!found || v < best) {
					best, found = v, true
				}
			}
			return best, found
		}
	case "binary_expression":
		l, lok := x.upper(n.ChildByFieldName("left"), depth+1)
		rc, rconst := x.s.Eval(n.ChildByFieldName("right")).Int()
		switch n.Operator() {
		case "/":
			if lok && rconst && rc > 0 {
				return l / rc, true
			}
		case ">>":
			if lok && rconst && rc >= 0 && rc < 63 {
				return l >> rc, true
			}
		case "*", "+":
			r, rok := x.upper(n.ChildByFieldName("right"), depth+1)
			if lok && rok {
				if n.Operator() == "*" {
					return l * r, true
				}
				return l + r, true
			}
		}
	}
	return 0, false
}

func squeeze(n *syntax.Node, src []byte) string {
	if n == nil {
		return ""
	}
	return strings.Join(strings.Fields(n.Content(src)), "")
}

// text renders a non-constant value: its affine form, or the expression
// as written, following a variable to its only definition.
func (x *extractor) text(n *syntax.Node, f affine.Form) string {
	if f.Kind == affine.Affine && !strings.Contains(f.String(), "[") {
		return f.String() // not a uniform quotient: (n + 255) / 256 reads better as written
	}
	if n.Type() == "identifier" {
		if d := x.s.Lookup(n.Content(x.src), x.at); d != nil && d.Value != nil && len(d.Writes()) == 0 && !strings.HasSuffix(d.Value.Type(), "_list") {
			n = d.Value
		}
	}
	return strings.Join(strings.Fields(n.Content(x.src)), " ")
}

// dims evaluates a grid or block expression: a dim3 variable or
// constructor, or a scalar.
func (x *extractor) dims(n *syntax.Node) [3]Dim {
	out := [3]Dim{one(), one(), one()}
	if n == nil || x.depth > 8 {
		return out
	}
	x.depth++
	defer func() { x.depth-- }()
	switch n.Type() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return x.dims(n.NamedChild(0))
		}
	case "call_expression", "compound_literal_expression":
		if f := n.ChildByFieldName("function"); f != nil && isDim3(f.Content(x.src)) {
			return x.list(n.ChildByFieldName("arguments"))
		}
		if t := n.ChildByFieldName("type"); t != nil && isDim3(t.Content(x.src)) {
			return x.list(n.ChildByFieldName("value"))
		}
	case "initializer_list":
		return x.list(n)
	case "identifier":
		d := x.s.Lookup(n.Content(x.src), x.at)
		if d != nil && isDim3(d.Type) {
			// A parameter, a mutable global or a variable assigned
			// whole (t = dim3(512, 1)) holds a size this site cannot
			// see: unknown, never the default 1.
			if d.Param || d.Global && !d.Has("const") && !d.Has("constexpr") || len(d.Writes()) > 0 {
				name := n.Content(x.src)
				for i := range out {
					out[i] = Dim{Form: affine.Opaque(affine.Unknown), Text: name + "." + "xyz"[i:i+1]}
				}
				return out
			}
			if d.Value != nil {
				switch d.Value.Type() {
				case "argument_list", "initializer_list", "parameter_list":
					out = x.list(d.Value)
				default:
					out = x.dims(d.Value)
				}
			}
			x.memberWrites(d, &out)
			return out
		}
	}
	out[0] = x.scalar(n, 1)
	return out
}

// list reads up to three dimensions from an argument or initializer list.
func (x *extractor) list(args *syntax.Node) [3]Dim {
	out := [3]Dim{one(), one(), one()}
	if args == nil {
		return out
	}
	k := 0
	for i := 0; i < int(args.NamedChildCount()) && k < 3; i++ {
		c := args.NamedChild(i)
		if c.Type() == "comment" {
			continue
		}
		out[k] = x.scalar(c, 1)
		k++
	}
	return out
}

// memberWrites applies v.x = e (and .y, .z) between v's declaration and
// the launch site, the last write winning.
func (x *extractor) memberWrites(d *affine.Decl, out *[3]Dim) {
	var root *syntax.Node
	if x.s.Func != nil {
		root = x.s.Func.ChildByFieldName("body")
	}
	if root == nil {
		return
	}
	syntax.Inspect(root, func(n *syntax.Node) bool {
		if n.StartByte() >= x.at {
			return false
		}
		if n.Type() != "assignment_expression" {
			return true
		}
		l := n.ChildByFieldName("left")
		if l == nil || l.Type() != "field_expression" {
			return true
		}
		arg, field := l.ChildByFieldName("argument"), l.ChildByFieldName("field")
		if arg == nil || field == nil || arg.Content(x.src) != d.Name || x.s.Lookup(d.Name, n.StartByte()) != d {
			return true
		}
		i := strings.Index("xyz", field.Content(x.src))
		if i < 0 || len(field.Content(x.src)) != 1 {
			return true
		}
		op := n.ChildByFieldName("operator")
		if op != nil && op.Type() == "=" {
			out[i] = x.scalar(n.ChildByFieldName("right"), 1)
		} else {
			out[i] = Dim{Form: affine.Opaque(affine.Unknown), Text: strings.Join(strings.Fields(n.Content(x.src)), " ")}
		}
		return true
	})
}

func isDim3(t string) bool {
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "const "))
	return t == "dim3" || t == "uint3" || t == "const dim3" || t == "constexpr dim3"
}
