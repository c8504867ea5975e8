// Command textcount is an example analyzer plugin written with the Go SDK.
//
// It proves the plugin contract end to end with textual checks only (no
// parsing): it counts kernels per file, __syncthreads() calls and __shared__
// declarations per kernel, and warns (TC001) when a kernel declares shared
// memory but never synchronizes, the usual sign of a race between the
// threads that write a tile and those that read it. Real analyses live in
// the built-in analyzer plugin; copy this one to start your own.
package main
