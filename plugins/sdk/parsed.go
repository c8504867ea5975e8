package sdk

import (
	"errors"
	"fmt"
	"strings"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// ParsedFormat is the pluginv1.ParsedFile layout this SDK reads.
const ParsedFormat = 1

// ErrNotParsed is returned by Parse for a file sent without its parse: the
// plugin's Describe must set wants_parsed_files.
var ErrNotParsed = errors.New("the host sent no parse with this file: set wants_parsed_files in Describe (the Plugin type does)")

// File is a source file with the host's parse: the syntax tree of
// cudaperf's CUDA grammar, the kernels and the launch sites. It is
// read-only and safe for concurrent use.
type File struct {
	Path    string
	Content []byte

	kinds, fields []string
	nodes         []Node
	kids          []int32 // children of each node, contiguous per node
	kernels       []*Kernel
	launches      []*Launch
}

// Node is one syntax tree node, named (an expression, a statement) or
// anonymous (punctuation, keywords). Compare nodes by pointer.
type Node struct {
	f                    *File
	index, parent        int32
	kind, field          uint32
	flags                uint32
	startByte, endByte   int
	startLine, startCol  int
	endLine, endCol      int
	kids, nkids, subtree int32 // offset in f.kids, count, one past the subtree's last node
}

// Position is a 1-based line and byte column.
type Position struct{ Line, Column int }

// Kernel is one __global__ function definition.
type Kernel struct {
	Name, Qualified string
	// Node is the function_definition, NameNode its name, Body its
	// compound_statement.
	Node, NameNode, Body *Node
	Qualifiers           []string
	Params               []Param
	// LaunchBounds is nil without __launch_bounds__.
	LaunchBounds   *LaunchBounds
	TemplateParams []string
	ExternC        bool
	// Launches are the launch sites of this kernel in the file.
	Launches []*Launch
}

// Param is a kernel parameter.
type Param struct {
	Name, Type      string
	Pointer         int // levels of * (& counts as 1)
	Const, Restrict bool
	Node            *Node
}

// LaunchBounds is __launch_bounds__(MaxThreads, MinBlocks, MaxCluster);
// non-constant values are 0 and Args keeps them as written.
type LaunchBounds struct {
	Node                              *Node
	MaxThreads, MinBlocks, MaxCluster int
	Args                              []string
}

// Launch is a launch site: k<<<grid, block, shared, stream>>>(...) or
// cudaLaunchKernel.
type Launch struct {
	Node         *Node
	Callee       string
	TemplateArgs []string
	// Kernel is the launched kernel when this file defines it, else nil.
	Kernel *Kernel
	// Caller names the enclosing function ("" at file scope).
	Caller      string
	Grid, Block [3]Value
	SharedMem   Value
	Stream      string
	// The configuration's expressions; nil when omitted.
	GridNode, BlockNode, SharedMemNode, StreamNode *Node
}

// Value is a launch dimension: Int when Known, Text as written otherwise.
type Value struct {
	Known bool
	Int   int64
	Text  string
}

func (v Value) String() string {
	if v.Known {
		return fmt.Sprint(v.Int)
	}
	return v.Text
}

// Parse decodes the parse the host sent with f. It is the one place where
// the SDK converts the contract's parse into Go values.
func Parse(f *pluginv1.SourceFile) (*File, error) {
	p := f.GetParsed()
	if p == nil {
		return nil, ErrNotParsed
	}
	if p.GetFormat() != ParsedFormat {
		return nil, fmt.Errorf("the host sent parse format %d; this SDK reads format %d: rebuild the plugin with the SDK of this cudaperf", p.GetFormat(), ParsedFormat)
	}
	out := &File{Path: f.GetPath(), Content: f.GetContent()}
	if err := out.decodeTree(p.GetTree()); err != nil {
		return nil, fmt.Errorf("%s: malformed parse from the host: %w", f.GetPath(), err)
	}
	node := func(i int32) *Node {
		if i < 0 || int(i) >= len(out.nodes) {
			return nil
		}
		return &out.nodes[i]
	}
	for _, k := range p.GetKernels() {
		kk := &Kernel{Name: k.GetName(), Qualified: k.GetQualified(), Node: node(k.GetNode()), NameNode: node(k.GetNameNode()),
			Body: node(k.GetBodyNode()), Qualifiers: k.GetQualifiers(), TemplateParams: k.GetTemplateParams(), ExternC: k.GetExternC()}
		for _, pa := range k.GetParams() {
			kk.Params = append(kk.Params, Param{Name: pa.GetName(), Type: pa.GetType(), Pointer: int(pa.GetPointer()),
				Const: pa.GetConst(), Restrict: pa.GetRestrict(), Node: node(pa.GetNode())})
		}
		if lb := k.GetLaunchBounds(); lb != nil {
			kk.LaunchBounds = &LaunchBounds{Node: node(lb.GetNode()), MaxThreads: int(lb.GetMaxThreads()),
				MinBlocks: int(lb.GetMinBlocks()), MaxCluster: int(lb.GetMaxCluster()), Args: lb.GetArgs()}
		}
		out.kernels = append(out.kernels, kk)
	}
	value := func(v *pluginv1.LaunchValue) Value {
		return Value{Known: v.GetKnown(), Int: v.GetValue(), Text: v.GetText()}
	}
	for _, l := range p.GetLaunches() {
		ll := &Launch{Node: node(l.GetNode()), Callee: l.GetCallee(), TemplateArgs: l.GetTemplateArgs(), Caller: l.GetCaller(),
			SharedMem: value(l.GetSharedMem()), Stream: l.GetStream(), GridNode: node(l.GetGridNode()), BlockNode: node(l.GetBlockNode()),
			SharedMemNode: node(l.GetSharedMemNode()), StreamNode: node(l.GetStreamNode())}
		for i := 0; i < 3 && i < len(l.GetGrid()); i++ {
			ll.Grid[i] = value(l.GetGrid()[i])
		}
		for i := 0; i < 3 && i < len(l.GetBlock()); i++ {
			ll.Block[i] = value(l.GetBlock()[i])
		}
		if k := l.GetKernel(); k >= 0 && int(k) < len(out.kernels) {
			ll.Kernel = out.kernels[k]
		}
		out.launches = append(out.launches, ll)
	}
	for i, k := range p.GetKernels() {
		for _, li := range k.GetLaunchedBy() {
			if li >= 0 && int(li) < len(out.launches) {
				out.kernels[i].Launches = append(out.kernels[i].Launches, out.launches[li])
			}
		}
	}
	return out, nil
}

func (f *File) decodeTree(t *pluginv1.SyntaxTree) error {
	n := len(t.GetKind())
	cols := [][]uint32{t.GetField(), t.GetParentDelta(), t.GetStartByteDelta(), t.GetLength(), t.GetStartLineDelta(),
		t.GetStartColumn(), t.GetLineCount(), t.GetEndColumn(), t.GetFlags()}
	for _, c := range cols {
		if len(c) != n {
			return fmt.Errorf("tree columns have different lengths (%d and %d)", n, len(c))
		}
	}
	if n == 0 {
		return errors.New("empty tree")
	}
	f.kinds, f.fields = t.GetKinds(), t.GetFields()
	f.nodes = make([]Node, n)
	nkids := make([]int32, n)
	var b, line uint32 = 0, 1
	for i := range n {
		nd := &f.nodes[i]
		nd.f, nd.index = f, int32(i)
		if t.Kind[i] >= uint32(len(f.kinds)) || t.Field[i] >= uint32(len(f.fields)) {
			return fmt.Errorf("node %d: kind or field out of range", i)
		}
		nd.kind, nd.field, nd.flags = t.Kind[i], t.Field[i], t.Flags[i]
		nd.parent = -1
		if i > 0 {
			d := t.ParentDelta[i]
			if d == 0 || d > uint32(i) {
				return fmt.Errorf("node %d: bad parent", i)
			}
			nd.parent = int32(uint32(i) - d)
			nkids[nd.parent]++
		}
		b += t.StartByteDelta[i] // uint32 arithmetic: a (never written) decrease wraps back
		line += t.StartLineDelta[i]
		nd.startByte, nd.endByte = int(b), int(b+t.Length[i])
		nd.startLine, nd.startCol = int(line), int(t.StartColumn[i])
		nd.endLine, nd.endCol = int(line+t.LineCount[i]), int(t.EndColumn[i])
		if nd.endByte > len(f.Content) {
			return fmt.Errorf("node %d ends at byte %d, past the file's %d bytes", i, nd.endByte, len(f.Content))
		}
	}
	// Children lists: preorder means each node's children appear in order
	// after it; lay them out contiguously per parent.
	off := int32(0)
	for i := range f.nodes {
		f.nodes[i].kids = off
		off += nkids[i]
	}
	f.kids = make([]int32, off)
	for i := 1; i < n; i++ {
		p := &f.nodes[f.nodes[i].parent]
		f.kids[p.kids+p.nkids] = int32(i)
		p.nkids++
	}
	// Subtree ends, from the last node backwards.
	for i := n - 1; i >= 0; i-- {
		nd := &f.nodes[i]
		nd.subtree = int32(i + 1)
		if nd.nkids > 0 {
			nd.subtree = f.nodes[f.kids[nd.kids+nd.nkids-1]].subtree
		}
	}
	return nil
}

// Root is the translation_unit node.
func (f *File) Root() *Node { return &f.nodes[0] }

// Len is the number of nodes, named and anonymous.
func (f *File) Len() int { return len(f.nodes) }

// Node returns node i (preorder index, as in the contract's node fields),
// nil when out of range.
func (f *File) Node(i int) *Node {
	if i < 0 || i >= len(f.nodes) {
		return nil
	}
	return &f.nodes[i]
}

// Kernels are the file's __global__ definitions in source order.
func (f *File) Kernels() []*Kernel { return f.kernels }

// Launches are the file's launch sites in source order.
func (f *File) Launches() []*Launch { return f.launches }

// Kernel returns the kernel with this base or qualified name, or nil.
func (f *File) Kernel(name string) *Kernel {
	for _, k := range f.kernels {
		if k.Name == name || k.Qualified == name {
			return k
		}
	}
	return nil
}

// Index is the node's preorder index in its file.
func (n *Node) Index() int { return int(n.index) }

// Kind is the grammar's node type, e.g. "call_expression" or ";".
func (n *Node) Kind() string { return n.f.kinds[n.kind] }

// Field is the node's field in its parent ("function", "body"), or "".
func (n *Node) Field() string { return n.f.fields[n.field] }

func (n *Node) IsNamed() bool   { return n.flags&1 != 0 }
func (n *Node) IsMissing() bool { return n.flags&2 != 0 }
func (n *Node) IsExtra() bool   { return n.flags&4 != 0 }

// HasError reports whether the node is or contains an ERROR or MISSING
// node: findings inside may rest on a partial parse.
func (n *Node) HasError() bool { return n.flags&8 != 0 }

// StartByte and EndByte are the node's span, end exclusive.
func (n *Node) StartByte() int { return n.startByte }
func (n *Node) EndByte() int   { return n.endByte }

// Start and End are 1-based line and byte-column positions (End is just
// past the node).
func (n *Node) Start() Position { return Position{n.startLine, n.startCol} }
func (n *Node) End() Position   { return Position{n.endLine, n.endCol} }

// Text is the node's source text.
func (n *Node) Text() string { return string(n.f.Content[n.startByte:n.endByte]) }

// Range is the node's span as the contract's Range, for a Diagnostic.
func (n *Node) Range() *pluginv1.Range {
	return &pluginv1.Range{File: n.f.Path, StartByte: int64(n.startByte), EndByte: int64(n.endByte),
		StartLine: int32(n.startLine), StartColumn: int32(n.startCol), EndLine: int32(n.endLine), EndColumn: int32(n.endCol)}
}

// Parent is nil for the root.
func (n *Node) Parent() *Node {
	if n.parent < 0 {
		return nil
	}
	return &n.f.nodes[n.parent]
}

// Children are all children, named and anonymous, in order.
func (n *Node) Children() []*Node {
	out := make([]*Node, n.nkids)
	for i := range out {
		out[i] = &n.f.nodes[n.f.kids[n.kids+int32(i)]]
	}
	return out
}

// NamedChildren are the named children in order.
func (n *Node) NamedChildren() []*Node {
	var out []*Node
	for _, k := range n.f.kids[n.kids : n.kids+n.nkids] {
		if c := &n.f.nodes[k]; c.IsNamed() {
			out = append(out, c)
		}
	}
	return out
}

// ChildByField returns the first child in field name, or nil.
func (n *Node) ChildByField(name string) *Node {
	for _, k := range n.f.kids[n.kids : n.kids+n.nkids] {
		if c := &n.f.nodes[k]; n.f.fields[c.field] == name {
			return c
		}
	}
	return nil
}

// Walk calls visit on n and its named descendants in preorder; when visit
// returns false the node's children are skipped.
func (n *Node) Walk(visit func(*Node) bool) {
	if !visit(n) {
		return
	}
	nodes := n.f.nodes
	for i := n.index + 1; i < n.subtree; {
		c := &nodes[i]
		if !c.IsNamed() || !visit(c) {
			i = c.subtree
			continue
		}
		i++
	}
}

// Find returns n's named descendants (n included) of the given kinds, in
// preorder.
func (n *Node) Find(kinds ...string) []*Node {
	var out []*Node
	n.Walk(func(c *Node) bool {
		for _, k := range kinds {
			if c.Kind() == k {
				out = append(out, c)
				break
			}
		}
		return true
	})
	return out
}

// Contains reports whether m is n or inside n.
func (n *Node) Contains(m *Node) bool { return m.index >= n.index && m.index < n.subtree }

// Ancestor returns the nearest proper ancestor of one of the given kinds,
// or nil.
func (n *Node) Ancestor(kinds ...string) *Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		for _, k := range kinds {
			if p.Kind() == k {
				return p
			}
		}
	}
	return nil
}

// String is the S-expression of the named subtree, as tree-sitter prints
// it and as `cudaperf parse` shows it.
func (n *Node) String() string {
	var b strings.Builder
	n.sexp(&b, "")
	return b.String()
}

func (n *Node) sexp(b *strings.Builder, field string) {
	if field != "" {
		b.WriteString(field + ": ")
	}
	if n.IsMissing() {
		if n.IsNamed() {
			b.WriteString("(MISSING " + n.Kind() + ")")
		} else {
			b.WriteString(`(MISSING "` + n.Kind() + `")`)
		}
		return
	}
	b.WriteString("(" + n.Kind())
	for _, c := range n.Children() {
		if !c.IsNamed() && !c.IsMissing() {
			continue
		}
		b.WriteString(" ")
		c.sexp(b, c.Field())
	}
	b.WriteString(")")
}
