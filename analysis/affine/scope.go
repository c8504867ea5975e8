package affine

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// Decl is a declared variable: a parameter, a local, or a file-level
// variable or constant.
type Decl struct {
	Name       string
	Type       string         // base type as written, e.g. "float", "unsigned int", "dim3"
	Pointer    int            // levels of *
	Dims       []*syntax.Node // array dimension expressions, outermost first (nil for unsized [])
	Qualifiers []string       // const, constexpr, __restrict__, __shared__, __constant__, extern, static, …
	Param      bool
	Global     bool         // declared at file level
	Ident      *syntax.Node // the declared name
	Value      *syntax.Node // initializer (expression, argument_list or initializer_list) or nil
	Loop       *syntax.Node // the for_statement whose initializer declares it, or nil

	start  uint32         // the name is in scope from here
	writes []*syntax.Node // assignment_expression, update_expression, &name
	index  int            // in its scope's Decls; -1 at file level
}

// Index returns the position of d in the Decls of its function's scope,
// -1 for a file-level declaration: analyses keep per-variable facts in
// slices indexed by it rather than in maps.
func (d *Decl) Index() int { return d.index }

// Has reports whether the declaration carries qualifier q.
func (d *Decl) Has(q string) bool {
	for _, x := range d.Qualifiers {
		if x == q {
			return true
		}
	}
	return false
}

// Writes returns the assignments, increments and address-of expressions
// that target the variable inside its function.
func (d *Decl) Writes() []*syntax.Node { return d.writes }

// File holds what every scope of one source file shares: object-like
// macros and file-level declarations.
type File struct {
	src     []byte
	root    *syntax.Node
	macros  map[string]*macro
	fmacros map[string]*funcMacro
	expands map[string]*macro // function-like macro expansions by text
	globals map[string]*Decl

	structsOnce sync.Once
	structs     map[string]*Layout // StructLayout's, by struct and typedef name
}

// funcMacro is a function-like macro: #define IDX(r, c) ((r) * N + (c)).
type funcMacro struct {
	params []string
	body   string
}

type macro struct {
	text  string
	expr  *syntax.Node // parsed lazily
	src   []byte
	tried bool
	// lit is the value of a replacement that is one integer literal
	// (#define TILE 32, most macros), known without parsing it; isLit
	// says whether it is one.
	lit   int64
	isLit bool
}

// newMacro returns an object-like macro with replacement text.
func newMacro(text string) *macro {
	m := &macro{text: text}
	m.lit, m.isLit = intLiteral(text)
	return m
}

// intLiteral reports the value of text when it is a decimal literal or a
// 0x hex literal without suffix: text that the grammar reads as one
// number_literal, whose form is ParseInt of that same text.
func intLiteral(text string) (int64, bool) {
	digits := text
	hex := len(text) > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')
	if hex {
		digits = text[2:]
	}
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if !('0' <= c && c <= '9' || hex && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F')) {
			return 0, false
		}
	}
	return ParseInt(text)
}

// MacroInt returns the value of an object-like macro whose replacement is
// one integer literal, without parsing it; ok is false for other macros
// and names (MacroExpr has those).
func (f *File) MacroInt(name string) (v int64, ok bool) {
	if m, found := f.macros[name]; found && m.isLit {
		return m.lit, true
	}
	return 0, false
}

// NewFile indexes the file-level macros and declarations of a parse tree.
func NewFile(root *syntax.Node, src []byte) *File {
	f := &File{src: src, root: root, macros: map[string]*macro{}, fmacros: map[string]*funcMacro{}, expands: map[string]*macro{}, globals: map[string]*Decl{}}
	syntax.Inspect(root, func(n *syntax.Node) bool {
		switch n.Type() {
		case "function_definition", "lambda_expression", "class_specifier", "struct_specifier":
			return false
		case "preproc_def":
			name, val := n.ChildByFieldName("name"), n.ChildByFieldName("value")
			if name != nil && val != nil {
				f.macros[name.Content(src)] = newMacro(strings.TrimSpace(val.Content(src)))
			}
			return false
		case "preproc_function_def":
			name, params, val := n.ChildByFieldName("name"), n.ChildByFieldName("parameters"), n.ChildByFieldName("value")
			if name != nil && params != nil && val != nil {
				m := &funcMacro{body: strings.TrimSpace(val.Content(src))}
				for i := 0; i < int(params.NamedChildCount()); i++ {
					m.params = append(m.params, params.NamedChild(i).Content(src))
				}
				f.fmacros[name.Content(src)] = m
			}
			return false
		case "declaration":
			for _, d := range declsOf(n, src, false) {
				d.Global = true
				if _, dup := f.globals[d.Name]; !dup {
					f.globals[d.Name] = d
				}
			}
			return false
		}
		return true
	})
	return f
}

