package report

import (
	"fmt"
	"io"
)

// WriteText prints diagnostics as GCC and clang do, one per line:
//
//	file:line:col: warning: message [check]
func WriteText(w io.Writer, ds []Diagnostic) error {
	for _, d := range ds {
		if _, err := fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", d.File, d.Line, d.Column, d.Severity, d.Message, d.Check); err != nil {
			return err
		}
	}
	return nil
}
