package affine

import (
	"context"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// parseExpr parses a macro's replacement text as a C expression with the
// project's CUDA grammar.
func parseExpr(text string) (*syntax.Node, []byte) {
	const prefix = "int __cudaperf_macro = ("
	// The newline ends a // comment at the end of the macro text.
	src := []byte(prefix + text + "\n);")
	f, err := analysis.ParseFile(context.Background(), "<macro>", src)
	if err != nil {
		return nil, nil
	}
	// The Go copy is all that is kept: free the C tree now rather than
	// when the collector finalizes it.
	tree, err := f.Syntax()
	f.Tree.Close()
	if err != nil {
		return nil, nil
	}
	var val *syntax.Node
	syntax.Inspect(tree.Root(), func(n *syntax.Node) bool {
		if val == nil && n.Type() == "init_declarator" {
			val = n.ChildByFieldName("value")
		}
		return val == nil
	})
	if val == nil || val.HasError() {
		return nil, nil
	}
	// Unwrap the parentheses added above, so that a comment in the
	// macro text is not taken for its value.
	if val.Type() == "parenthesized_expression" {
		for i := 0; i < int(val.NamedChildCount()); i++ {
			if c := val.NamedChild(i); c.Type() != "comment" {
				return c, src
			}
		}
	}
	return val, src
}