// Define adds object-like macros from outside the file (the build's -D
// flags, included headers) that the file does not define itself.
func (f *File) Define(defs map[string]string) {
	for name, val := range defs {
		if _, ok := f.macros[name]; !ok {
			f.macros[name] = newMacro(strings.TrimSpace(val))
		}
	}
}

// Source returns the file's source bytes.
func (f *File) Source() []byte { return f.src }

// Global returns the file-level declaration of name, or nil.
func (f *File) Global(name string) *Decl { return f.globals[name] }

// Macro returns the replacement text of an object-like macro.
func (f *File) Macro(name string) (string, bool) {
	m, ok := f.macros[name]
	if !ok {
		return "", false
	}
	return m.text, true
}

// MacroExpr returns the parsed replacement of an object-like macro and the
// source its nodes belong to; nil when name is not such a macro or its text
// is not an expression.
func (f *File) MacroExpr(name string) (*syntax.Node, []byte) {
	m, ok := f.macros[name]
	if !ok {
		return nil, nil
	}
	return f.macroExpr(m)
}

// Scope resolves names inside one function (or at file level when the
// function is nil).
type Scope struct {
	File  *File
	Func  *syntax.Node
	src   []byte
	decls map[string][]*Decl // by name, in source order
	all   []*Decl
	memo  map[*Decl]Form
	busy  map[*Decl]bool
	depth int
	// For valueAt: the definitions of reassigned variables, and the forms
	// of their right-hand sides.
	defs    map[*Decl][]def
	rhsMemo map[*syntax.Node]Form
	// bound gives parameters the values of a call's arguments (Bind).
	bound map[string]Form
	// evals memoizes Eval (see there).
	evals map[*syntax.Node]Form
	// expanding is the stack of the names of the macros being expanded,
	// and expanded memoizes expansions' forms by macro, use site and that
	// stack (see expandMacro).
	expanding []string
	expanded  map[macroUse]Form
	// Statements of the body in source order, collected with the
	// declarations (see Loops, Assignments, InlineAsm).
	loops, assigns, asms []*syntax.Node
}

// macroUse is one expansion of a macro: the macro, where it is used, and
// the names of the macros being expanded around it, which its own form
// depends on.
type macroUse struct {
	m     *macro
	at    uint32
	stack string
}

// Bind returns a scope of the same function in which the parameters named
// in args have those values (and the built-in dimensions named
// "blockDim.x", "gridDim.y", … too: a kernel seen from one launch) — a device function seen from one call site,
// so that tid % 2 is computed from the caller's threadIdx.x before the
// remainder is taken (substituting afterwards could not).
func (s *Scope) Bind(args map[string]Form) *Scope {
	b := &Scope{File: s.File, Func: s.Func, src: s.src, decls: s.decls, all: s.all, bound: args,
		loops: s.loops, assigns: s.assigns, asms: s.asms}
	return b
}

// Scope builds the scope of a function_definition node.
func (f *File) Scope(fn *syntax.Node) *Scope {
	s := &Scope{File: f, Func: fn, src: f.src, decls: map[string][]*Decl{}}
	if fn == nil {
		return s
	}
	s.params(fn)
	body := fn.ChildByFieldName("body")
	if body == nil {
		return s
	}
	// One walk of the body collects what the scope and the analyses built
	// on it (tripcount, taint) need.
	var b Body
	syntax.Inspect(body, func(n *syntax.Node) bool {
		switch n.Type() {
		case "lambda_expression":
			b.Lambdas = true
		case "declaration":
			b.Decls = append(b.Decls, n)
		case "for_statement", "while_statement", "do_statement", "for_range_loop":
			b.Loops = append(b.Loops, n)
		case "assignment_expression", "update_expression", "pointer_expression":
			b.Writes = append(b.Writes, n)
		case "gnu_asm_expression":
			b.Asms = append(b.Asms, n)
		}
		return true
	})
	s.build(body, &b)
	return s
}

// Body lists the nodes of a function body that a scope is built from,
// each list in source order (that of syntax.Inspect), lambdas' insides
// included. A caller that walks the body anyway (package kernels) hands
// them to ScopeOf instead of a second walk.
type Body struct {
	Decls   []*syntax.Node // declarations
	Loops   []*syntax.Node // for, while, do and range-for statements
	Writes  []*syntax.Node // assignment, update and pointer expressions (others are ignored)
	Asms    []*syntax.Node // inline assembly (gnu_asm_expression)
	Lambdas bool           // the body has a lambda
}

