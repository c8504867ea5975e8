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

// Parse finds the directives in a source file.
func Parse(file string, src []byte) []*Directive {
	lines := bytes.Split(src, []byte("\n"))
	var ds []*Directive
	for i, l := range lines {
		m := directiveRE.FindSubmatchIndex(l)
		if m == nil {
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
