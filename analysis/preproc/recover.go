package preproc

import (
	"bytes"
	"regexp"
)

// Span is a byte range of the source where the parser failed.
type Span struct{ Start, End int }

// contextLines is how many lines before an error are rewritten too: the
// parser often fails one or two lines after the macro that confused it
// (CUTLASS_PRAGMA_UNROLL on its own line, then the for loop).
const contextLines = 2

// Recover returns a copy of src in which the lines around errs are
// rewritten by the rules listed in the package doc, or src itself when no
// rule applies. Only code changes: comments and literals are kept.
func Recover(src []byte, errs []Span) []byte {
	if len(errs) == 0 {
		return src
	}
	sk := skeleton(src)
	ls := lines(sk)
	// mark the lines to rewrite
	marked := make([]bool, len(ls))
	li := 0
	for _, e := range errs {
		for li > 0 && ls[li].start > e.Start {
			li--
		}
		for li < len(ls)-1 && ls[li].end < e.Start {
			li++
		}
		first := max(0, li-contextLines)
		for k := first; k < len(ls) && ls[k].start <= e.End; k++ {
			marked[k] = true
		}
	}
	out := bytes.Clone(src)
	changed := false
	blank := func(i, j int) {
		if i < j {
			blankRange(out, i, j)
			changed = true
		}
	}
	for k, l := range ls {
		if l.directive {
			continue
		}
		text := sk[l.start:l.end]
		// A line that is only a macro (CUB_NAMESPACE_BEGIN) confuses the
		// parser far from where it fails (at the end of the namespace's
		// first declaration), so these lines go everywhere in the file.
		if m := macroLine.FindSubmatchIndex(text); m != nil && macroName(text) && (marked[k] || m[2] < 0) {
			blank(l.start+m[0], l.start+m[1])
			continue
		}
		if !marked[k] {
			continue
		}
		for _, m := range ifMacro.FindAllSubmatchIndex(text, -1) {
			blank(l.start+m[2], l.start+m[3])
		}
		for _, m := range typeidCall.FindAllSubmatchIndex(text, -1) {
			// typeid(double): the grammar takes only an expression
			// there, sizeof takes a type too, and has as many letters.
			copy(out[l.start+m[2]:], "sizeof")
			changed = true
		}
		for _, a := range annotations(text) {
			blank(l.start+a.Start, l.start+a.End)
		}
		for _, m := range emptyDefault.FindAllSubmatchIndex(text, -1) {
			blank(l.start+m[2], l.start+m[3])
		}
		for _, m := range exprTypename.FindAllSubmatchIndex(text, -1) {
			blank(l.start+m[2], l.start+m[3])
		}
		if m := instantiation.FindIndex(text); m != nil {
			blank(l.start+m[0], l.start+m[1])
		}
	}
	// Statement macros with code arguments, anywhere in the file.
	for _, m := range targetMacro.FindAllIndex(sk, -1) {
		if targetBlock(sk, out, m[0], m[1]-1) {
			changed = true
		}
	}
	// #if groups that overlap a marked line: keep the first branch, and
	// the first branch of every group with the same condition (the
	// `#ifdef PROFILE {` ... `#ifdef PROFILE }` pairs).
	groups := scanGroups(sk, ls, nil)
	conds := map[string]bool{}
	for _, g := range groups {
		if g.closed && !g.guard && overlaps(g, ls, marked) {
			conds[g.branches[0].kind+" "+g.branches[0].cond] = true
		}
	}
	for _, g := range groups {
		if g.closed && !g.guard && conds[g.branches[0].kind+" "+g.branches[0].cond] {
			reduce(out, g, 0)
			changed = true
		}
	}
	if !changed {
		return src
	}
	return out
}

var (
	// A line that is only a macro use: NAME or NAME(args), maybe with a
	// trailing semicolon-free comment (already blank in the skeleton).
	macroLine = regexp.MustCompile(`^\s*[A-Za-z_][A-Za-z0-9_]*\s*(\(.*\))?\s*$`)
	// NV_IF_TARGET(NV_IS_HOST, (code;)) and its siblings (libcu++'s
	// <nv/target>): statement macros whose arguments are code.
	targetMacro = regexp.MustCompile(`\bNV_(?:IF_TARGET|IF_ELSE_TARGET|DISPATCH_TARGET)\s*\(`)
	// if CONSTEXPR_MACRO (cond)
	ifMacro    = regexp.MustCompile(`\bif\s+([A-Z_][A-Z0-9_]+)\s*\(`)
	typeidCall = regexp.MustCompile(`\b(typeid)\s*\(`)
	// A braced default argument (`= {}`, `= {10, 0}`) just before ) or ,.
	emptyDefault = regexp.MustCompile(`(=\s*\{[^{};]*\})\s*[,)]`)
	// `typename` where an expression starts.
	// (a qualified name constructed with ( or {, not a template
	// parameter `, typename T`).
	exprTypename = regexp.MustCompile(`(?:^|[(,=]|\breturn)\s*(typename)\s+[\w:<> ]*::\s*\w+\s*[({]`)
	// An explicit instantiation (declaration): template without <.
	instantiation = regexp.MustCompile(`^\s*(extern\s+)?template\s+[^<\s][^;]*;`)
)

