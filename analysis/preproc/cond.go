package preproc

import (
	"bytes"
	"strconv"
	"strings"
)

// Predefined are the macros nvcc defines in both of its passes, host and
// device. __CUDA_ARCH__ is left out on purpose: it is defined in the
// device pass only, so a condition on it is unknown (both branches are
// real code).
var Predefined = map[string]string{"__CUDACC__": "1", "__NVCC__": "1", "__cplusplus": "201703L"}

// group is one #if ... #endif.
type group struct {
	branches []branch
	endLine  line // the #endif
	closed   bool
	guard    bool // #ifndef X / #define X: Resolve leaves it alone
}

// branch is one arm of a group: the directive line and the body up to the
// next directive of the group.
type branch struct {
	dir       line
	kind      string // if, ifdef, ifndef, elif, elifdef, elifndef, else
	cond      string // the directive's text after its keyword
	bodyStart int
	bodyEnd   int // start of the next directive of the group
	value     tri // the condition's value when the branch was reached
}

// tri is a three-valued truth: the condition may be unknown.
type tri int8

const (
	unknown tri = iota
	isFalse
	isTrue
)

// directive splits a directive line into its keyword and the rest.
func directive(sk []byte, l line) (kw, rest string) {
	t := strings.TrimSpace(string(sk[l.start:l.end]))
	t = strings.TrimSpace(strings.TrimPrefix(t, "#"))
	t = strings.ReplaceAll(t, "\\\n", " ")
	i := 0
	for i < len(t) && isIdent(t[i]) {
		i++
	}
	return t[:i], strings.TrimSpace(t[i:])
}

// scanGroups finds the #if groups of a skeleton in source order (outer
// before inner) and evaluates their conditions with defs, updated by the
// file's own #define and #undef lines as they come. Definitions inside a
// branch that is not known to be taken are not recorded.
func scanGroups(sk []byte, ls []line, defs map[string]string) []*group {
	env := map[string]string{}
	for k, v := range Predefined {
		env[k] = v
	}
	undefd := map[string]bool{}
	for k, v := range defs {
		env[k] = v
	}
	var all, stack []*group
	// taken reports whether every enclosing branch is known to be taken.
	taken := func() bool {
		for _, g := range stack {
			if g.branches[len(g.branches)-1].value != isTrue {
				return false
			}
		}
		return true
	}
	for i, l := range ls {
		if !l.directive {
			continue
		}
		kw, rest := directive(sk, l)
		bodyStart := l.end + 1
		switch kw {
		case "if", "ifdef", "ifndef":
			g := &group{}
			v := evalDirective(kw, rest, env, undefd)
			if kw == "ifndef" && v == unknown && includeGuard(sk, ls[i+1:], rest) {
				v = isTrue // a header read once: its body is the file
				g.guard = true
			}
			g.branches = append(g.branches, branch{dir: l, kind: kw, cond: rest, bodyStart: bodyStart, value: v})
			all = append(all, g)
			stack = append(stack, g)
		case "elif", "elifdef", "elifndef", "else":
			if len(stack) == 0 {
				continue
			}
			g := stack[len(stack)-1]
			prev := &g.branches[len(g.branches)-1]
			prev.bodyEnd = l.start
			v := isTrue
			if kw != "else" {
				v = evalDirective(strings.Replace(kw, "el", "", 1), rest, env, undefd)
			}
			// An arm is reached only when every earlier arm is false.
			for _, b := range g.branches {
				switch b.value {
				case isTrue:
					v = isFalse
				case unknown:
					if v == isTrue {
						v = unknown
					}
				}
			}
			g.branches = append(g.branches, branch{dir: l, kind: kw, cond: rest, bodyStart: bodyStart, value: v})
		case "endif":
			if len(stack) == 0 {
				continue
			}
			g := stack[len(stack)-1]
			g.branches[len(g.branches)-1].bodyEnd = l.start
			g.endLine, g.closed = l, true
			stack = stack[:len(stack)-1]
		case "define":
			name, val := splitDefine(rest)
			switch {
			case name == "":
			case taken():
				env[name] = val
				delete(undefd, name)
			default:
				// Defined on a branch the build may not take: from
				// here on its value is unknown.
				delete(env, name)
				delete(undefd, name)
			}
		case "undef":
			delete(env, rest)
			delete(undefd, rest)
			if taken() {
				undefd[rest] = true
			}
		}
	}
	return all
}

