package affine

import (
	"sort"
	"strconv"
	"strings"

	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// maxDepth bounds substitution through definitions and macros, so that
// pathological input yields Unknown instead of exhausting the stack.
const maxDepth = 64

// Eval returns the form of expression n, which must belong to the scope's
// file.
func (s *Scope) Eval(n *syntax.Node) Form {
	if s.depth > 0 || n != nil && (n.Type() == "identifier" || n.Type() == "number_literal") {
		// Inside a variable's Value, where the variable stands for
		// itself for a while: not a result to keep. A name or a number
		// costs less to evaluate again (a name's value is memoized)
		// than to memoize.
		return s.eval(n, s.src, 0)
	}
	// Passes evaluate the same indices, conditions and bounds again and
	// again (dataflow, taint, divergence, tripcount, launchcfg). A result
	// at top level is final: every Value it used is memoized already, so
	// evaluating again would give the same form.
	if f, ok := s.evals[n]; ok {
		return f
	}
	f := s.eval(n, s.src, 0)
	if s.evals == nil {
		s.evals = map[*syntax.Node]Form{}
	}
	s.evals[n] = f
	return f
}

// EvalAt returns the form of expression n from another source (a macro
// body) with names resolved as if written at byte offset at of the file.
func (s *Scope) evalAt(n *syntax.Node, src []byte, at uint32) Form {
	return s.eval(n, src, at)
}

// Value returns the form of a declared variable as seen by its uses (see
// the package doc for the rules on reassigned variables).
func (s *Scope) Value(d *Decl) Form {
	if f, ok := s.memo[d]; ok {
		return f
	}
	if s.busy[d] || s.depth > maxDepth {
		return Opaque(Unknown)
	}
	if s.memo == nil {
		// Made on first use: many scopes never get this far.
		s.memo, s.busy = map[*Decl]Form{}, map[*Decl]bool{}
	}
	s.busy[d] = true
	s.depth++
	f := s.value(d)
	s.depth--
	delete(s.busy, d)
	s.memo[d] = f
	return f
}

func (s *Scope) value(d *Decl) Form {
	if len(d.Dims) > 0 {
		return Opaque(Unknown) // an array name is an address, not an index
	}
	var plains []Form
	switch {
	case d.Param:
		if v, ok := s.bound[d.Name]; ok {
			plains = append(plains, v)
		} else {
			plains = append(plains, Sym(d.Name))
		}
	case d.Global:
		if d.Value != nil && (d.Has("const") || d.Has("constexpr")) {
			return s.initValue(d)
		}
		return Sym(d.Name) // a mutable global: uniform, unknown value
	case d.Value != nil:
		plains = append(plains, s.initValue(d))
	}
	// While the writes are evaluated the variable stands for itself, so
	// that i = i + 2 reads as a step of 2.
	s.memo[d] = Sym(d.Name)
	defer delete(s.memo, d)
	var steps, others []Form
	for _, w := range d.writes {
		switch w.Type() {
		case "update_expression":
			op := ""
			if o := w.ChildByFieldName("operator"); o != nil {
				op = o.Type()
			}
			if op == "--" {
				steps = append(steps, Const(-1))
			} else {
				steps = append(steps, Const(1))
			}
		case "assignment_expression":
			op := ""
			if o := w.ChildByFieldName("operator"); o != nil {
				op = o.Type()
			}
			rhs := s.Eval(w.ChildByFieldName("right"))
			switch op {
			case "=":
				if step := rhs.Sub(Sym(d.Name)); rhs.Kind == Affine && rhs.Coef(d.Name) == 1 && step.Coef(d.Name) == 0 && !mentions(step, d.Name) {
					steps = append(steps, step)
				} else if mentions(rhs, d.Name) {
					others = append(others, rhs)
				} else {
					plains = append(plains, rhs)
				}
			case "+=":
				steps = append(steps, rhs)
			case "-=":
				steps = append(steps, rhs.Scale(-1))
			default:
				others = append(others, rhs)
			}
		default: // &name: written through a pointer
			others = append(others, Opaque(Unknown))
		}
	}
	if len(plains) == 0 {
		return Opaque(Unknown) // never given a value we can see
	}
	v := plains[0]
	for _, p := range plains[1:] {
		if !p.Equal(v) {
			v = join(append(plains, others...)...)
			if v.Kind == NonAffine {
				v.Kind = Unknown // which definition reaches a use is not tracked
			}
			return v.without(d.Name)
		}
	}
	if len(others) > 0 {
		// s >>= 1, i *= 2: a uniform variable stays a uniform symbol.
		all := append([]Form{v}, others...)
		for _, o := range all {
			if o.Kind == Unknown || o.DependsOn(func(x string) bool { return IsThreadSym(x) }) {
				return join(all...).without(d.Name)
			}
		}
		return Sym(d.Name)
	}
	if len(steps) == 0 {
		return v
	}
	step := steps[0]
	for _, st := range steps {
		if st.Kind != Affine || st.ThreadDependent() || mentions(st, d.Name) {
			return join(append([]Form{v}, steps...)...).without(d.Name)
		}
		if !st.Equal(step) {
			step = Const(1) // mixed steps: count progress in the symbol itself
		}
	}
	return v.Add(step.Mul(Sym(d.Name)))
}

// valueAt refines Value for a variable that is reassigned with plain
// assignments only (x = …; … x = …;): a use sees the last assignment before
// it in the same or an enclosing block, provided no other assignment could
// intervene — one in a nested block between the two, or a later one in a
// loop around the use that the chosen assignment is outside of.
func (s *Scope) valueAt(d *Decl, pos uint32) Form {
	if d.Param || d.Global || len(d.writes) == 0 || len(d.Dims) > 0 {
		return s.Value(d)
	}
	defs := s.defsOf(d)
	if defs == nil {
		return s.Value(d)
	}
	// defs are in source order: the last one starting before pos must be a
	// statement of a block around pos (else a conditional reassignment or
	// none at all reaches the use).
	j := sort.Search(len(defs), func(i int) bool { return defs[i].at.StartByte() >= pos })
	best := j - 1
	if best < 0 {
		return s.Value(d)
	}
	if df := defs[best]; df.at.EndByte() > pos || df.blk == nil || df.blk.StartByte() > pos || pos >= df.blk.EndByte() {
		return s.Value(d)
	}
	chosen := defs[best].at
	// A later definition in a loop around the use (and not around the
	// chosen one) reaches it on the next iteration. Defs after pos inside
	// such a loop start with defs[j], so checking it is enough.
	if j < len(defs) {
		for _, l := range defs[j].loops {
			if l.StartByte() <= pos && pos < l.EndByte() && !(l.StartByte() <= chosen.StartByte() && chosen.EndByte() <= l.EndByte()) {
				return s.Value(d) // loop-carried
			}
		}
	}
	rhs := defs[best].rhs
	if f, ok := s.rhsMemo[rhs]; ok {
		return f
	}
	f := s.Eval(rhs)
	if s.rhsMemo == nil {
		s.rhsMemo = map[*syntax.Node]Form{}
	}
	s.rhsMemo[rhs] = f
	return f
}

// def is one plain definition of a variable: its statement, the block the
// statement is in (nil when it is not directly in a block), the loops
// around it and the value.
type def struct {
	at, blk, rhs *syntax.Node
	loops        []*syntax.Node
}

// defsOf lists a variable's definitions for valueAt, once per variable;
// nil when one of its writes is not a plain assignment statement.
func (s *Scope) defsOf(d *Decl) []def {
	if defs, ok := s.defs[d]; ok {
		return defs
	}
	var defs []def
	add := func(at, rhs *syntax.Node) {
		df := def{at: at, rhs: rhs}
		if blk := at.Parent(); blk != nil && blockLike(blk) {
			df.blk = blk
		}
		for l := at.Parent(); l != nil && l.Type() != "function_definition"; l = l.Parent() {
			switch l.Type() {
			case "for_statement", "while_statement", "do_statement":
				df.loops = append(df.loops, l)
			}
		}
		defs = append(defs, df)
	}
	if d.Value != nil {
		decl := d.Ident.Parent()
		for decl != nil && decl.Type() != "declaration" {
			decl = decl.Parent()
		}
		if decl != nil {
			add(decl, d.Value)
		}
	}
	for _, w := range d.writes {
		op := w.ChildByFieldName("operator")
		stmt := w.Parent()
		if w.Type() != "assignment_expression" || op == nil || op.Type() != "=" || mentionsIdent(w.ChildByFieldName("right"), d.Name, s.src) ||
			stmt == nil || stmt.Type() != "expression_statement" {
			defs = nil
			break
		}
		add(stmt, w.ChildByFieldName("right"))
	}
	sort.SliceStable(defs, func(a, b int) bool { return defs[a].at.StartByte() < defs[b].at.StartByte() })
	if s.defs == nil {
		s.defs = map[*Decl][]def{}
	}
	s.defs[d] = defs
	return defs
}

func blockLike(n *syntax.Node) bool {
	switch n.Type() {
	case "compound_statement", "translation_unit":
		return true
	}
	return false
}

func mentionsIdent(n *syntax.Node, name string, src []byte) bool {
	found := false
	syntax.Inspect(n, func(c *syntax.Node) bool {
		if c.Type() == "identifier" && c.Content(src) == name {
			found = true
		}
		return !found
	})
	return found
}

// initValue evaluates a declaration's initializer: = e, (e) or {e}.
func (s *Scope) initValue(d *Decl) Form {
	v := d.Value
	switch v.Type() {
	case "argument_list", "initializer_list", "parameter_list":
		if v.NamedChildCount() != 1 {
			return Opaque(Unknown)
		}
		v = v.NamedChild(0)
	}
	return s.Eval(v)
}

func mentions(f Form, sym string) bool { return f.Mentions(sym) }

// without drops sym from the dependencies of a non-affine form; used when
// a variable's own symbol leaked into its value.
func (f Form) without(sym string) Form {
	if f.Kind == Affine {
		return f
	}
	out := Form{Kind: f.Kind}
	for _, d := range f.deps {
		if d != sym {
			out.deps = append(out.deps, d)
		}
	}
	return out
}

var builtinVars = map[string]bool{"threadIdx": true, "blockIdx": true, "blockDim": true, "gridDim": true}

func (s *Scope) eval(n *syntax.Node, src []byte, at uint32) Form {
	if n == nil {
		return Opaque(Unknown)
	}
	if s.depth > maxDepth {
		return Opaque(Unknown)
	}
	s.depth++
	defer func() { s.depth-- }()
	pos := at
	if pos == 0 {
		pos = n.StartByte()
	}
	sub := func(c *syntax.Node) Form { return s.eval(c, src, at) }
	switch n.Type() {
	case "number_literal":
		if v, ok := ParseInt(n.Content(src)); ok {
			return Const(v)
		}
		return Opaque(NonAffine) // a floating-point literal
	case "true":
		return Const(1)
	case "false", "null", "nullptr":
		return Const(0)
	case "char_literal":
		return Opaque(NonAffine)
	case "identifier":
		return s.ident(text(n, src), pos)
	case "parameter_declaration":
		// An argument of a vexing-parse constructor: dim3 b(TILE, TILE).
		if t := n.ChildByFieldName("type"); t != nil && n.NamedChildCount() == 1 && t.Type() == "type_identifier" {
			return s.ident(text(t, src), pos)
		}
		return Opaque(Unknown)
	case "field_expression":
		arg, field := n.ChildByFieldName("argument"), n.ChildByFieldName("field")
		if arg != nil && field != nil && arg.Type() == "identifier" && builtinVars[arg.Content(src)] {
			switch fl := field.Content(src); fl {
			case "x", "y", "z":
				name := arg.Content(src) + "." + fl
				if v, ok := s.bound[name]; ok {
					return v // Bind gave the launch's dimension (blockDim.x = 256)
				}
				return Sym(name)
			}
		}
		return join(sub(arg)).unknown()
	case "parenthesized_expression", "condition_clause":
		if n.NamedChildCount() == 0 {
			return Opaque(Unknown)
		}
		return sub(n.NamedChild(int(n.NamedChildCount()) - 1))
	case "cast_expression":
		return sub(n.ChildByFieldName("value"))
	case "comma_expression":
		return sub(n.ChildByFieldName("right"))
	case "assignment_expression":
		return sub(n.ChildByFieldName("right"))
	case "unary_expression":
		x := sub(n.ChildByFieldName("argument"))
		op := ""
		if o := n.ChildByFieldName("operator"); o != nil {
			op = o.Type()
		}
		switch op {
		case "-":
			if x.Kind != Affine {
				return x
			}
			return x.Scale(-1)
		case "+":
			return x
		case "!":
			if v, ok := x.Int(); ok {
				return Const(b2i(v == 0))
			}
		case "~":
			if v, ok := x.Int(); ok {
				return Const(^v)
			}
		}
		return x.nonAffine()
	case "binary_expression":
		return s.binary(n, src, at)
	case "conditional_expression":
		c := sub(n.ChildByFieldName("condition"))
		a, b := sub(n.ChildByFieldName("consequence")), sub(n.ChildByFieldName("alternative"))
		if v, ok := c.Int(); ok {
			if v != 0 {
				return a
			}
			return b
		}
		if a.Equal(b) {
			return a
		}
		return join(c, a, b)
	case "sizeof_expression":
		if t := n.ChildByFieldName("type"); t != nil {
			if sz, ok := SizeOf(typeText(t, src)); ok {
				return Const(sz)
			}
		}
		// sizeof(float4) without a type hint parses as sizeof of a
		// parenthesized name.
		if v := n.ChildByFieldName("value"); v != nil {
			if sz, ok := SizeOf(strings.Trim(v.Content(src), "() \t")); ok {
				return Const(sz)
			}
		}
		return Opaque(NonAffine)
	case "call_expression":
		return s.call(n, src, at)
	}
	// Loads (a[i], *p, p->f) and anything else: unknown, but keep the
	// symbols it was computed from.
	var parts []Form
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i) // Child is direct; NamedChild scans
		if !c.IsNamed() {
			continue
		}
		switch c.Type() {
		case "identifier", "field_expression", "binary_expression", "subscript_argument_list",
			"parenthesized_expression", "subscript_expression", "call_expression", "unary_expression":
			if c.Type() == "subscript_argument_list" {
				for j := 0; j < int(c.ChildCount()); j++ {
					if g := c.Child(j); g.IsNamed() {
						parts = append(parts, sub(g))
					}
				}
				continue
			}
			parts = append(parts, sub(c))
		}
	}
	return join(parts...).unknown()
}