// macroName reports whether the single name of a macro line looks like a
// macro: upper case with an underscore or 4+ letters, so that `x` or `Foo`
// (the end of a wrapped expression) is left alone.
func macroName(text []byte) bool {
	t := bytes.TrimSpace(text)
	i := 0
	for i < len(t) && isIdent(t[i]) {
		i++
	}
	return macroLike(t[:i])
}

// macroLike reports whether a name is written as macros are: capitals,
// digits and underscores, with an underscore or at least 4 characters.
func macroLike(name []byte) bool {
	if len(name) < 2 {
		return false
	}
	upper := 0
	for _, c := range name {
		switch {
		case 'A' <= c && c <= 'Z':
			upper++
		case c == '_' || isDigit(c):
		default:
			return false
		}
	}
	if upper == 0 {
		return false
	}
	return bytes.IndexByte(name, '_') >= 0 || len(name) >= 4
}

// overlaps reports whether a marked line lies inside g.
func overlaps(g *group, ls []line, marked []bool) bool {
	start, end := g.branches[0].dir.start, g.endLine.end
	for k, l := range ls {
		if l.start > end {
			break
		}
		if marked[k] && l.end >= start {
			return true
		}
	}
	return false
}

// annotations finds upper-case macro names (with their arguments, if any)
// followed on the same line by another name: CUTLASS_HOST_DEVICE void f,
// CCCL_DEPRECATED_BECAUSE("...") _CCCL_DEVICE int g, void CUDART_CB cb.
// A name after ::, . or -> is a member, not an annotation.
func annotations(text []byte) []Span {
	var out []Span
	for i := 0; i < len(text); {
		if !isIdent(text[i]) || (i > 0 && isIdent(text[i-1])) {
			i++
			continue
		}
		j := i
		for j < len(text) && isIdent(text[j]) {
			j++
		}
		name := text[i:j]
		start := i
		i = j
		if !macroLike(name) || isDigit(name[0]) {
			continue
		}
		p := start - 1
		for p >= 0 && (text[p] == ' ' || text[p] == '\t') {
			p--
		}
		if p >= 0 && (text[p] == ':' || text[p] == '.' || text[p] == '>' && p > 0 && text[p-1] == '-') {
			continue
		}
		k := skipSpace(text, j)
		if k < len(text) && text[k] == '(' {
			end := matchParen(text, k)
			if end < 0 {
				continue
			}
			k = skipSpace(text, end+1)
			j = end + 1
		}
		next := k < len(text) && (isIdent(text[k]) && !isDigit(text[k]) || text[k] == '~') && !bytes.HasPrefix(text[k:], []byte("::"))
		// [&](int i) _CCCL_FORCEINLINE_LAMBDA { ... }
		lambda := p >= 0 && text[p] == ')' && k < len(text) && text[k] == '{'
		// using T CCCL_DEPRECATED_BECAUSE("...") = U;
		deprecated := bytes.Contains(name, []byte("DEPRECATED"))
		if next || lambda || deprecated {
			out = append(out, Span{start, j})
		}
	}
	return out
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// matchParen returns the index of the ) that closes the ( at i, or -1.
func matchParen(b []byte, i int) int {
	depth := 0
	for k := i; k < len(b); k++ {
		switch b[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// targetBlock rewrites NV_IF_ELSE_TARGET(T, (a;), (b;)) starting at the
// name at i, with its ( at open, into {  {a;} {b;} }: the parentheses
// become braces, the targets and commas spaces, so each arm is a block the
// grammar reads as code. It reports whether it changed anything.
func targetBlock(sk, out []byte, i, open int) bool {
	end := matchParen(sk, open)
	if end < 0 {
		return false
	}
	var args [][2]int
	depth, from := 0, open+1
	for k := open + 1; k < end; k++ {
		switch sk[k] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, [2]int{from, k})
				from = k + 1
			}
		}
	}
	args = append(args, [2]int{from, end})
	for _, a := range args {
		s, e := skipSpace(sk, a[0]), a[1]
		for e > s && (sk[e-1] == ' ' || sk[e-1] == '\n' || sk[e-1] == '\t' || sk[e-1] == '\r') {
			e--
		}
		if s < e && sk[s] == '(' && matchParen(sk, s) == e-1 {
			out[s], out[e-1] = '{', '}'
		} else {
			blankRange(out, a[0], a[1])
		}
		if a[1] < end {
			out[a[1]] = ' ' // the comma
		}
	}
	blankRange(out, i, open)
	out[open], out[end] = '{', '}'
	return true
}
