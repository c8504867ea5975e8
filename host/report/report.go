package report

import (
	"cmp"
	"slices"
)

// Severity of a diagnostic; the strings are what the text format prints.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Note    Severity = "note"
)

// Rank orders severities: note < warning < error.
func (s Severity) Rank() int {
	switch s {
	case Error:
		return 2
	case Warning:
		return 1
	}
	return 0
}

// ParseSeverity accepts the names used in the plugin contract and on the
// command line ("info" is a synonym of "note").
func ParseSeverity(s string) (Severity, bool) {
	switch s {
	case "error":
		return Error, true
	case "warning", "warn":
		return Warning, true
	case "note", "info":
		return Note, true
	}
	return "", false
}

// Diagnostic is one finding at a source range. Lines and columns are 1-based;
// columns count bytes, as GCC's do.
type Diagnostic struct {
	File      string   `json:"file"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"end_line"`
	EndColumn int      `json:"end_column"`
	Severity  Severity `json:"severity"`
	Check     string   `json:"check"`
	Message   string   `json:"message"`
	Kernel    string   `json:"kernel,omitempty"`
	URL       string   `json:"url,omitempty"`
	Plugin    string   `json:"plugin,omitempty"`
	Fixes     []Fix    `json:"fixes,omitempty"`
}

// Fix is a suggested edit: replace bytes [Start, End) of the file with NewText.
type Fix struct {
	Message string `json:"message"`
	Start   int    `json:"start_byte"`
	End     int    `json:"end_byte"`
	NewText string `json:"new_text"`
}

// Failure is a plugin that failed (did not start, crashed, hung, returned
// an error) or could not analyze one file: the analysis is incomplete.
type Failure struct {
	Plugin  string // "" when unknown
	File    string // the file it concerns; "" for the whole run
	Message string // what failed and what to do, as printed on stderr
}

// FailureCheck is the check id of failures in JSON output.
const FailureCheck = "plugin"

// Rule describes a check for SARIF's rule table and `cudaperf explain`.
type Rule struct {
	ID       string
	Title    string // one line
	Doc      string // full explanation, markdown
	URL      string
	Severity Severity
}

// Sort orders diagnostics by file, line, column, check and message.
func Sort(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column),
			cmp.Compare(a.Check, b.Check), cmp.Compare(a.Message, b.Message))
	})
}
