package preproc

import "fmt"

// Bracket is a bracket that has no partner.
type Bracket struct {
	Offset int  // byte offset in the source
	Char   byte // the bracket: ( [ { ) ] }
	// ClosedBy is the closing bracket of another kind that came while
	// Char, an opener, was still open; 0 when Char is never closed or
	// is a closer with nothing open.
	ClosedBy byte
}

// Message says what is wrong, without the position.
func (b Bracket) Message() string {
	switch {
	case b.ClosedBy != 0:
		return fmt.Sprintf("'%c' is not closed (a '%c' comes first)", b.Char, b.ClosedBy)
	case b.Char == ')' || b.Char == ']' || b.Char == '}':
		return fmt.Sprintf("'%c' closes nothing", b.Char)
	}
	return fmt.Sprintf("'%c' is never closed", b.Char)
}

// Unbalanced returns the first bracket of src that has no partner, or
// ok=false when every (, [ and { is closed in order. Comments and literals
// are skipped, and an #if group whose condition is unknown is read through
// its first branch, as `#if A {` ... `#else {` ... `#endif` are written to
// be: a compiler sees one of them.
func Unbalanced(src []byte) (b Bracket, ok bool) {
	sk := skeleton(src)
	ls := lines(sk)
	for _, g := range scanGroups(sk, ls, nil) {
		if !g.closed {
			continue
		}
		keep := 0
		for i, br := range g.branches {
			if br.value == isTrue {
				keep = i
				break
			}
		}
		reduce(sk, g, keep)
	}
	// Directive lines (#define bodies) need not balance.
	for _, l := range ls {
		if l.directive {
			blankRange(sk, l.start, l.end)
		}
	}
	var stack []int
	for i, c := range sk {
		switch c {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			if len(stack) == 0 {
				return Bracket{Offset: i, Char: c}, true
			}
			top := stack[len(stack)-1]
			if closer(sk[top]) != c {
				return Bracket{Offset: top, Char: sk[top], ClosedBy: c}, true
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		top := stack[len(stack)-1]
		return Bracket{Offset: top, Char: sk[top]}, true
	}
	return Bracket{}, false
}

func closer(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}
