package report

import (
	"encoding/json"
	"io"
)

// WriteJSON prints diagnostics as a JSON array (never null: an empty run
// is []). Each plugin failure is one more element with check "plugin",
// severity error and the plugin's name: a failure of one file has its
// file (line 1), a failure of the whole run has file "" and line 0. A
// consumer that only reads findings can skip check "plugin"; one that
// must know whether the analysis was complete looks for it.
func WriteJSON(w io.Writer, ds []Diagnostic, failures []Failure) error {
	out := make([]Diagnostic, 0, len(ds)+len(failures))
	out = append(out, ds...)
	for _, f := range failures {
		d := Diagnostic{File: f.File, Severity: Error, Check: FailureCheck, Message: f.Message, Plugin: f.Plugin}
		if f.File != "" {
			d.Line, d.Column, d.EndLine, d.EndColumn = 1, 1, 1, 1
		}
		out = append(out, d)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
