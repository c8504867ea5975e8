// Package blocksize defines the blocksize analyzer, which reads the threads
// per block of every launch and checks the block shape.
//
// # Analyzer blocksize
//
// threads per block from launch configurations; blocks that waste lanes
//
// Each launch site's block dimensions come from package launchcfg
// (constant propagation through dim3, #define, constexpr and const
// variables and arithmetic).
//
// Feature, per kernel: tpb, the threads per block (block.x · block.y ·
// block.z), averaged over the kernel's own valid launch sites in the file
// (never over other kernels' launches). A block that is not a constant but
// has an upper bound — c / 2 with c = m < 1024 ? m : 1024, min(n, 128) —
// counts its bound, and the value is then estimated; without a launch, the
// maximum of its __launch_bounds__ (estimated); unknown (absent, never 0)
// when neither is known. Unit: threads; range [1, 1024].
//
// Diagnostics at the block expression of a launch site:
//   - an error when the block has more threads (or a larger dimension)
//     than the device allows — the launch fails with
//     cudaErrorInvalidConfiguration;
//   - a warning when the block size is not a multiple of the warp size
//     (32): the last warp of every block runs with idle lanes.
//
// Bad (the fourth warp of each block has 28 idle lanes):
//
//	scale<<<(n + 99) / 100, 100>>>(x, n);
//
// Good:
//
//	scale<<<(n + 127) / 128, 128>>>(x, n);
package blocksize