// ScopeOf is Scope of a function_definition whose body's nodes b lists.
func (f *File) ScopeOf(fn *syntax.Node, b *Body) *Scope {
	s := &Scope{File: f, Func: fn, src: f.src, decls: map[string][]*Decl{}}
	s.params(fn)
	if body := fn.ChildByFieldName("body"); body != nil {
		s.build(body, b)
	}
	return s
}

// params adds the parameters of function fn.
func (s *Scope) params(fn *syntax.Node) {
	fd := FuncDeclarator(fn)
	if fd == nil {
		return
	}
	params := fd.ChildByFieldName("parameters")
	if params == nil {
		return
	}
	for i := 0; i < int(params.NamedChildCount()); i++ {
		p := params.NamedChild(i)
		if p.Type() != "parameter_declaration" && p.Type() != "optional_parameter_declaration" {
			continue
		}
		for _, d := range declsOf(p, s.src, false) {
			d.Param = true
			d.start = fn.StartByte()
			s.add(d)
		}
	}
}

// build adds the body's declarations (those outside lambdas) and loops to
// the scope, then resolves the writes once every declaration is known.
func (s *Scope) build(body *syntax.Node, b *Body) {
	inLambda := func(n *syntax.Node) bool {
		if !b.Lambdas {
			return false
		}
		for p := n.Parent(); p != nil && p != body; p = p.Parent() {
			if p.Type() == "lambda_expression" {
				return true
			}
		}
		return false
	}
	for _, n := range b.Decls {
		if inLambda(n) {
			continue
		}
		loop := (*syntax.Node)(nil)
		if p := n.Parent(); p != nil && p.Type() == "for_statement" {
			if init := p.ChildByFieldName("initializer"); init != nil && init.StartByte() == n.StartByte() {
				loop = p
			}
		}
		for _, d := range declsOf(n, s.src, true) {
			d.Loop = loop
			s.add(d)
		}
	}
	for _, n := range b.Loops {
		if !inLambda(n) {
			s.loops = append(s.loops, n)
		}
	}
	s.asms = b.Asms
	for _, list := range s.decls {
		if len(list) > 1 {
			slices.SortStableFunc(list, func(a, b *Decl) int { return cmp.Compare(a.start, b.start) })
		}
	}
	for _, n := range b.Writes {
		var target *syntax.Node
		switch n.Type() {
		case "assignment_expression":
			s.assigns = append(s.assigns, n)
			target = n.ChildByFieldName("left")
		case "update_expression":
			target = n.ChildByFieldName("argument")
		case "pointer_expression":
			// &x handed to a call may be written through (cudaMalloc(&p),
			// atomicAdd(&x, 1)); &x stored in an argument array for
			// cudaLaunchKernel is only read.
			if op := n.ChildByFieldName("operator"); op != nil && op.Type() == "&" {
				if p := n.Parent(); p != nil && p.Type() == "argument_list" {
					target = n.ChildByFieldName("argument")
				}
			}
		}
		if target != nil && target.Type() == "identifier" {
			if d := s.Lookup(target.Content(s.src), n.StartByte()); d != nil && !d.Global {
				d.writes = append(d.writes, n)
			}
		}
	}
}

func (s *Scope) add(d *Decl) {
	d.index = len(s.all)
	s.decls[d.Name] = append(s.decls[d.Name], d)
	s.all = append(s.all, d)
}

// Decls returns the parameters and locals of the function in source order.
func (s *Scope) Decls() []*Decl { return s.all }

// Loops returns the for, while, do and range-for statements of the
// function body that are not inside a lambda, in source order.
func (s *Scope) Loops() []*syntax.Node { return s.loops }

// Assignments returns the assignment expressions of the function body,
// lambdas included, in source order.
func (s *Scope) Assignments() []*syntax.Node { return s.assigns }

// InlineAsm returns the inline-assembly expressions of the function body,
// lambdas included, in source order.
func (s *Scope) InlineAsm() []*syntax.Node { return s.asms }

// Lookup returns the declaration that name refers to at byte offset at:
// the nearest preceding local or parameter, else the file-level one.
func (s *Scope) Lookup(name string, at uint32) *Decl { return lookup(s, name, at) }

// lookup is Lookup for a name as a string or as source bytes.
func lookup[T string | []byte](s *Scope, name T, at uint32) *Decl {
	list := s.decls[string(name)]
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].start <= at {
			return list[i]
		}
	}
	return s.File.globals[string(name)]
}

