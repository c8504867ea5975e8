// Package syncdivergence defines the syncdivergence analyzer, which finds
// block barriers that not every thread of the block reaches.
//
// # Analyzer syncdivergence
//
// __syncthreads() under thread-dependent control flow
//
// __syncthreads() (and the other block barriers, see the sync analyzer)
// must be reached by every thread of the block, or by none; the CUDA
// programming guide makes a barrier in conditional code undefined unless
// the condition is the same across the whole block. The analyzer reports an
// error at every barrier that is inside an if, switch, loop body, ?: or
// short-circuit operand whose condition depends on the thread (package
// taint) — including warp-uniform conditions such as threadIdx.x < 32,
// which still split the block. It also reports a barrier in a loop that
// some threads leave early: a break taken on a thread-dependent condition
// anywhere in the loop (those threads miss every later iteration's
// barriers), or such a continue before the barrier. A kernel can hang or
// compute garbage. Threads that left the kernel through an earlier return
// are not considered. A tile barrier (cg::sync(tile32), __syncwarp) waits only for
// its tile, so a condition that differs only between warps, or that splits
// the threads at a multiple of the tile's size (idx < 16 with tiles of 16),
// is not reported for it.
//
// Feature, per kernel: sync_divergent, the number of such barriers in the
// kernel and the device functions it calls. Unit: barriers; range
// [0, +inf); anything above 0 is a bug.
//
// Bad (half of the block never arrives):
//
//	if (threadIdx.x < blockDim.x / 2) {
//	  tile[threadIdx.x] = in[i];
//	  __syncthreads();
//	}
//
// Good (every thread reaches the barrier; only the work is conditional):
//
//	if (threadIdx.x < blockDim.x / 2) tile[threadIdx.x] = in[i];
//	__syncthreads();
package syncdivergence
