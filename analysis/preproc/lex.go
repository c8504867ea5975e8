package preproc

import "bytes"

// skeleton returns a copy of src in which comments and the contents of
// string and character literals are spaces (newlines kept), so that the
// rules below can look for brackets and names without being fooled by a
// "{" in a string or a commented-out line. The quotes stay, so a literal
// still reads as a token.
func skeleton(src []byte) []byte {
	sk := bytes.Clone(src)
	blank := func(i, j int) {
		for ; i < j && i < len(sk); i++ {
			if sk[i] != '\n' {
				sk[i] = ' '
			}
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n' {
					j++ // a continued comment goes on
				}
				j++
			}
			blank(i, j)
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			end := len(src)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			blank(i, end)
			i = end
		case c == 'R' && i+1 < len(src) && src[i+1] == '"' && (i == 0 || !isIdent(src[i-1])):
			// raw string R"delim( ... )delim"
			open := bytes.IndexByte(src[i+2:], '(')
			if open < 0 {
				i++
				continue
			}
			delim := src[i+2 : i+2+open]
			closing := append(append([]byte(")"), delim...), '"')
			j := bytes.Index(src[i+3+open:], closing)
			end := len(src)
			if j >= 0 {
				end = i + 3 + open + j + len(closing)
			}
			blank(i+2, end-1)
			i = end
		case c == '"' || c == '\'':
			if c == '\'' && i > 0 && isDigit(src[i-1]) {
				i++ // digit separator: 1'000'000
				continue
			}
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			blank(i+1, min(j, len(src)))
			i = j + 1
		default:
			i++
		}
	}
	return sk
}

func isIdent(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// line is one logical line of the skeleton: a directive with its
// backslash continuations counts as one.
type line struct {
	start, end int // end excludes the newline
	directive  bool
}

// lines splits a skeleton into logical lines.
func lines(sk []byte) []line {
	var out []line
	for i := 0; i <= len(sk); {
		j := i
		for j < len(sk) && sk[j] != '\n' {
			j++
		}
		l := line{start: i, end: j}
		t := bytes.TrimLeft(sk[i:j], " \t")
		if len(t) > 0 && t[0] == '#' {
			l.directive = true
			for l.end > l.start && l.end < len(sk) && bytes.HasSuffix(bytes.TrimRight(sk[l.start:l.end], " \t\r"), []byte("\\")) {
				k := l.end + 1
				for k < len(sk) && sk[k] != '\n' {
					k++
				}
				l.end = k
			}
		}
		out = append(out, l)
		if l.end >= len(sk) {
			break
		}
		i = l.end + 1
	}
	return out
}

// blankRange replaces dst[i:j] by spaces, keeping newlines.
func blankRange(dst []byte, i, j int) {
	for ; i < j && i < len(dst); i++ {
		if dst[i] != '\n' && dst[i] != '\r' {
			dst[i] = ' '
		}
	}
}
