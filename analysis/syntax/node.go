package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Tree is a flattened syntax tree.
type Tree struct {
	src   []byte
	names *names
	types []string // names.types: Node.Type by Node.sym
	nodes []Node   // preorder; nodes[0] is the root
	kids  []int32  // children of each node, contiguous per node
}

// Root returns the root node.
func (t *Tree) Root() *Node {
	if len(t.nodes) == 0 {
		return nil
	}
	return &t.nodes[0]
}

// Len returns the number of nodes (named and anonymous).
func (t *Tree) Len() int { return len(t.nodes) }

// Source returns the source the tree was parsed from.
func (t *Tree) Source() []byte { return t.src }

// Node is one node of a Tree. Its methods mirror sitter.Node's.
type Node struct {
	t          *Tree
	sym        uint16 // index in t.types
	start, end sitter.Point
	startByte  uint32
	endByte    uint32
	parent     int32 // -1 for the root
	index      int32 // in t.nodes
	kids       int32 // offset in t.kids
	nkids      int32
	nnamed     int32
	pos        int32 // index among the parent's children
	subEnd     int32 // one past the last node of the subtree in t.nodes
	field      uint16
	flags      uint8
}

func (n *Node) Type() string             { return n.t.types[n.sym] }
func (n *Node) StartByte() uint32        { return n.startByte }
func (n *Node) EndByte() uint32          { return n.endByte }
func (n *Node) StartPoint() sitter.Point { return n.start }
func (n *Node) EndPoint() sitter.Point   { return n.end }
func (n *Node) IsNamed() bool            { return n.flags&flagNamed != 0 }
func (n *Node) IsMissing() bool          { return n.flags&flagMissing != 0 }
func (n *Node) IsExtra() bool            { return n.flags&flagExtra != 0 }
func (n *Node) HasError() bool           { return n.flags&flagHasError != 0 }

// IsError reports whether the node is an ERROR node.
func (n *Node) IsError() bool { return n.Type() == "ERROR" }

// ID identifies the node within its tree.
func (n *Node) ID() uintptr { return uintptr(n.index) }

// Equal reports whether two nodes are the same node.
func (n *Node) Equal(o *Node) bool { return n == o }

// Range returns the node's span.
func (n *Node) Range() sitter.Range {
	return sitter.Range{StartPoint: n.start, EndPoint: n.end, StartByte: n.startByte, EndByte: n.endByte}
}

// Content returns the node's text in src.
func (n *Node) Content(src []byte) string {
	if int(n.endByte) > len(src) || n.startByte > n.endByte {
		return ""
	}
	return string(src[n.startByte:n.endByte])
}

// Parent returns the parent, nil for the root.
func (n *Node) Parent() *Node {
	if n.parent < 0 {
		return nil
	}
	return &n.t.nodes[n.parent]
}

// ChildCount returns the number of children, named and anonymous.
func (n *Node) ChildCount() uint32 { return uint32(n.nkids) }

// Child returns child i, nil when out of range.
func (n *Node) Child(i int) *Node {
	if i < 0 || i >= int(n.nkids) {
		return nil
	}
	return &n.t.nodes[n.t.kids[int(n.kids)+i]]
}

// NamedChildCount returns the number of named children.
func (n *Node) NamedChildCount() uint32 { return uint32(n.nnamed) }

// NamedChild returns named child i, nil when out of range.
func (n *Node) NamedChild(i int) *Node {
	if i < 0 || i >= int(n.nnamed) {
		return nil
	}
	if n.nnamed == n.nkids {
		return n.Child(i)
	}
	for _, k := range n.t.kids[n.kids : n.kids+n.nkids] {
		c := &n.t.nodes[k]
		if c.flags&flagNamed != 0 {
			if i == 0 {
				return c
			}
			i--
		}
	}
	return nil
}

// Operator returns the type of the node's "operator" field ("+", "<<=",
// "!", …) of a binary, unary, update or assignment expression, or "".
func (n *Node) Operator() string {
	if o := n.ChildByFieldName("operator"); o != nil {
		return o.Type()
	}
	return ""
}

