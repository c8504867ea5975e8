package analysis

import sitter "github.com/smacker/go-tree-sitter"

// Inspect visits n and its named descendants in source order, like
// go/ast.Inspect; visit returns false to skip a node's children. It is
// iterative, so deeply nested input cannot exhaust the stack.
func Inspect(n *sitter.Node, visit func(*sitter.Node) bool) {
	if n == nil {
		return
	}
	stack := []*sitter.Node{n}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !visit(c) {
			continue
		}
		for i := int(c.NamedChildCount()) - 1; i >= 0; i-- {
			stack = append(stack, c.NamedChild(i))
		}
	}
}