func (f Form) unknown() Form {
	f = f.nonAffine()
	f.Kind = Unknown
	return f
}

// text returns the source of n without copying it.
func text(n *syntax.Node, src []byte) []byte {
	if int(n.EndByte()) > len(src) || n.StartByte() > n.EndByte() {
		return nil
	}
	return src[n.StartByte():n.EndByte()]
}

// ident evaluates a name. It takes the source bytes: names are looked up
// without a copy (m[string(b)] makes none), and only an undeclared one is
// copied, into its symbol.
func (s *Scope) ident(name []byte, pos uint32) Form {
	if m, ok := s.File.macros[string(name)]; ok {
		if m.isLit {
			// What evaluating the parsed literal gives, depth limit
			// included, without parsing it.
			if s.depth > maxDepth {
				return Opaque(Unknown)
			}
			return Const(m.lit)
		}
		if s.hidden(string(name)) {
			return Sym(string(name))
		}
		return s.expandMacro(m, string(name), pos)
	}
	if d := lookup(s, name, pos); d != nil {
		return s.valueAt(d, pos)
	}
	if string(name) == "warpSize" {
		return Const(32)
	}
	return Sym(string(name)) // an undeclared name (a global from a header): uniform
}

// expandMacro evaluates macro m (an object-like macro, or a function-like
// one's expansion), called name, used at pos. As the preprocessor does, a
// macro's own name inside its expansion is not expanded again (C11
// 6.10.3.4p2; see hidden), so that "#define N (N + 1)" or two macros
// naming each other end. Each expansion is evaluated once per use site
// and enclosing expansions: a chain such as "#define A2 (A1 + A1)",
// "#define A3 (A2 + A2)", … costs n evaluations, not 2^n.
func (s *Scope) expandMacro(m *macro, name string, pos uint32) Form {
	e, msrc := s.File.macroExpr(m)
	if e == nil {
		return Opaque(Unknown)
	}
	key := macroUse{m: m, at: pos, stack: strings.Join(s.expanding, " ")}
	if f, ok := s.expanded[key]; ok {
		return f
	}
	s.expanding = append(s.expanding, name)
	f := s.evalAt(e, msrc, pos)
	s.expanding = s.expanding[:len(s.expanding)-1]
	if s.expanded == nil {
		s.expanded = map[macroUse]Form{}
	}
	s.expanded[key] = f
	return f
}

