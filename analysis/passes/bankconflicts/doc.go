// Package bankconflicts defines the bankconflicts analyzer, which computes
// the shared-memory bank-conflict degree of each shared access.
//
// # Analyzer bankconflicts
//
// shared-memory bank conflicts: distinct words per bank in one warp request
//
// Shared memory has 32 banks of 4-byte words; word w lives in bank w mod 32.
// A warp request is served in one pass when no two lanes need different
// words of the same bank; otherwise it is replayed once per extra word. For
// every __shared__ access the flattened index (tile[r][c] of tile[R][C] is
// r·C + c) is an affine form; its coefficient of threadIdx.x is the lane
// stride a in elements (the index is evaluated per lane, so t % 16 and
// t / 16 decompositions are exact). With element size s the lanes touch words
// ⌊l·a·s / 4⌋ … and the degree is the largest number of distinct words any
// bank receives (8-byte elements are served per half warp, 16-byte per
// quarter warp, as the hardware does). For 4-byte elements this is
// gcd(a, 32): tile[threadIdx.x][k] of float tile[32][32] is 32-way,
// of tile[32][33] conflict-free. A uniform index is a broadcast (degree 1).
// Indices not affine in threadIdx.x are skipped. A warp is 32 consecutive
// threadIdx.x values, or several rows of the block when every launch of the
// kernel in the file has the same constant block.x below 32 (16×16 blocks
// put two rows in a warp).
//
// Interleaved addressing — index = 2 * s * tid in a loop where s doubles
// (the first tree reduction of every CUDA course) — is measured at each
// value of s (its trip count when constant, else the first 8): 2-, 4-, …,
// 32-way; the access counts with the mean and the diagnostic names the
// worst.
//
// Feature, per kernel: bank_conflicts, the loop-weighted mean degree over
// shared accesses with a known index. Unit: ways; range [1, 32]; 1 means
// conflict-free (also for kernels without shared accesses).
//
// A diagnostic is reported at every access with degree ≥ 2.
//
// Bad (a column read of a 32×32 tile: all lanes in bank 0):
//
//	__shared__ float tile[32][32];
//	out[i] = tile[threadIdx.x][threadIdx.y];
//
// Good (one padding column spreads a column across all banks):
//
//	__shared__ float tile[32][33];
//	out[i] = tile[threadIdx.x][threadIdx.y];
package bankconflicts
