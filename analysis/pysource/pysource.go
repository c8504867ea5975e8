package pysource

import (
	"bytes"
	"sort"
)

// Source is the CUDA found in one Python file: the strings joined into one
// virtual .cu file, and the map from its bytes back to the Python file.
type Source struct {
	// CUDA is the decoded text of the CUDA strings, in file order, each
	// followed by a newline; the literals of one Python string (adjacent
	// literals, or literals joined by +) are joined as Python joins them.
	CUDA []byte
	// Strings is how many string literals were taken.
	Strings int

	segs []segment // in CUDA order
	// pyLines holds the offset of each line start of the Python file.
	pyLines []int
}

// segment maps CUDA[cuda : cuda+len(src)] to Python bytes: src[i] is the
// Python offset of the i-th decoded byte (escapes map to their backslash).
type segment struct {
	cuda int
	src  []int
}

// sourceKeywords are load_inline's arguments that hold CUDA code.
var sourceKeywords = map[string]bool{"cuda_sources": true}

// Extract finds the CUDA in a Python file: every string literal passed as
// load_inline's cuda_sources (directly, in a list, or through a name
// assigned a string earlier in the file), and every other string literal
// that contains __global__ (RawKernel and friends). It returns nil when
// the file holds no CUDA.
func Extract(py []byte) *Source {
	toks := tokenize(py)
	// Names assigned a string (or a concatenation of strings): their
	// literals, the last assignment winning, as Python does at import.
	assigned := map[string][]int{}
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].kind != tokName || toks[i+1].text != "=" || (i > 0 && toks[i-1].kind != tokNewline && toks[i-1].text != ";") {
			continue
		}
		var lits []int
		for j := i + 2; j < len(toks); j++ {
			switch {
			case toks[j].kind == tokString:
				lits = append(lits, j)
				continue
			case toks[j].text == "(" || toks[j].text == ")":
				continue
			}
			break
		}
		if len(lits) > 0 {
			assigned[toks[i].text] = lits
		}
	}
	unit, dynamic := stringUnits(toks)
	take := map[int]bool{}
	for i, t := range toks {
		if t.kind == tokString && bytes.Contains(t.value, []byte("__global__")) && !dynamic[unit[i]] {
			// The whole string: 'a' 'b' and 'a' + 'b' are one string in
			// Python, and a piece alone is code cut off (a false "never
			// closed" error). A string that a name or call completes is
			// made at run time: what it holds is not known here.
			for j := range toks {
				if toks[j].kind == tokString && unit[j] == unit[i] {
					take[j] = true
				}
			}
		}
		if t.kind != tokName || !sourceKeywords[t.text] || i+1 >= len(toks) || toks[i+1].text != "=" {
			continue
		}
		// The argument: tokens up to the comma or parenthesis that closes
		// it at depth 0.
		depth := 0
		for j := i + 2; j < len(toks); j++ {
			tj := toks[j]
			if tj.text == "(" || tj.text == "[" || tj.text == "{" {
				depth++
			} else if tj.text == ")" || tj.text == "]" || tj.text == "}" {
				if depth == 0 {
					break
				}
				depth--
			} else if tj.text == "," && depth == 0 {
				break
			}
			switch tj.kind {
			case tokString:
				take[j] = true
			case tokName:
				for _, k := range assigned[tj.text] {
					take[k] = true
				}
			}
		}
	}
	if len(take) == 0 {
		return nil
	}
	idx := make([]int, 0, len(take))
	for i := range take {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	s := &Source{Strings: len(idx), pyLines: []int{0}}
	for i, b := range py {
		if b == '\n' {
			s.pyLines = append(s.pyLines, i+1)
		}
	}
	for k, i := range idx {
		t := toks[i]
		s.segs = append(s.segs, segment{cuda: len(s.CUDA), src: t.offsets})
		s.CUDA = append(s.CUDA, t.value...)
		if k+1 == len(idx) || unit[idx[k+1]] != unit[i] {
			s.CUDA = append(s.CUDA, '\n')
		}
	}
	return s
}

// stringUnits numbers the Python strings made of literals: adjacent
// literals ('a' 'b', also across lines inside brackets) and literals
// joined by + are one string. unit[i] is the string of literal token i
// (0 for other tokens); dynamic[u] is set when a + joins string u to
// something that is not a literal (a name, a call), so that its text is
// known only at run time, and when string u is a statement of its own (a
// docstring: prose that may mention __global__, not code).
func stringUnits(toks []token) (unit []int, dynamic map[int]bool) {
	unit = make([]int, len(toks))
	dynamic = map[int]bool{}
	n := 0
	for i := 0; i < len(toks); i++ {
		if toks[i].kind != tokString {
			continue
		}
		n++
		if i > 0 && toks[i-1].text == "+" {
			dynamic[n] = true // something that is not a literal before the +
		}
		first := i
		for ; i < len(toks); i++ {
			switch {
			case toks[i].kind == tokString:
				unit[i] = n
				continue
			case toks[i].text == "+" && i+1 < len(toks) && toks[i+1].kind == tokString:
				continue
			case toks[i].text == "+":
				dynamic[n] = true
			}
			break
		}
		alone := first == 0 || toks[first-1].kind == tokNewline
		if alone && (i == len(toks) || toks[i].kind == tokNewline) {
			dynamic[n] = true
		}
	}
	return unit, dynamic
}

// Position maps a 1-based line and byte column of the virtual CUDA file to
// the Python file. A position past a string's end (its trailing newline,
// or the end of the file) maps to just after the string's last byte.
func (s *Source) Position(line, col int) (pyLine, pyCol int) {
	off := offsetOf(s.CUDA, line, col)
	return s.pyPosition(s.pyOffset(off))
}

// pyOffset maps a byte offset of CUDA to one of the Python file.
func (s *Source) pyOffset(off int) int {
	k := sort.Search(len(s.segs), func(i int) bool { return s.segs[i].cuda > off }) - 1
	if k < 0 {
		k = 0
	}
	seg := s.segs[k]
	rel := off - seg.cuda
	switch {
	case rel < 0 || len(seg.src) == 0:
		return 0
	case rel < len(seg.src):
		return seg.src[rel]
	}
	return seg.src[len(seg.src)-1] + 1
}

func (s *Source) pyPosition(off int) (int, int) {
	l := sort.Search(len(s.pyLines), func(i int) bool { return s.pyLines[i] > off }) - 1
	if l < 0 {
		l = 0
	}
	return l + 1, off - s.pyLines[l] + 1
}

// offsetOf is the byte offset of a 1-based line and column in text,
// clamped to the text.
func offsetOf(text []byte, line, col int) int {
	off := 0
	for l := 1; l < line && off < len(text); l++ {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return min(off+max(col-1, 0), len(text))
}
