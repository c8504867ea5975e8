// Package taint computes the thread dependence of values and branch
// conditions in a CUDA function.
//
// Every value gets a Level: Uniform (the same in every thread of a block),
// WarpUniform (the same in the 32 lanes of each warp, e.g. threadIdx.x/32)
// or Varying (differs between lanes, e.g. threadIdx.x % 2). Sources of
// variation are threadIdx.*, shuffles that read another lane
// (__shfl_xor_sync, __shfl_down_sync, __shfl_up_sync, and __shfl_sync with a
// lane-dependent source), atomics (each thread gets another old value),
// clock reads and inline PTX that reads %laneid or %tid. blockIdx, blockDim,
// gridDim, literals and kernel parameters are Uniform; votes
// (__ballot_sync, __any_sync, __all_sync) and warp reductions
// (__reduce_add_sync, …) are WarpUniform.
//
// Levels flow through assignments (explicitly, from the right-hand side,
// and implicitly, from the conditions that control the assignment) to a
// fixed point. Loads take the level of their address: a[0] is Uniform even
// if other elements differ.
//
// Warp-uniform values are recognised with the affine algebra: for an index
// e = a·threadIdx.x + r whose remainder r is a multiple of 32·a (terms
// carrying blockDim.x count as multiples of 32, i.e. block sizes are assumed
// to be whole warps), e / c and e >> k are WarpUniform when 32·a divides c
// (resp. 2^k), e & m when m clears the low five bits, and e < c, e >= c,
// e <= c−1, e > c−1 when c is a multiple of 32·a. So tid/32 == k and
// tid < 32 are warp-uniform, tid % 2 == 0 and tid == 0 are not.
// threadIdx.y and threadIdx.z count as Varying, because blocks narrower than
// a warp put several rows in one warp.
package taint
