// Package dataset manages the measured C→CUDA dataset built from a suite:
// its fixed train/validation/test split by task, the sweep templates that
// multiply a task's variants, the checks that keep the data honest, and
// the report of its measurements (bench/suites/<suite>/RESULTS.md and a
// plot).
//
// The split is by task, never by variant: every variant of a task lies on
// the same side, so a ranker validated on held-out tasks has never seen a
// version of the same program. The split file (split.yaml in the suite) is
// the source of truth and is committed; MakeSplit only proposes one,
// stratified by category so each side sees a mix of memory-bound, compute-
// bound and irregular kernels.
//
// A sweep template (sweep.go) is a variant with declared parameters;
// Expand writes one ordinary variant per allowed combination. Sample picks
// the deterministic subset of instances that CI compiles (corners,
// parameter extremes, then by hash), because compiling thousands of
// instances takes longer than CI has. CheckContamination finds test-task
// kernels copied to another side, and Duplicates finds files with one
// token stream, so every file counts as a distinct kernel (both read a
// torch2cuda variant's CUDA from its Python strings).
package dataset
