// Command textcount is an example analyzer plugin written with the Go SDK
// (sdk.Plugin) on the host's syntax tree: per kernel it counts
// __syncthreads() calls and __shared__ declarations, per file the kernels,
// and it warns (TC001) about a kernel that declares shared memory but
// never waits at a barrier. Its option TC001.accept-syncwarp shows how a
// plugin declares settings. Copy this folder to start a plugin;
// docs/plugins.md is the guide.
package main
