package task

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Expr is a parsed integer expression: integer literals, names, + - * / %,
// unary minus, parentheses, min(a,b) and max(a,b). Division truncates toward
// zero as in C. Arithmetic is on int64 and overflow is an error, so a size
// that would wrap is reported rather than silently allocated.
type Expr struct {
	src  string
	root node
}

type node interface {
	eval(env map[string]int64) (int64, error)
	names(dst map[string]bool)
}

type lit int64
type name string
type neg struct{ x node }
type binop struct {
	op   byte
	l, r node
}
type call struct {
	fn   string
	args [2]node
}

// ParseExpr parses s. The error says where parsing stopped.
func ParseExpr(s string) (*Expr, error) {
	p := &exprParser{src: s}
	p.next()
	if p.tok == "" {
		return nil, errors.New("empty expression")
	}
	n, err := p.sum()
	if err != nil {
		return nil, err
	}
	if p.tok != "" {
		return nil, fmt.Errorf("unexpected %q at offset %d in %q", p.tok, p.at, s)
	}
	return &Expr{src: s, root: n}, nil
}

// String returns the source text.
func (e *Expr) String() string { return e.src }

// Eval evaluates e with the given names bound.
func (e *Expr) Eval(env map[string]int64) (int64, error) { return e.root.eval(env) }

// Names returns the names e refers to (without min and max).
func (e *Expr) Names() []string {
	m := map[string]bool{}
	e.root.names(m)
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

type exprParser struct {
	src     string
	pos, at int
	tok     string
}

// next scans one token into p.tok ("" at the end).
func (p *exprParser) next() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	p.at = p.pos
	if p.pos >= len(p.src) {
		p.tok = ""
		return
	}
	c := p.src[p.pos]
	switch {
	case isDigit(c):
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
		}
	case isIdentStart(c):
		for p.pos < len(p.src) && (isIdentStart(p.src[p.pos]) || isDigit(p.src[p.pos])) {
			p.pos++
		}
	default:
		p.pos++
	}
	p.tok = p.src[p.at:p.pos]
}

func (p *exprParser) sum() (node, error) {
	l, err := p.product()
	if err != nil {
		return nil, err
	}
	for p.tok == "+" || p.tok == "-" {
		op := p.tok[0]
		p.next()
		r, err := p.product()
		if err != nil {
			return nil, err
		}
		l = binop{op, l, r}
	}
	return l, nil
}

func (p *exprParser) product() (node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.tok == "*" || p.tok == "/" || p.tok == "%" {
		op := p.tok[0]
		p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = binop{op, l, r}
	}
	return l, nil
}

func (p *exprParser) unary() (node, error) {
	if p.tok == "-" {
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return neg{x}, nil
	}
	if p.tok == "+" {
		p.next()
		return p.unary()
	}
	return p.primary()
}

func (p *exprParser) primary() (node, error) {
	t := p.tok
	switch {
	case t == "":
		return nil, fmt.Errorf("unexpected end of %q", p.src)
	case t == "(":
		p.next()
		n, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.tok != ")" {
			return nil, fmt.Errorf("missing ) at offset %d in %q", p.at, p.src)
		}
		p.next()
		return n, nil
	case isDigit(t[0]):
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("integer %s out of range in %q", t, p.src)
		}
		p.next()
		return lit(v), nil
	case isIdentStart(t[0]):
		p.next()
		if t != "min" && t != "max" {
			return name(t), nil
		}
		if p.tok != "(" {
			return nil, fmt.Errorf("%s needs two arguments, as in %s(a, b), in %q", t, t, p.src)
		}
		p.next()
		a, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.tok != "," {
			return nil, fmt.Errorf("%s needs two arguments, as in %s(a, b), in %q", t, t, p.src)
		}
		p.next()
		b, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.tok != ")" {
			return nil, fmt.Errorf("missing ) after %s arguments in %q", t, p.src)
		}
		p.next()
		return call{t, [2]node{a, b}}, nil
	}
	return nil, fmt.Errorf("unexpected %q at offset %d in %q (allowed: integers, names, + - * / %% ( ), min, max)", t, p.at, p.src)
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') }

func (n lit) eval(map[string]int64) (int64, error) { return int64(n), nil }
func (n lit) names(map[string]bool)                {}

func (n name) eval(env map[string]int64) (int64, error) {
	v, ok := env[string(n)]
	if !ok {
		return 0, fmt.Errorf("unknown name %s", string(n))
	}
	return v, nil
}
func (n name) names(dst map[string]bool) { dst[string(n)] = true }

func (n neg) eval(env map[string]int64) (int64, error) {
	v, err := n.x.eval(env)
	if err != nil {
		return 0, err
	}
	if v == math.MinInt64 {
		return 0, errors.New("integer overflow")
	}
	return -v, nil
}
func (n neg) names(dst map[string]bool) { n.x.names(dst) }

func (n binop) eval(env map[string]int64) (int64, error) {
	a, err := n.l.eval(env)
	if err != nil {
		return 0, err
	}
	b, err := n.r.eval(env)
	if err != nil {
		return 0, err
	}
	switch n.op {
	case '+':
		s := a + b
		if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
			return 0, errors.New("integer overflow")
		}
		return s, nil
	case '-':
		s := a - b
		if (a >= 0 && b < 0 && s < 0) || (a < 0 && b > 0 && s >= 0) {
			return 0, errors.New("integer overflow")
		}
		return s, nil
	case '*':
		if a == 0 || b == 0 {
			return 0, nil
		}
		p := a * b
		if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
			return 0, errors.New("integer overflow")
		}
		return p, nil
	case '/', '%':
		if b == 0 {
			return 0, errors.New("division by zero")
		}
		if n.op == '/' {
			return a / b, nil
		}
		return a % b, nil
	}
	return 0, fmt.Errorf("unknown operator %c", n.op)
}
func (n binop) names(dst map[string]bool) { n.l.names(dst); n.r.names(dst) }

func (n call) eval(env map[string]int64) (int64, error) {
	a, err := n.args[0].eval(env)
	if err != nil {
		return 0, err
	}
	b, err := n.args[1].eval(env)
	if err != nil {
		return 0, err
	}
	if (n.fn == "min") == (a < b) {
		return a, nil
	}
	return b, nil
}
func (n call) names(dst map[string]bool) { n.args[0].names(dst); n.args[1].names(dst) }
