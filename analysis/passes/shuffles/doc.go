// Package shuffles defines the shuffles analyzer, which counts warp
// shuffles and warp-level reductions and checks how shuffles are called.
//
// # Analyzer shuffles
//
// warp shuffles and warp-level reductions
//
// Warp shuffles (__shfl_sync, __shfl_up_sync, __shfl_down_sync,
// __shfl_xor_sync) exchange registers between the lanes of a warp without
// shared memory. A warp-level reduction is a loop that folds a value with
// shuffles at halving offsets (for (o = 16; o > 0; o >>= 1)
// v += __shfl_down_sync(mask, v, o)), a __reduce_*_sync intrinsic
// (sm_80+) or a cooperative-groups reduce.
//
// Features, per kernel (device functions it calls included):
//
//   - warp_shuffles: shuffle calls per thread, each weighted by the trip
//     counts of the loops around it. Unit: shuffles; range [0, +inf).
//   - warp_reductions: warp-level reductions (idioms, not weighted by
//     their own loop). Unit: reductions; range [0, +inf).
//
// Diagnostics:
//   - an error for the pre-CUDA 9 intrinsics without a mask (__shfl,
//     __shfl_down, __any, __ballot, …), which do not exist for sm_70 and
//     later; use the _sync form with an explicit mask;
//   - a warning for a shuffle with the full mask 0xffffffff under a
//     condition that differs between lanes: lanes named in the mask must
//     all execute it, or the result is undefined; use __activemask() or
//     move the shuffle out of the branch.
//
// Bad (shared memory and a barrier per step for the last 32 values):
//
//	for (int s = 16; s > 0; s >>= 1) { if (tid < s) sm[tid] += sm[tid + s]; __syncwarp(); }
//
// Good:
//
//	for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
package shuffles
