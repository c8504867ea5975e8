// Package perf holds performance measurements of cudaperf that span
// packages: benchmarks whose numbers are recorded in the markdown files of
// this directory (analysis.md), with the commands that reproduce them.
package perf
