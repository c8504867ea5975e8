package grammar

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	sitter "github.com/smacker/go-tree-sitter"
)

// TreeFormat selects how WriteTree prints node positions.
type TreeFormat int

const (
	// WithRanges prints `[row, column] - [row, column]` after each node type,
	// 0-based, exactly as `tree-sitter parse` does, so that the two outputs
	// can be compared line by line.
	WithRanges TreeFormat = iota
	// NoRanges prints the bare S-expression (as `tree-sitter parse
	// --no-ranges` and tree-sitter's corpus tests do).
	NoRanges
)

// WriteTree writes the syntax tree under n as an indented S-expression: one
// named node per line, two spaces per level, field names as `name:`
// prefixes, ERROR nodes as (ERROR ...) and MISSING nodes as
// (MISSING "tok") or (MISSING type). Anonymous tokens are left out, as
// tree-sitter does.
func WriteTree(w io.Writer, n *sitter.Node, format TreeFormat) error {
	bw := bufio.NewWriter(w)
	c := sitter.NewTreeCursor(n)
	defer c.Close()

	depth := 0   // depth of the cursor below n
	printed := 0 // number of open parentheses written
	// open[d] tells whether the node at depth d was printed (and so needs a
	// closing parenthesis when the cursor leaves it).
	open := []bool{}
	for {
		node := c.CurrentNode()
		show := node.IsNamed() || node.IsMissing() || node.IsError()
		if show {
			if printed > 0 {
				bw.WriteByte('\n')
			}
			for i := 0; i < printed; i++ {
				bw.WriteString("  ")
			}
			if f := c.CurrentFieldName(); f != "" && depth > 0 {
				bw.WriteString(f)
				bw.WriteString(": ")
			}
			bw.WriteByte('(')
			switch {
			case node.IsMissing() && node.IsNamed():
				bw.WriteString("MISSING " + node.Type())
			case node.IsMissing():
				bw.WriteString("MISSING " + strconv.Quote(node.Type()))
			default:
				bw.WriteString(node.Type())
			}
			if format == WithRanges {
				s, e := node.StartPoint(), node.EndPoint()
				fmt.Fprintf(bw, " [%d, %d] - [%d, %d]", s.Row, s.Column, e.Row, e.Column)
			}
			printed++
		}
		open = append(open[:depth], show)

		if c.GoToFirstChild() {
			depth++
			continue
		}
		// Leave finished nodes, closing the printed ones, until a sibling
		// is found or the walk is back at n.
		for {
			if open[depth] {
				bw.WriteByte(')')
				printed--
			}
			if depth == 0 {
				bw.WriteByte('\n')
				return bw.Flush()
			}
			if c.GoToNextSibling() {
				break
			}
			c.GoToParent()
			depth--
		}
	}
}
