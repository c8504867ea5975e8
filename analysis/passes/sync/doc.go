// Package sync defines the sync analyzer, which counts the block-level
// barriers each kernel executes.
//
// # Analyzer sync
//
// block barriers: __syncthreads and friends, weighted by loops
//
// Barriers are __syncthreads, __syncthreads_count, __syncthreads_and,
// __syncthreads_or, __barrier_sync, and cooperative-groups sync calls
// (block.sync(), cg::sync(block), grid.sync(); this_grid().sync() is a
// grid-wide barrier). Each makes every warp of the block wait for the
// slowest one.
//
// Feature, per kernel (device functions it calls included): sync, the
// number of barriers, each weighted by the trip counts of the loops around
// it (package tripcount). Unit: barriers; range [0, +inf).
//
// Diagnostic (a note): a barrier in a kernel that touches no shared
// memory, uses no atomics and no memory fences orders nothing another
// thread of the block can observe and only costs time; remove it. The
// note is given only when that is proven: not when an access's memory is
// unknown (a pointer from a helper such as SharedMemory<T>()), nor when
// global memory is written and then accessed across the barrier (after
// it, around a loop, or in a called function).
//
// Bad (the barrier protects nothing):
//
//	out[i] = in[i] * 2.0f;
//	__syncthreads();
//
// Good (the barrier separates writes and reads of a shared tile):
//
//	tile[threadIdx.x] = in[i];
//	__syncthreads();
//	out[i] = tile[blockDim.x - 1 - threadIdx.x];
package sync
