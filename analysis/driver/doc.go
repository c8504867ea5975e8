// Package driver runs analyzers on CUDA source files in-process.
//
// A Driver is built once from the analyzers to run (validated with
// analysis.Validate); it adds their requirements and orders everything so
// that each analyzer runs after the ones it requires. For each file it
// parses the source once, runs every analyzer on the one tree with the
// results of its requirements in Pass.ResultOf, and returns the diagnostics
// and features of the analyzers that were asked for (a requirement's own
// findings are not reported unless it was asked for too).
//
// Failures stay local. A panic in an analyzer is recovered and becomes an
// error diagnostic naming the analyzer and the file; analyzers that require
// a failed one are skipped with a diagnostic saying why; the others still
// run. Input problems are diagnostics of the file with check "input": a
// missing or unreadable path, a directory, a binary file, a file over the
// size limit (10 MB by default) are not analysed; a file that is not valid
// UTF-8 gets a diagnostic at the first bad byte and is still analysed.
// Syntax errors (ERROR and MISSING nodes) are diagnostics with check
// "syntax", and the rest of the tree is analysed. One file never stops the
// others: RunFiles analyses files in parallel and returns one FileResult
// per path, in order.
package driver