// includeGuard reports whether the directive after `#ifndef name` is
// `#define name`.
func includeGuard(sk []byte, rest []line, name string) bool {
	for _, l := range rest {
		if !l.directive {
			if len(bytes.TrimSpace(sk[l.start:l.end])) > 0 {
				return false
			}
			continue
		}
		kw, r := directive(sk, l)
		n, _ := splitDefine(r)
		return kw == "define" && n == strings.TrimSpace(name)
	}
	return false
}

// splitDefine returns the name and replacement of an object-like macro;
// a function-like macro gets the replacement "(function)", which no
// condition can evaluate.
func splitDefine(rest string) (name, val string) {
	i := 0
	for i < len(rest) && isIdent(rest[i]) {
		i++
	}
	name = rest[:i]
	if i < len(rest) && rest[i] == '(' {
		return name, "(function)"
	}
	return name, strings.TrimSpace(rest[i:])
}

func evalDirective(kw, rest string, env map[string]string, undefd map[string]bool) tri {
	switch kw {
	case "ifdef", "ifndef":
		name := strings.Fields(rest + " ")[0]
		v := definedValue(name, env, undefd)
		if kw == "ifndef" {
			v = not(v)
		}
		return v
	}
	e := &evaluator{toks: tokenize(rest), env: env, undefd: undefd}
	v, known := e.expr(0)
	if !known || e.pos != len(e.toks) {
		return unknown
	}
	if v != 0 {
		return isTrue
	}
	return isFalse
}

func definedValue(name string, env map[string]string, undefd map[string]bool) tri {
	if _, ok := env[name]; ok {
		return isTrue
	}
	if undefd[name] {
		return isFalse
	}
	return unknown
}

func not(v tri) tri {
	switch v {
	case isTrue:
		return isFalse
	case isFalse:
		return isTrue
	}
	return unknown
}

// tokenize splits a condition into identifiers, numbers and operators.
func tokenize(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case isIdent(c):
			j := i
			for j < len(s) && isIdent(s[j]) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			two := ""
			if i+1 < len(s) {
				two = s[i : i+2]
			}
			switch two {
			case "&&", "||", "==", "!=", "<=", ">=", "<<", ">>":
				out = append(out, two)
				i += 2
			default:
				out = append(out, s[i:i+1])
				i++
			}
		}
	}
	return out
}

// evaluator computes a #if expression with unknowns: a name that is not
// defined here may be defined by a header, so its value is unknown, and
// only && and || with a known deciding side get past an unknown.
type evaluator struct {
	toks   []string
	pos    int
	env    map[string]string
	undefd map[string]bool
	depth  int
}

var precedence = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

func (e *evaluator) peek() string {
	if e.pos < len(e.toks) {
		return e.toks[e.pos]
	}
	return ""
}

func (e *evaluator) expr(minPrec int) (int64, bool) {
	l, lk := e.unary()
	for {
		op := e.peek()
		p, ok := precedence[op]
		if !ok || p <= minPrec {
			return l, lk
		}
		e.pos++
		r, rk := e.expr(p)
		switch {
		case op == "&&" && ((lk && l == 0) || (rk && r == 0)):
			l, lk = 0, true
			continue
		case op == "||" && ((lk && l != 0) || (rk && r != 0)):
			l, lk = 1, true
			continue
		case !lk || !rk:
			l, lk = 0, false
			continue
		}
		l, lk = binary(op, l, r)
	}
}

