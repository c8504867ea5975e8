package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// SourceHash is the hash of a candidate's normalized source: comments
// removed, whitespace runs collapsed, and whitespace between a word and
// punctuation (or around brackets, commas and semicolons) dropped, so that
// reformatting or re-commenting a kernel does not change it while any
// change to its tokens does. Whitespace between two operator characters
// that would join into one token stays (`a++ + b` is not `a + ++b`, and
// `/ *p` is not a comment), and so does all whitespace of a preprocessor
// line (`#define F (x)` is not `#define F(x)`), whose line end also stays;
// `x = -a` and `x=-a` still hash alike. The `recorded` benchmarker keys its answers on it: two
// programs with one hash share a measurement.
func SourceHash(src []byte) string {
	h := sha256.Sum256([]byte(NormalizeSource(string(src))))
	return "sha256:" + hex.EncodeToString(h[:])
}

// NormalizeSource is the text SourceHash hashes.
func NormalizeSource(src string) string {
	var b strings.Builder
	pendingSpace := false
	lineStart, directive := true, false
	emit := func(c byte) {
		if pendingSpace && b.Len() > 0 {
			if p := lastByte(&b); directive && p != '\n' || isWord(c) && isWord(p) || joins(p, c) {
				b.WriteByte(' ')
			}
		}
		pendingSpace = false
		b.WriteByte(c)
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
			pendingSpace = true
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				i = len(src)
			} else {
				i += end + 3
			}
			pendingSpace = true
		case c == '"' || c == '\'':
			// A literal is kept byte for byte, escapes included.
			emit(c)
			for i+1 < len(src) {
				i++
				b.WriteByte(src[i])
				if src[i] == '\\' && i+1 < len(src) {
					i++
					b.WriteByte(src[i])
					continue
				}
				if src[i] == c || src[i] == '\n' {
					break
				}
			}
			lineStart = false
		case c == '\n':
			if directive {
				b.WriteByte('\n')
				pendingSpace = false
			} else {
				pendingSpace = true
			}
			lineStart, directive = true, false
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			pendingSpace = true
		default:
			if lineStart && c == '#' {
				directive = true
				if b.Len() > 0 && lastByte(&b) != '\n' {
					b.WriteByte('\n')
				}
				pendingSpace = false
			}
			lineStart = false
			emit(c)
		}
	}
	return strings.TrimSpace(b.String())
}

func lastByte(b *strings.Builder) byte {
	s := b.String()
	return s[len(s)-1]
}

// joins reports whether operator characters a and b, written together,
// would read as one token (or open a comment): ++, ->, <<, <=, &&, /*, //,
// ... Between others (= -, * *) whitespace separates nothing.
func joins(a, b byte) bool {
	switch string([]byte{a, b}) {
	case "++", "--", "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "::", "//", "/*", "*/", "..", "##",
		"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<:", ":>", "<%", "%>", "%:":
		return true
	}
	return false
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
