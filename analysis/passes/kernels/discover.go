package kernels

import (
	"bytes"
	"strings"

	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/launchcfg"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

type discoverer struct {
	r   *Result
	src []byte
	// exprs and sites back every function's Exprs and Sites, and nodes
	// its scope lists (Function.body): one array grows for the file
	// instead of one per function.
	exprs []Expr
	sites []Site
	nodes []*syntax.Node
	// scratch holds body's lists while it walks, reused from function to
	// function.
	scratch [5][]*syntax.Node
	scopes  map[*Function][]string // lookup's namespace prefixes by caller
	// calls holds the plain calls of each function, resolved after all
	// functions are known.
	calls map[*Function][]*syntax.Node
}

// scopeCtx is where a top-level item sits.
type scopeCtx struct {
	names    []string     // enclosing namespaces and classes
	externC  bool         // inside extern "C"
	template *syntax.Node // the template_declaration directly around it
}

func (c scopeCtx) with(name string) scopeCtx {
	c.names = append(append([]string(nil), c.names...), name)
	c.template = nil
	return c
}

type item struct {
	n   *syntax.Node
	ctx scopeCtx
}

func (d *discoverer) text(n *syntax.Node) string {
	if n == nil {
		return ""
	}
	return n.Content(d.src)
}

// bytes returns the source of n without copying it, for the tests the
// walk of every body makes (string(b) == "..." does not allocate).
func (d *discoverer) bytes(n *syntax.Node) []byte {
	if n == nil || int(n.EndByte()) > len(d.src) || n.StartByte() > n.EndByte() {
		return nil
	}
	return d.src[n.StartByte():n.EndByte()]
}

// walkTop visits the items a function can be defined in: namespaces,
// extern "C" blocks, templates, classes and preprocessor conditionals (and
// ERROR nodes, so that a syntax error does not hide the functions inside
// it). It uses an explicit stack: nesting depth comes from the input.
func (d *discoverer) walkTop(root *syntax.Node) {
	d.calls = map[*Function][]*syntax.Node{}
	stack := []item{{root, scopeCtx{}}}
	var fileScope []*syntax.Node // nodes outside functions that may hold launches
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n, ctx := it.n, it.ctx
		push := func(parent *syntax.Node, c scopeCtx) {
			for i := int(parent.NamedChildCount()) - 1; i >= 0; i-- {
				stack = append(stack, item{parent.NamedChild(i), c})
			}
		}
		switch n.Type() {
		case "translation_unit", "declaration_list", "field_declaration_list", "ERROR",
			"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
			push(n, ctx)
		case "namespace_definition":
			c := ctx
			if name := n.ChildByFieldName("name"); name != nil {
				c = ctx.with(d.text(name))
			}
			if body := n.ChildByFieldName("body"); body != nil {
				push(body, c)
			}
		case "linkage_specification":
			c := ctx
			if v := n.ChildByFieldName("value"); v != nil && strings.Trim(d.text(v), `"`) == "C" {
				c.externC = true
			}
			if body := n.ChildByFieldName("body"); body != nil {
				if body.Type() == "declaration_list" {
					push(body, c)
				} else {
					stack = append(stack, item{body, c})
				}
			}
		case "template_declaration":
			c := ctx
			c.template = n
			for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
				if ch := n.NamedChild(i); ch.Type() != "template_parameter_list" {
					stack = append(stack, item{ch, c})
				}
			}
		case "class_specifier", "struct_specifier", "union_specifier":
			if body := n.ChildByFieldName("body"); body != nil {
				name := d.text(n.ChildByFieldName("name"))
				c := ctx
				if name != "" {
					c = ctx.with(name)
				}
				push(body, c)
			}
		case "function_definition":
			d.function(n, ctx, n.ChildByFieldName("body"))
		case "declaration", "field_declaration":
			if t := n.ChildByFieldName("type"); t != nil && t.ChildByFieldName("body") != nil {
				stack = append(stack, item{t, ctx})
			}
			if affine.FuncDeclarator(n) != nil && !hasInitDeclarator(n) {
				d.function(n, ctx, nil)
				continue
			}
			if strings.Contains(d.text(n), "__shared__") && hasQualifier(n, d.src, "__shared__") {
				d.shared(n, nil)
			}
			fileScope = append(fileScope, n)
		default:
			fileScope = append(fileScope, n)
		}
	}
	// Launches written outside any function (in a global initializer's
	// lambda, say) are still launches.
	for _, n := range fileScope {
		d.scanLaunches(n, nil)
	}
}

