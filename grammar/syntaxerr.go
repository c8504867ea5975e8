package grammar

import (
	"fmt"
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// SyntaxError is an ERROR or MISSING node of a tree.
type SyntaxError struct {
	// Missing is the node type the parser inserted (for example ";") when
	// the node is a MISSING node, and empty for an ERROR node.
	Missing string
	// StartByte and EndByte delimit the node in the source (equal for
	// MISSING nodes, which have no width).
	StartByte, EndByte uint32
	// Line and Column are 1-based; Column counts bytes, as GCC and clang do.
	Line, Column int
	// Near is a short excerpt of the source at the error, on one line.
	Near string
}

// Message is the diagnostic text, without position:
// "syntax error near 'x'" (with ", expected ';'" for MISSING nodes).
func (e SyntaxError) Message() string {
	msg := fmt.Sprintf("syntax error near '%s'", e.Near)
	if e.Missing != "" {
		msg += fmt.Sprintf(", expected '%s'", e.Missing)
	}
	return msg
}

// maxNear bounds the excerpt so that one huge ERROR node (a whole function
// body the parser gave up on) still yields a one-line diagnostic.
const maxNear = 40

// SyntaxErrors lists the ERROR and MISSING nodes under root in source order.
// Errors nested inside an ERROR node are not listed again: the outer node
// starts where the parser began to fail, and covers them. The exception is a
// root that is itself an ERROR (nothing in the file could be placed in a
// translation unit, so its start is always 1:1): then the errors inside it
// are listed, and the root only when it has none. src must be the source the
// tree was parsed from.
//
// One thing the tree marks as an error is not listed: a preprocessor
// directive on the last line of a file that does not end in a newline. The
// grammar wants the newline that ends a directive, but C++ (since C++11) and
// every compiler accept a file without a final newline. So root.HasError()
// may be true while SyntaxErrors returns nothing, and only then.
func SyntaxErrors(root *sitter.Node, src []byte) []SyntaxError {
	if root == nil || !root.HasError() {
		return nil
	}
	var out []SyntaxError
	collectErrors(root, root, src, &out)
	return out
}

// collectErrors appends the errors under n. It reports whether the errors
// that n.HasError() announces are accounted for: listed, or excused by
// missingFinalNewline.
func collectErrors(n, root *sitter.Node, src []byte, out *[]SyntaxError) bool {
	switch {
	case n.IsMissing():
		*out = append(*out, newSyntaxError(n, src, n.Type()))
		return true
	case n.IsError() && !(n.Equal(root) && hasInnerError(n)):
		*out = append(*out, newSyntaxError(n, src, ""))
		return true
	case !n.HasError():
		return false
	}
	accounted := false
	for i := 0; i < int(n.ChildCount()); i++ {
		if collectErrors(n.Child(i), root, src, out) {
			accounted = true
		}
	}
	// Otherwise the error is a MISSING token that the tree does not expose
	// as a child (tree-sitter hides unnamed helper tokens such as the
	// newline that ends a directive).
	if accounted || missingFinalNewline(n, src) {
		return true
	}
	*out = append(*out, newSyntaxError(n, src, ""))
	return true
}

// missingFinalNewline reports whether n is a directive that ends the file
// without a newline: the one hidden error that is not a mistake.
func missingFinalNewline(n *sitter.Node, src []byte) bool {
	return strings.HasPrefix(n.Type(), "preproc_") && int(n.EndByte()) == len(src) &&
		(len(src) == 0 || src[len(src)-1] != '\n')
}

// hasInnerError reports whether an ERROR or MISSING node lies strictly below n.
func hasInnerError(n *sitter.Node) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if c.IsError() || c.IsMissing() || c.HasError() {
			return true
		}
	}
	return false
}

func newSyntaxError(n *sitter.Node, src []byte, missing string) SyntaxError {
	p := n.StartPoint()
	return SyntaxError{
		Missing:   missing,
		StartByte: n.StartByte(),
		EndByte:   n.EndByte(),
		Line:      int(p.Row) + 1,
		Column:    int(p.Column) + 1,
		Near:      near(src, n.StartByte(), n.EndByte()),
	}
}

// near returns the first line of src[start:end], or for an empty range (a
// MISSING node) the rest of the line from start, or failing that the text
// before start; trimmed, shortened to maxNear bytes on a rune boundary.
func near(src []byte, start, end uint32) string {
	if int(end) > len(src) {
		end = uint32(len(src))
	}
	if start > end {
		start = end
	}
	text := firstLine(string(src[start:end]))
	if text == "" {
		text = firstLine(string(src[start:]))
	}
	if text == "" {
		before := strings.TrimRight(string(src[:start]), " \t\r\n")
		if i := strings.LastIndexByte(before, '\n'); i >= 0 {
			before = before[i+1:]
		}
		text = strings.TrimSpace(before)
	}
	if len(text) > maxNear {
		cut := maxNear
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…"
	}
	return strings.ToValidUTF8(text, "\uFFFD")
}

func firstLine(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
