package suppress

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/cudaperf/cudaperf/host/report"
)

// Check is the check id under which problems with directives are reported.
const Check = "suppression"

// commentRanges returns the [start, end) byte ranges of src's comments,
// in order, lexing C++ as far as comments need: string and character
// literals (escapes, raw strings R"d(...)d"), and digit separators (1'000),
// which are not character literals.
func commentRanges(src []byte) [][2]int {
	var out [][2]int
	word := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			end := bytes.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			out = append(out, [2]int{i, i + end})
			i += end
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				end = len(src) - i - 2
			} else {
				end += 2
			}
			out = append(out, [2]int{i, i + 2 + end})
			i += 1 + end
		case c == '"' && i > 0 && src[i-1] == 'R' && (i < 2 || !word(src[i-2]) || src[i-2] == 'u' || src[i-2] == 'U' || src[i-2] == 'L' || src[i-2] == '8'):
			open := bytes.IndexByte(src[i:], '(')
			if open < 0 {
				return out
			}
			close := bytes.Index(src[i+open:], append(append([]byte(")"), src[i+1:i+open]...), '"'))
			if close < 0 {
				return out
			}
			i += open + close + open // past the closing quote
		case c == '\'' && inNumber(src, i, word):
			// a digit separator (1'000, 0xFFFF'FFFF), not u8'a'
		case c == '"' || c == '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		}
	}
	return out
}

// inNumber reports whether the quote at i is inside a number literal: the
// word before it (letters, digits, separators) starts with a digit.
func inNumber(src []byte, i int, word func(byte) bool) bool {
	j := i
	for j > 0 && (word(src[j-1]) || src[j-1] == '\'' || src[j-1] == '.') {
		j--
	}
	return j < i && src[j] >= '0' && src[j] <= '9'
}

// inRanges reports whether offset lies in one of the ordered ranges.
func inRanges(rs [][2]int, off int) bool {
	for _, r := range rs {
		if off < r[0] {
			return false
		}
		if off < r[1] {
			return true
		}
	}
	return false
}

// Directive is one parsed `cudaperf:ignore` comment.
type Directive struct {
	Line    int // line of the comment (1-based)
	Column  int // column of the comment
	Target  int // line whose findings it covers
	Checks  []string
	Reason  string
	used    bool
	EndCol  int
	Malform string // why the directive is unusable, if it is
}

var directiveRE = regexp.MustCompile(`(//|/\*)\s*cudaperf:ignore\b(.*?)(\*/|$)`)

// Parse finds the directives in a source file: those in its comments (a
// string literal that spells one, such as a message printed by the
// kernel, silenced the findings on its line).
func Parse(file string, src []byte) []*Directive {
	lines := bytes.Split(src, []byte("\n"))
	comments := commentRanges(src)
	var ds []*Directive
	lineStart := 0
	for i, l := range lines {
		start := lineStart
		lineStart += len(l) + 1
		m := directiveRE.FindSubmatchIndex(l)
		if m == nil || !inRanges(comments, start+m[0]) {
			continue
		}
		d := &Directive{Line: i + 1, Column: m[0] + 1, EndCol: m[1] + 1}
		fields := strings.Fields(string(l[m[4]:m[5]]))
		switch {
		case len(fields) == 0:
			d.Malform = "names no check: write `// cudaperf:ignore CHECK reason`"
		case len(fields) == 1:
			d.Malform = fmt.Sprintf("gives no reason for ignoring %s: write `// cudaperf:ignore %s <why this is fine>`", fields[0], fields[0])
		}
		if len(fields) > 0 {
			d.Checks = strings.Split(fields[0], ",")
			d.Reason = strings.Join(fields[1:], " ")
		}
		d.Target = d.Line
		if len(bytes.TrimSpace(l[:m[0]])) == 0 { // alone on its line: covers the next code line
			for j := i + 1; j < len(lines); j++ {
				t := bytes.TrimSpace(lines[j])
				if len(t) > 0 && !bytes.HasPrefix(t, []byte("//")) {
					d.Target = j + 1
					break
				}
			}
		}
		ds = append(ds, d)
	}
	return ds
}

func (d *Directive) covers(check string) bool {
	for _, c := range d.Checks {
		if c == check || c == "all" {
			return true
		}
	}
	return false
}

// Apply removes the diagnostics of one file that a well-formed directive
// covers and returns the rest, plus diagnostics about malformed and unused
// directives. Findings about syntax are never suppressed.
func Apply(file string, diags []report.Diagnostic, ds []*Directive) (kept []report.Diagnostic, problems []report.Diagnostic) {
	for _, diag := range diags {
		suppressed := false
		for _, d := range ds {
			if d.Malform == "" && d.Target == diag.Line && diag.Check != "syntax" && d.covers(diag.Check) {
				d.used = true
				suppressed = true
			}
		}
		if !suppressed {
			kept = append(kept, diag)
		}
	}
	for _, d := range ds {
		msg := ""
		sev := report.Warning
		switch {
		case d.Malform != "":
			msg = "suppression " + d.Malform
		case !d.used:
			msg = fmt.Sprintf("suppression of %s silences nothing on line %d: remove it", strings.Join(d.Checks, ","), d.Target)
			sev = report.Note
		default:
			continue
		}
		problems = append(problems, report.Diagnostic{
			File: file, Line: d.Line, Column: d.Column, EndLine: d.Line, EndColumn: d.EndCol,
			Severity: sev, Check: Check, Message: msg,
		})
	}
	return kept, problems
}