func hasInitDeclarator(n *syntax.Node) bool {
	d := n.ChildByFieldName("declarator")
	return d != nil && d.Type() == "init_declarator"
}

// hasQualifier reports whether a declaration or function definition has a
// cuda_qualifier child with the given text.
func hasQualifier(n *syntax.Node, src []byte, q string) bool {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() == "cuda_qualifier" && c.Content(src) == q {
			return true
		}
	}
	return false
}

// function records a definition (body != nil) or a prototype.
func (d *discoverer) function(n *syntax.Node, ctx scopeCtx, body *syntax.Node) {
	fd := affine.FuncDeclarator(n)
	if fd == nil {
		return
	}
	f := &Function{Node: n, Body: body, ExternC: ctx.externC, Template: ctx.template}
	f.NameNode = fd.ChildByFieldName("declarator")
	f.Name, f.Qualified = d.names(f.NameNode, ctx)
	var global, device, host bool
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "cuda_qualifier":
			q := d.text(c)
			f.Qualifiers = append(f.Qualifiers, q)
			switch q {
			case "__global__":
				global = true
			case "__device__":
				device = true
			case "__host__":
				host = true
			}
		case "launch_bounds":
			f.LaunchBounds = d.launchBounds(c)
		case "maxnreg":
			if args := argNodes(c); len(args) > 0 {
				f.MaxNReg = d.constInt(args[0])
			}
		}
	}
	switch {
	case global:
		f.Kind = Kernel
	case device && host:
		f.Kind = HostDevice
	case device:
		f.Kind = Device
	}
	f.Params = d.params(fd.ChildByFieldName("parameters"))
	if ctx.template != nil {
		f.TemplateParams = d.templateParams(ctx.template.ChildByFieldName("parameters"))
	}
	r := d.r
	if body == nil {
		r.Prototypes = append(r.Prototypes, f)
		return
	}
	r.Functions = append(r.Functions, f)
	switch f.Kind {
	case Kernel:
		r.Kernels = append(r.Kernels, f)
	case Device, HostDevice:
		r.DeviceFuncs = append(r.DeviceFuncs, f)
	}
	r.byName[f.Name] = append(r.byName[f.Name], f)
	if f.Qualified != f.Name {
		r.byName[f.Qualified] = append(r.byName[f.Qualified], f)
	}
	d.body(f)
}

// names returns the base and qualified names of a declarator's name node.
func (d *discoverer) names(n *syntax.Node, ctx scopeCtx) (base, qualified string) {
	if n == nil {
		return "", ""
	}
	written := d.text(n)
	switch n.Type() {
	case "qualified_identifier":
		written = stripTemplateArgs(written)
		base = written[strings.LastIndex(written, "::")+2:]
	case "template_function":
		base = d.text(n.ChildByFieldName("name"))
		written = base
	default:
		base = written
	}
	base = strings.TrimSpace(base)
	qualified = strings.Join(append(append([]string(nil), ctx.names...), strings.TrimPrefix(written, "::")), "::")
	return base, qualified
}