// hidden reports whether the macro called name is being expanded, so that
// it is not expanded again.
func (s *Scope) hidden(name string) bool {
	for _, e := range s.expanding {
		if e == name {
			return true
		}
	}
	return false
}

// argMark is appended to the name of a function-like macro called in a
// macro argument (expand): the call is then no longer the enclosing
// macro's own name, as the preprocessor expands arguments before
// substituting them ("IDX(IDX(1, 2), c)").
const argMark = "__cudaperf_arg"

// macroName is a called name without its argMarks.
func macroName(name string) string {
	for strings.HasSuffix(name, argMark) {
		name = strings.TrimSuffix(name, argMark)
	}
	return name
}

func (s *Scope) binary(n *syntax.Node, src []byte, at uint32) Form {
	l := s.eval(n.ChildByFieldName("left"), src, at)
	r := s.eval(n.ChildByFieldName("right"), src, at)
	op := ""
	if o := n.ChildByFieldName("operator"); o != nil {
		op = o.Type()
	}
	switch op {
	case "+":
		return l.Add(r)
	case "-":
		return l.Sub(r)
	case "*":
		return l.Mul(r)
	case "/":
		return l.Div(r)
	case "%":
		return l.Rem(r)
	case "<<":
		if k, ok := r.Int(); ok && k >= 0 && k < 63 {
			return l.Mul(Const(1 << k))
		}
	case ">>":
		if k, ok := r.Int(); ok && k >= 0 && k < 63 {
			if v, ok := l.Int(); ok {
				return Const(v >> k)
			}
			return l.Div(Const(1 << k))
		}
	}
	a, aok := l.Int()
	b, bok := r.Int()
	if bok && !aok {
		switch op {
		case "&", "|", "^":
			if at, ok := threadAtom(l, op, b); ok {
				return at
			}
		}
	}
	if aok && bok {
		switch op {
		case "&":
			return Const(a & b)
		case "|":
			return Const(a | b)
		case "^":
			return Const(a ^ b)
		case "==":
			return Const(b2i(a == b))
		case "!=":
			return Const(b2i(a != b))
		case "<":
			return Const(b2i(a < b))
		case "<=":
			return Const(b2i(a <= b))
		case ">":
			return Const(b2i(a > b))
		case ">=":
			return Const(b2i(a >= b))
		case "&&":
			return Const(b2i(a != 0 && b != 0))
		case "||":
			return Const(b2i(a != 0 || b != 0))
		}
	}
	return join(l, r)
}

