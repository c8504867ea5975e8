// Package divergence defines the divergence analyzer, which counts the
// branches whose condition differs between the lanes of a warp.
//
// # Analyzer divergence
//
// warp divergence: branches on thread-dependent conditions
//
// A branch (if, switch) diverges when lanes of one warp can evaluate its
// condition differently: the warp then runs both paths one after the other.
// The condition's thread dependence comes from the taint analysis (package
// taint): values derived from threadIdx, per-thread loads, shuffles,
// atomics. Warp-uniform conditions — threadIdx.x / 32 == k, warp ids
// computed as tid >> 5 or tid / warpSize, tid < 64 — do not diverge and
// are not counted; nor are conditions on blockIdx, blockDim, gridDim and
// parameters, nor those on threadIdx.y or threadIdx.z when every launch of
// the kernel in the file has a constant block.x that is a multiple of 32
// (each warp then lies in one row of the block). A device function's
// parameters take the thread dependence of the arguments it is called
// with. Conditional expressions (?:) compile to selects and are not
// branches here.
//
// Feature, per kernel (device functions it calls included): div, the
// number of divergent branches, each weighted by the trip counts of the
// loops around it (package tripcount). Unit: branches; range [0, +inf).
//
// Diagnostics come from the values the thread-dependent side of a
// comparison takes in the lanes of a warp (thread-dependent quotients and
// remainders included, see affine.Form.WarpFrom): a warning when lanes
// alternate inside every warp (tid % 2, (tid & 3) == 1), which remapping
// work to whole warps avoids; a note when every warp splits into two
// contiguous groups (lane < 16, lane >= offset in a scan) or the condition
// depends on per-thread data. Not reported: bounds guards (an index that
// grows across warps compared with a uniform bound, i < n: only the warp at
// the edge splits) and elections (at most one lane per warp, lane == 0).
//
// Bad (even and odd lanes take different paths in every warp):
//
//	if (threadIdx.x % 2 == 0) a[i] = f(a[i]); else a[i] = g(a[i]);
//
// Good (whole warps take one path):
//
//	if ((threadIdx.x / 32) % 2 == 0) a[i] = f(a[i]); else a[i] = g(a[i]);
package divergence