// stripTemplateArgs removes <...> groups: "Foo<T>::bar" → "Foo::bar".
func stripTemplateArgs(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '<':
			depth++
		case r == '>' && depth > 0:
			depth--
		case depth == 0 && r != ' ':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func argNodes(n *syntax.Node) []*syntax.Node {
	var args *syntax.Node
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "argument_list" {
			args = c
		}
	}
	if args == nil {
		return nil
	}
	out := make([]*syntax.Node, 0, args.NamedChildCount())
	for i := 0; i < int(args.NamedChildCount()); i++ {
		if c := args.NamedChild(i); c.Type() != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// constInt evaluates an integer constant expression through the file's
// macros and constants; 0 when it is not one.
func (d *discoverer) constInt(n *syntax.Node) int {
	if v, ok := d.r.Scope(nil).Eval(n).Int(); ok && v > 0 && v < 1<<31 {
		return int(v)
	}
	return 0
}

func (d *discoverer) launchBounds(n *syntax.Node) *LaunchBounds {
	lb := &LaunchBounds{Node: n, Args: argNodes(n)}
	vals := []*int{&lb.MaxThreads, &lb.MinBlocks, &lb.MaxCluster}
	for i, a := range lb.Args {
		if i < len(vals) {
			*vals[i] = d.constInt(a)
		}
	}
	return lb
}

func (d *discoverer) params(list *syntax.Node) []Param {
	if list == nil {
		return nil
	}
	out := make([]Param, 0, list.NamedChildCount())
	for i := 0; i < int(list.NamedChildCount()); i++ {
		pn := list.NamedChild(i)
		switch pn.Type() {
		case "parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration":
		default:
			continue
		}
		p := Param{Node: pn, Type: affine.Squeezed(pn.ChildByFieldName("type"), d.src)}
		if p.Type == "void" && pn.ChildByFieldName("declarator") == nil && list.NamedChildCount() == 1 {
			break // f(void)
		}
		for j := 0; j < int(pn.NamedChildCount()); j++ {
			if c := pn.NamedChild(j); c.Type() == "type_qualifier" && string(d.bytes(c)) == "const" {
				p.Const = true
			}
		}
		for dn := pn.ChildByFieldName("declarator"); dn != nil; dn = dn.ChildByFieldName("declarator") {
			switch dn.Type() {
			case "pointer_declarator", "abstract_pointer_declarator", "reference_declarator",
				"abstract_reference_declarator", "array_declarator", "abstract_array_declarator":
				p.Pointer++
				for j := 0; j < int(dn.NamedChildCount()); j++ {
					if c := dn.NamedChild(j); c.Type() == "type_qualifier" {
						if q := string(d.bytes(c)); q == "__restrict__" || q == "restrict" || q == "__restrict" {
							p.Restrict = true
						}
					}
				}
			case "identifier":
				p.Name = d.text(dn)
			}
			if dn.Type() == "reference_declarator" {
				// Its name is a plain child, not a declarator field.
				for j := 0; j < int(dn.NamedChildCount()); j++ {
					if c := dn.NamedChild(j); c.Type() == "identifier" {
						p.Name = d.text(c)
					}
				}
			}
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil // as before the list was presized
	}
	return out
}

func (d *discoverer) templateParams(list *syntax.Node) []string {
	if list == nil {
		return nil
	}
	var out []string
	for i := 0; i < int(list.NamedChildCount()); i++ {
		c := list.NamedChild(i)
		name := ""
		if n := c.ChildByFieldName("name"); n != nil {
			name = d.text(n)
		} else if n := c.ChildByFieldName("declarator"); n != nil {
			for n.ChildByFieldName("declarator") != nil {
				n = n.ChildByFieldName("declarator")
			}
			name = d.text(n)
		} else {
			for j := 0; j < int(c.NamedChildCount()); j++ {
				if t := c.NamedChild(j); t.Type() == "type_identifier" || t.Type() == "identifier" {
					name = d.text(t)
				}
			}
		}
		if name != "" {
			out = append(out, strings.TrimPrefix(name, "..."))
		}
	}
	return out
}

// body scans a function body for launches, calls, __shared__ declarations
// (the identifiers it names are looked up later, only when the file has
// file-scope __shared__ variables).
func (d *discoverer) body(f *Function) {
	e0, s0 := len(d.exprs), len(d.sites)
	// The nodes the function's affine scope is built from (see
	// Result.Scope), by kind; appended to d.nodes after the walk.
	decls, loops, writes, asms, shared := d.scratch[0][:0], d.scratch[1][:0], d.scratch[2][:0], d.scratch[3][:0], d.scratch[4][:0]
	defer func() { d.scratch = [5][]*syntax.Node{decls, loops, writes, asms, shared} }()
	lambdas := false
	syntax.Inspect(f.Body, func(n *syntax.Node) bool {
		switch kind := n.Type(); kind {
		case "subscript_expression", "field_expression", "binary_expression", "unary_expression":
			d.exprs = append(d.exprs, Expr{Node: n, Kind: kind})
		case "pointer_expression", "assignment_expression", "update_expression":
			d.exprs = append(d.exprs, Expr{Node: n, Kind: kind})
			writes = append(writes, n)
		case "call_expression":
			d.exprs = append(d.exprs, Expr{Node: n, Kind: kind})
			d.sites = append(d.sites, Site{Node: n, Kind: CallSite})
			switch {
			case n.ChildByFieldName("config") != nil:
				d.launch(n, f)
			case isLaunchAPI(string(d.bytes(n.ChildByFieldName("function")))):
				d.launchAPI(n, f)
			default:
				d.calls[f] = append(d.calls[f], n)
			}
		case "declaration":
			decls = append(decls, n)
			// The text test first: it needs no walk of the children.
			if bytes.Contains(d.bytes(n), []byte("__shared__")) && hasQualifier(n, d.src, "__shared__") {
				shared = append(shared, n)
			}
		case "for_statement", "while_statement", "do_statement", "for_range_loop":
			loops = append(loops, n)
		case "gnu_asm_expression":
			d.sites = append(d.sites, Site{Node: n, Kind: AsmSite})
			asms = append(asms, n)
		case "if_statement":
			d.sites = append(d.sites, Site{Node: n, Kind: IfSite})
		case "switch_statement":
			d.sites = append(d.sites, Site{Node: n, Kind: SwitchSite})
		case "lambda_expression":
			d.exprs = append(d.exprs, Expr{Node: n, Kind: kind})
			lambdas = true
		}
		return true
	})
	f.Exprs = d.exprs[e0:len(d.exprs):len(d.exprs)]
	f.Sites = d.sites[s0:len(d.sites):len(d.sites)]
	f.body = affine.Body{Decls: d.keep(decls), Loops: d.keep(loops), Writes: d.keep(writes), Asms: d.keep(asms), Lambdas: lambdas}
	// After the walk: sizing a __shared__ array builds the function's
	// scope, which needs the whole body.
	for _, n := range shared {
		d.shared(n, f)
	}
	if !lambdas && len(asms) == 0 {
		return
	}
	for i := range f.Sites {
		st := &f.Sites[i]
		for p := st.Node.Parent(); p != nil && p != f.Body; p = p.Parent() {
			switch p.Type() {
			case "lambda_expression":
				st.InLambda = true
			case "gnu_asm_expression":
				st.InAsm = true
			}
		}
	}
}

// keep copies a list of nodes into the file's array (see discoverer.nodes).
func (d *discoverer) keep(ns []*syntax.Node) []*syntax.Node {
	if len(ns) == 0 {
		return nil
	}
	n0 := len(d.nodes)
	d.nodes = append(d.nodes, ns...)
	return d.nodes[n0:len(d.nodes):len(d.nodes)]
}

// mentions reports whether f's body has an identifier spelled name; the
// text search rules out most functions without walking their trees.
func (d *discoverer) mentions(f *Function, name string) bool {
	if !strings.Contains(d.text(f.Body), name) {
		return false
	}
	found := false
	syntax.Inspect(f.Body, func(n *syntax.Node) bool {
		if !found && n.Type() == "identifier" && d.text(n) == name {
			found = true
		}
		return !found
	})
	return found
}

func isLaunchAPI(name string) bool {
	return name == "cudaLaunchKernel" || name == "cudaLaunchCooperativeKernel"
}

// launchAPI records cudaLaunchKernel(kernel, grid, block, args, shmem, stream).
func (d *discoverer) launchAPI(n *syntax.Node, caller *Function) {
	args := n.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() < 3 {
		return
	}
	named := func(i int) *syntax.Node {
		if i < int(args.NamedChildCount()) {
			return args.NamedChild(i)
		}
		return nil
	}
	l := &Launch{Node: n, Config: args, Caller: caller}
	l.CalleeNode, l.Grid, l.Block, l.SharedMem, l.Stream = named(0), named(1), named(2), named(4), named(5)
	l.Callee = launchcfg.KernelName(l.CalleeNode, d.src)
	d.r.Launches = append(d.r.Launches, l)
	if caller != nil {
		caller.Launches = append(caller.Launches, l)
	}
}

// scanLaunches finds launches in a node outside any function.
func (d *discoverer) scanLaunches(n *syntax.Node, f *Function) {
	syntax.Inspect(n, func(c *syntax.Node) bool {
		if c.Type() != "call_expression" {
			return true
		}
		if c.ChildByFieldName("config") != nil {
			d.launch(c, f)
		} else if isLaunchAPI(string(d.bytes(c.ChildByFieldName("function")))) {
			d.launchAPI(c, f)
		}
		return true
	})
}

func (d *discoverer) launch(n *syntax.Node, caller *Function) {
	cfg := n.ChildByFieldName("config")
	l := &Launch{Node: n, Config: cfg, Caller: caller, CalleeNode: n.ChildByFieldName("function")}
	l.Grid = cfg.ChildByFieldName("grid")
	l.Block = cfg.ChildByFieldName("block")
	l.SharedMem = cfg.ChildByFieldName("shared_mem")
	l.Stream = cfg.ChildByFieldName("stream")
	if args := n.ChildByFieldName("arguments"); args != nil {
		for i := 0; i < int(args.NamedChildCount()); i++ {
			if c := args.NamedChild(i); c.Type() != "comment" {
				l.Args = append(l.Args, c)
			}
		}
	}
	l.Callee, l.TemplateArgs = d.callee(l.CalleeNode)
	d.r.Launches = append(d.r.Launches, l)
	if caller != nil {
		caller.Launches = append(caller.Launches, l)
	}
}

// callee returns the name a call is made to, without template arguments,
// and the template arguments.
func (d *discoverer) callee(n *syntax.Node) (string, []string) {
	if n == nil {
		return "", nil
	}
	switch n.Type() {
	case "template_function":
		var targs []string
		if al := n.ChildByFieldName("arguments"); al != nil {
			for i := 0; i < int(al.NamedChildCount()); i++ {
				targs = append(targs, affine.Squeezed(al.NamedChild(i), d.src))
			}
		}
		return d.text(n.ChildByFieldName("name")), targs
	case "qualified_identifier":
		name := n
		for name.ChildByFieldName("name") != nil && name.Type() == "qualified_identifier" {
			name = name.ChildByFieldName("name")
		}
		_, targs := d.callee(name)
		return strings.TrimPrefix(stripTemplateArgs(d.text(n)), "::"), targs
	case "field_expression":
		return d.text(n.ChildByFieldName("field")), nil
	case "parenthesized_expression", "pointer_expression":
		if n.NamedChildCount() == 1 || n.ChildByFieldName("argument") != nil {
			inner := n.ChildByFieldName("argument")
			if inner == nil {
				inner = n.NamedChild(0)
			}
			return d.callee(inner)
		}
	}
	return strings.TrimSpace(d.text(n)), nil
}

// shared records the variables of a __shared__ declaration.
func (d *discoverer) shared(n *syntax.Node, f *Function) {
	typ := affine.Squeezed(n.ChildByFieldName("type"), d.src)
	extern := false
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "storage_class_specifier" && d.text(c) == "extern" {
			extern = true
		}
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.FieldNameForChild(i) != "declarator" {
			continue
		}
		decl := n.Child(i)
		s := &SharedDecl{Node: n, Declarator: decl, Type: typ, Extern: extern, Func: f}
		var dims []*syntax.Node
		for dn := decl; dn != nil; {
			switch dn.Type() {
			case "init_declarator", "parenthesized_declarator":
			case "pointer_declarator":
				s.Pointer = true
			case "array_declarator":
				dims = append(dims, dn.ChildByFieldName("size"))
			case "identifier":
				s.Name = d.text(dn)
			}
			next := dn.ChildByFieldName("declarator")
			if next == nil && dn.Type() == "parenthesized_declarator" && dn.NamedChildCount() > 0 {
				next = dn.NamedChild(0)
			}
			dn = next
		}
		// Collected outside-in: the outermost dimension is the one next
		// to the name, i.e. the last collected.
		for j := len(dims) - 1; j >= 0; j-- {
			s.DimNodes = append(s.DimNodes, dims[j])
			v := -1
			if dims[j] != nil {
				if x, ok := d.r.Scope(f).Eval(dims[j]).Int(); ok && x > 0 && x < 1<<31 {
					v = int(x)
				}
			}
			s.Dims = append(s.Dims, v)
		}
		if s.Pointer {
			s.ElemSize = 8
		} else if sz, ok := affine.SizeOf(typ); ok {
			s.ElemSize = int(sz)
		}
		s.Bytes = s.size()
		d.r.Shared = append(d.r.Shared, s)
		if f != nil {
			f.Shared = append(f.Shared, s)
		} else {
			d.r.SharedGlobal = append(d.r.SharedGlobal, s)
		}
	}
}

func (s *SharedDecl) size() int {
	if s.Extern {
		return 0
	}
	if s.ElemSize == 0 {
		return -1
	}
	b := s.ElemSize
	for _, v := range s.Dims {
		if v < 0 {
			return -1
		}
		b *= v
		if b > 1<<31 {
			return -1
		}
	}
	return b
}

// configs evaluates every launch's configuration with package launchcfg,
// in the (cached) scope of the function the launch is written in.
func (d *discoverer) configs() {
	for _, l := range d.r.Launches {
		l.Cfg = launchcfg.At(d.r.Scope(l.Caller), l.Node)
		l.read = l.Cfg != nil
		if l.Cfg == nil {
			// Not a shape launchcfg reads (a launch inside an ERROR
			// node, say): the dimensions are unknown.
			l.Cfg = &launchcfg.Launch{Node: l.Node, Config: l.Config, Kernel: l.Callee}
			for i := range l.Cfg.Grid {
				l.Cfg.Grid[i] = launchcfg.Dim{Form: affine.Opaque(affine.Unknown), Text: "?"}
				l.Cfg.Block[i] = l.Cfg.Grid[i]
			}
			l.Cfg.SharedMem = launchcfg.Dim{Form: affine.Const(0)}
		}
	}
}

// resolve links launches to kernels and calls to functions, once every
// definition is known.
func (d *discoverer) resolve() {
	r := d.r
	for _, l := range r.Launches {
		l.Kernel = d.lookup(l.Callee, l.Caller, len(l.Args), true)
		if l.Kernel != nil {
			l.Kernel.LaunchedBy = append(l.Kernel.LaunchedBy, l)
		}
	}
	for _, f := range r.Functions {
		seen := map[*Function]bool{}
		for _, c := range d.calls[f] {
			name, _ := d.callee(c.ChildByFieldName("function"))
			nargs := 0
			if args := c.ChildByFieldName("arguments"); args != nil {
				nargs = int(args.NamedChildCount())
			}
			if g := d.lookup(name, f, nargs, false); g != nil && !seen[g] {
				seen[g] = true
				f.Calls = append(f.Calls, g)
			}
		}
		for _, s := range r.SharedGlobal {
			if s.Name != "" && d.mentions(f, s.Name) {
				f.globalsUsed = append(f.globalsUsed, s)
			}
		}
	}
}

// prefixes returns the namespaces a name is looked up in from inside
// caller, innermost first, ending with "" (as written); made once per
// function, as every call in it asks.
func (d *discoverer) prefixes(caller *Function) []string {
	if ps, ok := d.scopes[caller]; ok {
		return ps
	}
	var prefixes []string
	if caller != nil {
		parts := strings.Split(caller.Qualified, "::")
		for i := len(parts) - 1; i >= 1; i-- {
			prefixes = append(prefixes, strings.Join(parts[:i], "::")+"::")
		}
	}
	prefixes = append(prefixes, "")
	if d.scopes == nil {
		d.scopes = map[*Function][]string{}
	}
	d.scopes[caller] = prefixes
	return prefixes
}

// lookup finds the definition a name refers to from inside caller: first
// qualified by the caller's enclosing namespaces (innermost first), then as
// written; among several, one whose parameter count matches nargs.
func (d *discoverer) lookup(name string, caller *Function, nargs int, kernel bool) *Function {
	if name == "" {
		return nil
	}
	for _, p := range d.prefixes(caller) {
		var cands []*Function
		for _, f := range d.r.byName[p+name] {
			if p != "" && f.Qualified != p+name {
				continue
			}
			if kernel == (f.Kind == Kernel) {
				cands = append(cands, f)
			}
		}
		if len(cands) == 0 {
			continue
		}
		for _, f := range cands {
			if len(f.Params) == nargs {
				return f
			}
		}
		return cands[0]
	}
	return nil
}
