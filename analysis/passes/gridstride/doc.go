// Package gridstride defines the gridstride analyzer, which counts
// grid-stride loops.
//
// # Analyzer gridstride
//
// grid-stride loops
//
// A grid-stride loop steps its index by the number of threads in the grid,
// for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
// i += blockDim.x * gridDim.x), so any grid size covers any n: the launch
// can be sized to the device (a few blocks per SM) instead of to the data,
// amortising block start-up and keeping accesses coalesced. Loops are
// classified by package tripcount: the step must contain gridDim.
//
// Feature, per kernel (device functions it calls included): grid_stride,
// the number of grid-stride loops. Unit: loops; range [0, +inf).
//
// Diagnostic (a note): a grid-stride loop whose start depends on the thread
// but not on blockIdx, so that every block processes the same elements. A
// constant block size in the step (i += gridDim.x * 256) or an offset start
// is fine.
//
// Bad (every block starts at the same element):
//
//	for (int i = threadIdx.x; i < n; i += blockDim.x * gridDim.x)
//
// Good:
//
//	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
package gridstride