func (s *Scope) call(n *syntax.Node, src []byte, at uint32) Form {
	fn := n.ChildByFieldName("function")
	args := n.ChildByFieldName("arguments")
	if fn != nil && fn.Type() == "identifier" && args != nil {
		// Inside its own expansion a function-like macro is not expanded
		// again (C11 6.10.3.4p2): F(x) there is a call of a function F.
		// A call that came in through an argument carries argMark and is
		// expanded (the preprocessor expands arguments first).
		name := fn.Content(src)
		if m, ok := s.File.fmacros[macroName(name)]; ok && !s.hidden(name) {
			pos := at
			if pos == 0 {
				pos = n.StartByte()
			}
			mc := s.File.expand(m, args, src)
			if mc == nil {
				return Opaque(Unknown)
			}
			return s.expandMacro(mc, name, pos)
		}
	}
	var xs []Form
	if args != nil {
		for i := 0; i < int(args.NamedChildCount()); i++ {
			xs = append(xs, s.eval(args.NamedChild(i), src, at))
		}
	}
	// static_cast<T>(x) is the C++ spelling of (T)x, which passes its
	// value through (PyTorch's kernels index with static_cast<int64_t>).
	if fn != nil && fn.Type() == "template_function" && len(xs) == 1 {
		if nm := fn.ChildByFieldName("name"); nm != nil && nm.Content(src) == "static_cast" {
			return xs[0]
		}
	}
	name := ""
	if fn != nil {
		name = fn.Content(src)
	}
	switch strings.TrimPrefix(name, "std::") {
	case "min", "max", "umin", "umax", "llmin", "llmax":
		if len(xs) == 2 {
			a, aok := xs[0].Int()
			b, bok := xs[1].Int()
			if aok && bok {
				if (a < b) == strings.HasSuffix(name, "min") {
					return Const(a)
				}
				return Const(b)
			}
			return join(xs...)
		}
	case "__mul24", "__umul24":
		if len(xs) == 2 {
			return xs[0].Mul(xs[1])
		}
	}
	return join(xs...).unknown()
}

