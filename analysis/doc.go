// Package analysis defines the interface between a CUDA source analysis and
// the programs that run it, in the shape of golang.org/x/tools/go/analysis.
//
// An Analyzer is a value: a stable Name (also the check id of its
// diagnostics), a Doc, a URL, the analyzers it Requires, a Run function, the
// ResultType of Run's result, the Features it reports (each with a unit, a
// range and a level, "kernel" or "file") and the default Severity of its
// diagnostics. Each pass lives in its own package under analysis/passes and
// exports
//
//	var Analyzer = &analysis.Analyzer{
//		Name:     "occ",
//		Doc:      analysis.MustExtractDoc(doc, "occ"),
//		URL:      "https://cudaperf.dev/checks/occ",
//		Requires: []*analysis.Analyzer{kernels.Analyzer},
//		Run:      run,
//		Features: []analysis.FeatureDef{{Name: "occ", Unit: "fraction", ...}},
//	}
//
// where doc is its doc.go, embedded with //go:embed. The package comment of
// doc.go holds a section "# Analyzer NAME"; the first line of that section
// is a short lower-case title and the rest explains the definition, the unit,
// the range, and gives a bad and a good example.
//
// A Pass carries one parsed File (path, source, tree-sitter tree), the
// target Device (never nil; the H200 by default), an optional ptxas.Report
// with registers and shared memory per kernel, the results of the required
// analyzers in ResultOf, and two output functions, Report for diagnostics
// and ReportFeature for features. Analyzers touch nothing else, so the same
// analyzer runs in-process (analysis/driver), behind the plugin RPC, or under
// analysistest without change.
//
// Positions are Ranges: byte offsets plus 1-based lines and byte columns,
// the form GCC and clang print. Validate checks a set of analyzers (names,
// docs, acyclic Requires, unique feature names) before anything runs.
//
// File.Syntax returns a Go copy of the tree (package syntax) with the same
// node methods; walking it costs no cgo calls, so passes that walk a lot
// should use it (bench/perf/analysis.md has the numbers).
//
// The driver (package driver) reports three check ids of its own: "syntax"
// for ERROR and MISSING nodes, "input" for files it cannot analyse, and
// "internal" for an analyzer that failed or panicked.
//
// Language and ParseFile are the one place that chooses the tree-sitter
// grammar; the CUDA grammar adds cuda_qualifier, launch_bounds, maxnreg and
// launch_config (the <<<grid, block, shared_mem, stream>>> of a
// call_expression, field "config") to tree-sitter-cpp.
package analysis