// ChildByFieldName returns the first child in the named field, or nil.
// Like tree-sitter's, it finds nothing under an ERROR node, whose children
// belong to no production.
func (n *Node) ChildByFieldName(name string) *Node {
	if name == "" || n.nkids == 0 || n.Type() == "ERROR" {
		return nil
	}
	// Comparing the few children's field names is cheaper than hashing
	// name to a field id (this was 2 % of a lint run).
	fields := n.t.names.fields
	for _, k := range n.t.kids[n.kids : n.kids+n.nkids] {
		if c := &n.t.nodes[k]; fields[c.field] == name {
			return c
		}
	}
	return nil
}

// FieldNameForChild returns the field name of child i, "" when none. An
// extra child (a comment) has none; tree-sitter's own function gives it the
// field of the child before it.
func (n *Node) FieldNameForChild(i int) string {
	c := n.Child(i)
	if c == nil {
		return ""
	}
	return n.t.names.fields[c.field]
}

// FieldName returns the node's own field name in its parent.
func (n *Node) FieldName() string { return n.t.names.fields[n.field] }

// NextSibling returns the next child of the parent, nil at the end.
func (n *Node) NextSibling() *Node {
	if p := n.Parent(); p != nil {
		return p.Child(int(n.pos) + 1)
	}
	return nil
}

// PrevSibling returns the previous child of the parent, nil at the start.
func (n *Node) PrevSibling() *Node {
	if p := n.Parent(); p != nil {
		return p.Child(int(n.pos) - 1)
	}
	return nil
}

// NextNamedSibling returns the next named child of the parent.
func (n *Node) NextNamedSibling() *Node {
	for s := n.NextSibling(); s != nil; s = s.NextSibling() {
		if s.IsNamed() {
			return s
		}
	}
	return nil
}

// PrevNamedSibling returns the previous named child of the parent.
func (n *Node) PrevNamedSibling() *Node {
	for s := n.PrevSibling(); s != nil; s = s.PrevSibling() {
		if s.IsNamed() {
			return s
		}
	}
	return nil
}

// String returns the S-expression of the node's named subtree, in
// tree-sitter's format: "(call_expression function: (identifier) ...)".
func (n *Node) String() string {
	var b strings.Builder
	n.sexp(&b, "")
	return b.String()
}

func (n *Node) sexp(b *strings.Builder, field string) {
	if field != "" {
		b.WriteString(field)
		b.WriteString(": ")
	}
	if n.IsMissing() {
		b.WriteString("(MISSING ")
		if n.IsNamed() {
			b.WriteString(n.Type())
		} else {
			b.WriteString(`"` + n.Type() + `"`)
		}
		b.WriteString(")")
		return
	}
	b.WriteString("(")
	b.WriteString(n.Type())
	for i := 0; i < int(n.nkids); i++ {
		c := n.Child(i)
		if !c.IsNamed() && !c.IsMissing() {
			continue
		}
		b.WriteString(" ")
		c.sexp(b, c.FieldName())
	}
	b.WriteString(")")
}

// Inspect visits n and its named descendants in preorder; visit returns
// false to skip a node's children.
func Inspect(n *Node, visit func(*Node) bool) {
	if n == nil || !visit(n) {
		return
	}
	// The nodes are stored in preorder, so the subtree is nodes[index:subEnd]:
	// a scan that jumps over the subtrees it must skip (anonymous nodes,
	// whose named descendants the walk never reaches, and nodes visit
	// declines) instead of a stack of pointers. Every pass walks through
	// here.
	nodes := n.t.nodes
	for i := n.index + 1; i < n.subEnd; {
		c := &nodes[i]
		if c.flags&flagNamed == 0 || !visit(c) {
			i = c.subEnd
			continue
		}
		i++
	}
}

// PointerBase returns the variable a pointer expression points into: s for
// s, &s[i], (T *)s and (s), and with arith set also for s + i (the left
// operand of a binary expression); "" for anything else. Passes use it to
// name the array an argument hands over.
func PointerBase(n *Node, src []byte, arith bool) string {
	for n != nil {
		switch n.Type() {
		case "identifier":
			return n.Content(src)
		case "pointer_expression", "subscript_expression":
			n = n.ChildByFieldName("argument")
		case "cast_expression":
			n = n.ChildByFieldName("value")
		case "parenthesized_expression":
			n = n.NamedChild(0)
		case "binary_expression":
			if !arith {
				return ""
			}
			n = n.ChildByFieldName("left")
		default:
			return ""
		}
	}
	return ""
}