// macroExpr parses an object-like macro's replacement text as an
// expression, once.
func (f *File) macroExpr(m *macro) (*syntax.Node, []byte) {
	if !m.tried {
		m.tried = true
		m.expr, m.src = parseExpr(m.text)
	}
	return m.expr, m.src
}

// expand substitutes a call's argument texts for a function-like macro's
// parameters, as the preprocessor does, and returns the result as an
// object-like macro (one per distinct expansion; nil when the arguments
// do not match the parameters). The expansion's names are resolved where
// the call is written.
func (f *File) expand(m *funcMacro, args *syntax.Node, src []byte) *macro {
	var texts []string
	for i := 0; i < int(args.NamedChildCount()); i++ {
		if c := args.NamedChild(i); c.Type() != "comment" {
			texts = append(texts, c.Content(src))
		}
	}
	if len(texts) != len(m.params) {
		return nil
	}
	body := m.body
	if len(m.params) > 0 {
		body = mapWords(body, func(word, _ string) string {
			for k, p := range m.params {
				if p == word {
					return f.markCalls(texts[k])
				}
			}
			return word
		})
	}
	mc, ok := f.expands[body]
	if !ok {
		mc = &macro{text: body}
		f.expands[body] = mc
	}
	return mc
}

// markCalls appends argMark to each function-like macro's name called in
// text, a macro argument (see argMark).
func (f *File) markCalls(text string) string {
	return mapWords(text, func(word, rest string) string {
		if strings.HasPrefix(strings.TrimLeft(rest, " \t"), "(") {
			if _, ok := f.fmacros[macroName(word)]; ok {
				return word + argMark
			}
		}
		return word
	})
}