func binary(op string, l, r int64) (int64, bool) {
	b := func(c bool) int64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case "||":
		return b(l != 0 || r != 0), true
	case "&&":
		return b(l != 0 && r != 0), true
	case "|":
		return l | r, true
	case "^":
		return l ^ r, true
	case "&":
		return l & r, true
	case "==":
		return b(l == r), true
	case "!=":
		return b(l != r), true
	case "<":
		return b(l < r), true
	case ">":
		return b(l > r), true
	case "<=":
		return b(l <= r), true
	case ">=":
		return b(l >= r), true
	case "<<":
		return l << uint(r&63), true
	case ">>":
		return l >> uint(r&63), true
	case "+":
		return l + r, true
	case "-":
		return l - r, true
	case "*":
		return l * r, true
	case "/", "%":
		if r == 0 {
			return 0, false
		}
		if op == "/" {
			return l / r, true
		}
		return l % r, true
	}
	return 0, false
}

func (e *evaluator) unary() (int64, bool) {
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > 200 {
		return 0, false
	}
	t := e.peek()
	e.pos++
	switch {
	case t == "":
		return 0, false
	case t == "(":
		v, k := e.expr(0)
		if e.peek() != ")" {
			return 0, false
		}
		e.pos++
		return v, k
	case t == "!":
		v, k := e.unary()
		if v == 0 {
			return 1, k
		}
		return 0, k
	case t == "-":
		v, k := e.unary()
		return -v, k
	case t == "+":
		return e.unary()
	case t == "~":
		v, k := e.unary()
		return ^v, k
	case t == "defined":
		paren := e.peek() == "("
		if paren {
			e.pos++
		}
		name := e.peek()
		e.pos++
		if paren {
			if e.peek() != ")" {
				return 0, false
			}
			e.pos++
		}
		switch definedValue(name, e.env, e.undefd) {
		case isTrue:
			return 1, true
		case isFalse:
			return 0, true
		}
		return 0, false
	case isDigit(t[0]):
		return number(t)
	case isIdent(t[0]):
		if e.peek() == "(" {
			return 0, false // a function-like macro call: unknown
		}
		if t == "true" {
			return 1, true
		}
		if t == "false" {
			return 0, true
		}
		val, ok := e.env[t]
		if !ok || e.depth > 50 {
			return 0, false
		}
		sub := &evaluator{toks: tokenize(val), env: e.env, undefd: e.undefd, depth: e.depth + 10}
		v, k := sub.expr(0)
		if sub.pos != len(sub.toks) || len(sub.toks) == 0 {
			return 0, false
		}
		return v, k
	}
	return 0, false
}

// number parses an integer literal with optional u/l suffixes.
func number(t string) (int64, bool) {
	t = strings.TrimRight(t, "uUlL")
	t = strings.ReplaceAll(t, "'", "")
	v, err := strconv.ParseInt(t, 0, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

// Resolve returns src with every #if group whose taken branch is known
// reduced to that branch: the other branches and the group's directive
// lines become spaces. defs are -D definitions (name → replacement, "1"
// for -DNAME). It returns src itself when nothing changes.
func Resolve(src []byte, defs map[string]string) []byte {
	if !bytes.Contains(src, []byte("#")) {
		return src
	}
	sk := skeleton(src)
	groups := scanGroups(sk, lines(sk), defs)
	var out []byte
	for _, g := range groups {
		keep := -1
		decided := true
		for i, b := range g.branches {
			if b.value == unknown {
				decided = false
				break
			}
			if b.value == isTrue {
				keep = i
				break
			}
		}
		if !decided || !g.closed || g.guard {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		reduce(out, g, keep)
	}
	if out == nil {
		return src
	}
	return out
}

// reduce blanks every directive line of g and the bodies of every branch
// but keep (-1: none).
func reduce(dst []byte, g *group, keep int) {
	for i, b := range g.branches {
		blankRange(dst, b.dir.start, b.dir.end)
		if i != keep {
			blankRange(dst, b.bodyStart, b.bodyEnd)
		}
	}
	blankRange(dst, g.endLine.start, g.endLine.end)
}