// IsLocal reports whether sym names a local variable or parameter of the
// function, as opposed to a built-in or a file-level name.
func (s *Scope) IsLocal(sym string) bool { return len(s.decls[sym]) > 0 }

// IsParam reports whether sym names a parameter of the function.
func (s *Scope) IsParam(sym string) bool {
	for _, d := range s.decls[sym] {
		if d.Param {
			return true
		}
	}
	return false
}

// FuncDeclarator returns the function_declarator of a function_definition.
func FuncDeclarator(fn *syntax.Node) *syntax.Node {
	d := fn.ChildByFieldName("declarator")
	for d != nil && d.Type() != "function_declarator" {
		d = d.ChildByFieldName("declarator")
	}
	return d
}

// FuncName returns the name of a function_definition ("" if it has none).
func FuncName(fn *syntax.Node, src []byte) string {
	fd := FuncDeclarator(fn)
	if fd == nil {
		return ""
	}
	if n := fd.ChildByFieldName("declarator"); n != nil {
		return n.Content(src)
	}
	return ""
}

// declsOf returns the variables declared by a declaration or
// parameter_declaration node. In a function body (local), T v(a, b);
// parses as a function declaration (C++'s most vexing parse) but is meant
// as a variable constructed from a and b, so it is read as one, with the
// parameter_list as its initializer.
func declsOf(n *syntax.Node, src []byte, local bool) []*Decl {
	var quals []string
	typ := ""
	if t := n.ChildByFieldName("type"); t != nil {
		typ = Squeezed(t, src)
	}
	var declarators []*syntax.Node
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		switch c.Type() {
		case "type_qualifier", "storage_class_specifier", "cuda_qualifier":
			quals = append(quals, qualifier(c, src))
		}
		if n.FieldNameForChild(i) == "declarator" {
			declarators = append(declarators, c)
		}
	}
	out := make([]*Decl, 0, len(declarators))
	// The declarators share the qualifier list; its capacity is its
	// length, so the pointer qualifiers unwrap appends go to a copy.
	quals = quals[:len(quals):len(quals)]
	for _, dn := range declarators {
		d := &Decl{Type: typ, Qualifiers: quals, index: -1}
		if local && dn.Type() == "function_declarator" {
			if id := dn.ChildByFieldName("declarator"); id != nil && id.Type() == "identifier" {
				d.Ident, d.Value = id, dn.ChildByFieldName("parameters")
			}
		} else if !unwrap(dn, src, d) {
			continue
		}
		if d.Ident == nil {
			continue
		}
		d.Name = d.Ident.Content(src)
		d.start = d.Ident.EndByte()
		out = append(out, d)
	}
	return out
}

// qualifier returns the text of a qualifier node; the common ones are
// constants, not copies of the source.
func qualifier(n *syntax.Node, src []byte) string {
	if int(n.EndByte()) <= len(src) && n.StartByte() <= n.EndByte() {
		switch q := src[n.StartByte():n.EndByte()]; string(q) {
		case "const":
			return "const"
		case "__restrict__":
			return "__restrict__"
		case "__shared__":
			return "__shared__"
		case "__constant__":
			return "__constant__"
		case "__device__":
			return "__device__"
		case "static":
			return "static"
		case "volatile":
			return "volatile"
		case "extern":
			return "extern"
		case "constexpr":
			return "constexpr"
		}
	}
	return n.Content(src)
}

// unwrap descends a declarator, filling in the name, pointer levels, array
// dimensions, pointer qualifiers and initializer. It reports false for
// function declarators, which declare no variable.
func unwrap(n *syntax.Node, src []byte, d *Decl) bool {
	for n != nil {
		switch n.Type() {
		case "identifier", "field_identifier":
			d.Ident = n
			return true
		case "init_declarator":
			d.Value = n.ChildByFieldName("value")
			n = n.ChildByFieldName("declarator")
		case "pointer_declarator":
			d.Pointer++
			for i := 0; i < int(n.NamedChildCount()); i++ {
				if c := n.NamedChild(i); c.Type() == "type_qualifier" {
					d.Qualifiers = append(d.Qualifiers, qualifier(c, src))
				}
			}
			n = n.ChildByFieldName("declarator")
		case "array_declarator":
			d.Dims = append([]*syntax.Node{n.ChildByFieldName("size")}, d.Dims...)
			n = n.ChildByFieldName("declarator")
		case "reference_declarator", "parenthesized_declarator":
			var next *syntax.Node
			for i := 0; i < int(n.NamedChildCount()); i++ {
				if c := n.NamedChild(i); c.Type() != "type_qualifier" {
					next = c
				}
			}
			n = next
		default:
			return false
		}
	}
	return false
}