// mapWords returns text with each identifier replaced by what fn says;
// fn also gets the text after the identifier.
func mapWords(text string, fn func(word, rest string) string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		if !isIdentStart(text[i]) {
			b.WriteByte(text[i])
			i++
			continue
		}
		j := i
		for j < len(text) && isIdentChar(text[j]) {
			j++
		}
		b.WriteString(fn(text[i:j], text[j:]))
		i = j
	}
	return b.String()
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// ParseInt parses a C integer literal: decimal, hex, octal or binary, with
// digit separators and u/l suffixes.
func ParseInt(lit string) (int64, bool) {
	t := strings.ReplaceAll(lit, "'", "")
	t = strings.TrimRight(t, "uUlLzZ")
	if t == "" {
		return 0, false
	}
	if len(t) > 1 && t[0] == '0' && t[1] >= '0' && t[1] <= '9' {
		t = "0o" + t[1:]
	}
	v, err := strconv.ParseInt(t, 0, 64)
	if err != nil {
		u, err := strconv.ParseUint(t, 0, 64)
		if err != nil {
			return 0, false
		}
		return int64(u), true
	}
	return v, true
}

func typeText(t *syntax.Node, src []byte) string {
	if t.Type() == "type_descriptor" {
		if tt := t.ChildByFieldName("type"); tt != nil {
			return tt.Content(src)
		}
	}
	return t.Content(src)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
