package pysource

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

type tokKind int

const (
	tokName tokKind = iota
	tokString
	tokOp
	tokNewline // a logical line's end (not inside brackets)
)

type token struct {
	kind tokKind
	text string // names and operators
	// Strings: the decoded value and, per decoded byte, its offset in the
	// Python file.
	value   []byte
	offsets []int
}

// tokenize splits Python source into the tokens Extract needs: names,
// string literals (decoded, with each byte's source offset), one-character
// operators and logical newlines. Numbers are dropped; comments and
// continuation lines are skipped. It never fails: unterminated strings end
// at the end of the file, as far as a linter needs.
func tokenize(src []byte) []token {
	var out []token
	depth := 0
	s := string(src)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
		case c == '\n':
			if depth == 0 && len(out) > 0 && out[len(out)-1].kind != tokNewline {
				out = append(out, token{kind: tokNewline})
			}
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case c == '"' || c == '\'':
			t, n := readString(s, i, i, "")
			out = append(out, t)
			i = n
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] >= 0x80) {
				j++
			}
			if j < len(s) && (s[j] == '"' || s[j] == '\'') && isPrefix(s[i:j]) {
				t, n := readString(s, i, j, strings.ToLower(s[i:j]))
				out = append(out, t)
				i = n
				continue
			}
			out = append(out, token{kind: tokName, text: s[i:j]})
			i = j
		case c >= '0' && c <= '9':
			for i < len(s) && (s[i] == '.' || s[i] == '_' || s[i] >= '0' && s[i] <= '9' || s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z') {
				i++
			}
		default:
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth = max(depth-1, 0)
			}
			out = append(out, token{kind: tokOp, text: s[i : i+1]})
			i++
		}
	}
	return out
}

func isPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf":
		return true
	}
	return false
}

// readString reads the literal whose prefix starts at start and whose
// quote is at q, and returns it with the offset after it.
func readString(s string, start, q int, prefix string) (token, int) {
	raw := strings.Contains(prefix, "r")
	fstr := strings.Contains(prefix, "f")
	quote := s[q : q+1]
	if strings.HasPrefix(s[q:], quote+quote+quote) {
		quote = s[q : q+3]
	}
	t := token{kind: tokString}
	add := func(b []byte, at int) {
		for _, x := range b {
			t.value = append(t.value, x)
			t.offsets = append(t.offsets, at)
		}
	}
	i := q + len(quote)
	for i < len(s) {
		if strings.HasPrefix(s[i:], quote) {
			return t, i + len(quote)
		}
		c := s[i]
		if c == '\n' && len(quote) == 1 {
			return t, i // unterminated single-quoted string: stop at the line
		}
		if fstr && (strings.HasPrefix(s[i:], "{{") || strings.HasPrefix(s[i:], "}}")) {
			add([]byte{c}, i)
			i += 2
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			add([]byte{c}, i)
			i++
			continue
		}
		if raw {
			// A raw string keeps the backslash and the character after it
			// (which cannot end the string).
			add([]byte{c, s[i+1]}, i)
			t.offsets[len(t.offsets)-1] = i + 1
			i += 2
			continue
		}
		n, b := decodeEscape(s[i:])
		add(b, i)
		i += n
	}
	return t, len(s)
}

// decodeEscape decodes the escape at the start of s (s[0] == '\\') and
// returns its length in s and its bytes.
func decodeEscape(s string) (int, []byte) {
	switch e := s[1]; e {
	case '\n':
		return 2, nil
	case '\\', '\'', '"':
		return 2, []byte{e}
	case 'n':
		return 2, []byte{'\n'}
	case 't':
		return 2, []byte{'\t'}
	case 'r':
		return 2, []byte{'\r'}
	case 'a':
		return 2, []byte{7}
	case 'b':
		return 2, []byte{8}
	case 'f':
		return 2, []byte{12}
	case 'v':
		return 2, []byte{11}
	case 'x':
		if len(s) >= 4 {
			if v, err := strconv.ParseUint(s[2:4], 16, 8); err == nil {
				return 4, []byte{byte(v)}
			}
		}
	case 'u', 'U':
		n := 4
		if e == 'U' {
			n = 8
		}
		if len(s) >= 2+n {
			if v, err := strconv.ParseUint(s[2:2+n], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
				return 2 + n, utf8.AppendRune(nil, rune(v))
			}
		}
	default:
		if e >= '0' && e <= '7' {
			j := 1
			for j < 4 && j < len(s) && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[1:j], 8, 16)
			return j, []byte{byte(v)}
		}
	}
	// Unknown escapes keep their backslash, as Python does.
	return 2, []byte{'\\', s[1]}
}
