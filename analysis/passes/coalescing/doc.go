// Package coalescing defines the coalescing analyzer, which measures how
// well the global memory accesses of each kernel coalesce.
//
// # Analyzer coalescing
//
// global memory coalescing: 32-byte sectors per warp request versus the ideal
//
// For every global load and store the index is turned into an affine form
// (package affine) and evaluated for the 32 lanes of a warp: threadIdx.x is
// the lane, threadIdx.y and threadIdx.z are fixed (rows of a block are
// assumed to be whole warps, blockDim.x ≥ 32 — unless every launch of the
// kernel in the file has the same constant block.x below 32, and then the
// lanes wrap into threadIdx.y as the hardware does), thread-dependent quotients
// and remainders such as t / 16 and t % 16 are computed per lane, and every
// other symbol (parameters, blockIdx, loop counters) gets a large value, as
// problem sizes have: A[row * K + k] with row on threadIdx.x puts lanes K
// elements apart. With element size s the lanes touch the sectors (32-byte
// segments) covering their s bytes; the ideal is the stride-1 request,
// ceil(32·s / 32) sectors (4 for float, 8 for double, 16 for float4). A
// broadcast (all lanes on one element, or fewer sectors than the ideal, as
// the two rows of a 16-wide block reading one element each) is one or two
// transactions, neither coalesced nor wasteful: it is left out of the mean.
// An index that is not affine (a[b[i]], a[f(i)]) is unknown: it is not
// counted as good or bad, but reported in coal_unknown. A quotient of a
// uniform value (k / 2 for a run-time k) is one unknown value for the whole
// grid, so x[i - k/2] is still affine in the thread.
//
// Features, per kernel (accesses in the device functions it calls
// included), each access weighted by its loop weight:
//
//   - coal: mean of ideal / sectors over the accesses with a known index.
//     Unit: fraction; range (0, 1]; 1 is perfectly coalesced, 0.125 is
//     float accessed with stride ≥ 8. A kernel without global accesses (or
//     with broadcasts only) has coal 1; one whose accesses are all unknown
//     has coal unknown: absent from the vector and flagged, never 0.
//   - coal_load and coal_store: coal over the loads and over the stores
//     (read-modify-writes included) alone. A strided store costs more than
//     a strided load on the H200 (a transpose with strided writes runs
//     about 3x slower than one with strided reads), so a model needs them
//     apart. Unit: fraction; range (0, 1]; unknown as coal is.
//   - coal_unknown: the weighted fraction of global accesses whose index is
//     unknown. Unit: fraction; range [0, 1].
//
// Accesses that a warp issues one after the other on neighbouring data —
// same variable and direction in the same loop, indices differing by a
// constant (acc[3*i], acc[3*i+1], acc[3*i+2]; in[i-1], in[i], in[i+1]) —
// are also measured as a group: the ideal sectors of the group over the
// sectors their union touches. An access counts with the better of its own
// and its group's efficiency, since the sectors a group shares are fetched
// from DRAM once.
//
// A diagnostic is reported at every global access that needs at least twice
// the ideal sectors, saying the stride and the sector count — a warning, or
// a note (once per group) when the group as a whole wastes less than half of
// its sectors (then the fix is a vector access, not a new layout). Alone,
// stride-k float access costs min(k, 8) times the ideal.
//
// Bad (neighbouring threads read elements n apart, 32 sectors per request):
//
//	int row = blockIdx.x * blockDim.x + threadIdx.x;
//	for (int k = 0; k < n; k++) sum += A[row * n + k];
//
// Good (neighbouring threads read neighbouring elements, 4 sectors):
//
//	int col = blockIdx.x * blockDim.x + threadIdx.x;
//	for (int k = 0; k < n; k++) sum += A[k * n + col];
package coalescing
