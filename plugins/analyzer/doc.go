// Command analyzer is cudaperf's built-in analyzer plugin: it serves every
// pass under analysis/passes through the AnalyzerService of the plugin
// contract. The host starts it as a separate process, like any third-party
// analyzer, so the built-in passes get no privileges a plugin author lacks.
//
// Each Analyze request runs the in-process driver (analysis/driver) over the
// batch: one parse per file, passes in dependency order, a failing pass
// reported as an "internal" diagnostic naming it while the others still run.
// The target device comes from the request (compute capability, then any
// limits the host measured, e.g. with NVML); ptxas reports sent with a file
// replace the register and shared-memory estimates. A file's compile flags
// (-D, -U, -I) and the object-like #defines of the headers it includes
// (preproc.Defines) decide its #if branches and macro values.
package main
