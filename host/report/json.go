package report

import (
	"encoding/json"
	"io"
)

// WriteJSON prints diagnostics as a JSON array (never null: an empty run is []).
func WriteJSON(w io.Writer, ds []Diagnostic) error {
	if ds == nil {
		ds = []Diagnostic{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(ds)
}
