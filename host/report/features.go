package report

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"slices"
	"strconv"
)

// KernelFeatures is one row of `cudaperf features`: a kernel and its feature
// vector. File-level features (xfer, kernels, …) are repeated on each kernel
// of the file so every row is a complete vector.
//
// Status says, for every feature the analyzers reported, how the value was
// obtained: "exact", "estimated" (a heuristic filled a gap, such as a loop
// bound read at run time) or "unknown" (the analysis could not tell; the
// feature is then absent from Features, never a number).
type KernelFeatures struct {
	File     string             `json:"file"`
	Kernel   string             `json:"kernel"`
	Features map[string]float64 `json:"features"`
	Status   map[string]string  `json:"status,omitempty"`
}

// The values of KernelFeatures.Status.
const (
	StatusExact     = "exact"
	StatusEstimated = "estimated"
	StatusUnknown   = "unknown"
)

// WriteFeaturesJSON prints rows as a JSON array.
func WriteFeaturesJSON(w io.Writer, rows []KernelFeatures) error {
	if rows == nil {
		rows = []KernelFeatures{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}

// WriteFeaturesCSV prints rows as CSV with a header of file, kernel and the
// union of feature names: first the given order (the paper's vector), then
// the rest alphabetically. Missing and unknown values are empty cells (a
// feature that is unknown everywhere still gets its column).
func WriteFeaturesCSV(w io.Writer, rows []KernelFeatures, order []string) error {
	cols := slices.Clone(order)
	var extra []string
	add := func(k string) {
		if !slices.Contains(cols, k) && !slices.Contains(extra, k) {
			extra = append(extra, k)
		}
	}
	for _, r := range rows {
		for k := range r.Features {
			add(k)
		}
		for k := range r.Status {
			add(k)
		}
	}
	slices.Sort(extra)
	cols = append(cols, extra...)
	cw := csv.NewWriter(w)
	if err := cw.Write(append([]string{"file", "kernel"}, cols...)); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.File, r.Kernel}
		for _, c := range cols {
			if v, ok := r.Features[c]; ok {
				rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
			} else {
				rec = append(rec, "")
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
