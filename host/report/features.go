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
type KernelFeatures struct {
	File     string             `json:"file"`
	Kernel   string             `json:"kernel"`
	Features map[string]float64 `json:"features"`
}

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
// the rest alphabetically. Missing values are empty cells.
func WriteFeaturesCSV(w io.Writer, rows []KernelFeatures, order []string) error {
	cols := slices.Clone(order)
	var extra []string
	for _, r := range rows {
		for k := range r.Features {
			if !slices.Contains(cols, k) && !slices.Contains(extra, k) {
				extra = append(extra, k)
			}
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
