// Package lint runs every analyzer plugin over a set of CUDA files and merges
// their answers into one list of diagnostics and one feature vector per
// kernel. It is the engine behind `cudaperf lint`, `cudaperf features` and
// the compiler-launcher mode.
//
// The host does not know any check itself: it sends each plugin the whole
// batch, converts the findings into report.Diagnostic, applies the project
// configuration (enabled checks, per-check settings) and the inline
// `cudaperf:ignore` suppressions, and sorts. A plugin that fails (crash,
// timeout, protocol error) is reported by name and the others' findings are
// still returned, so a broken third-party analyzer never hides the built-in
// ones.
package lint
