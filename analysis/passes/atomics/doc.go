// Package atomics defines the atomics analyzer, which counts atomic
// operations and finds the ones every thread aims at one address.
//
// # Analyzer atomics
//
// atomic operations per thread, and contended atomics
//
// Atomic operations are the atomic* intrinsics (atomicAdd, atomicSub,
// atomicExch, atomicMin, atomicMax, atomicInc, atomicDec, atomicCAS,
// atomicAnd, atomicOr, atomicXor and their _block and _system variants) and
// cuda::atomic_ref / cuda::std::atomic member operations (fetch_add, …).
//
// Feature, per kernel (device functions it calls included): atomics, the
// number of atomic operations per thread, each weighted by the trip counts
// of the loops around it (package tripcount). Unit: ops; range [0, +inf).
//
// Diagnostic: an atomic on global memory whose address is the same for all
// threads (its index does not depend on threadIdx — atomicAdd(&sum[0], v),
// atomicAdd(counter, 1)) serialises every thread of the grid on one memory
// location. Reduce within the warp (__shfl_down_sync or __reduce_add_sync)
// and the block (shared memory) first, and issue one atomic per block.
// Atomics in shared memory and on per-thread addresses are not reported
// (through a device function's pointer parameter, what the caller passed
// decides), nor ones that a thread-dependent condition elects a few lanes
// for, here or around the call of the device function that issues them
// (lane == 0, !(threadIdx.x & 31), lane < 4: a comparison of the thread's
// index with a constant of at most 16, a switch on the thread); a bounds
// guard (i < n), a grid-stride loop or a test of data (in[i] < 0) elects
// nobody. Threads that returned early
// (if (threadIdx.x != 0) return;) are not considered: such an atomic is
// still reported.
//
// Bad (n threads contend for one address):
//
//	atomicAdd(&out[0], in[i]);
//
// Good (one atomic per warp after a shuffle reduction):
//
//	float v = in[i];
//	for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
//	if ((threadIdx.x & 31) == 0) atomicAdd(&out[0], v);
package atomics
