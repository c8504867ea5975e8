// Package results appends benchmark results, one JSON object per line, to
// a run folder (runs/bench-<UTC time>/results.jsonl by default). Each line
// is written with a single write call and the file is opened for append, so
// a crash loses at most the line being written and readers never see a
// partial record followed by more data.
package results
