// Package gridsize defines the gridsize analyzer, which checks that a
// launch's grid can fill the device.
//
// # Analyzer gridsize
//
// grids smaller than the number of SMs, and invalid grids
//
// A block runs on one streaming multiprocessor (SM), so a grid of fewer
// blocks than the device has SMs leaves SMs idle however fast each block
// is. Grid dimensions come from package launchcfg; the SM count from the
// target device (pass.Device, NVML or the compute-capability table; 132
// on an H200).
//
// Feature, per kernel: grid_fill, the fraction of SMs a launch can occupy,
// min(1, blocks / SMs), of the kernel's largest launch. A grid computed
// from the problem size grows with it and counts as 1 (the value is then
// estimated), so the one-block last step of a reduction no longer decides
// the value of a kernel whose main launch is sized by n. Unit: fraction;
// range (0, 1].
//
// Diagnostics at the grid expression of a launch site: a warning when a
// constant grid has fewer blocks than the device has SMs and the kernel
// (defined in the file) strides over its input by the grid (it reads
// gridDim), so more blocks would share the same work; an error when a grid
// dimension is outside CUDA's limits (x up to 2³¹−1, y and z up to 65535).
// A kernel without a grid-stride loop does one piece of work per block,
// so its grid is the problem's size and a small one is no finding. A grid
// the launch site cannot see (a dim3 parameter, one assigned later) is
// unknown, never 1, and <<<1, 1>>> is serial on purpose.
//
// Bad (4 blocks on 132 SMs):
//
//	reduce<<<4, 1024>>>(x, n);
//
// Good (enough blocks, each doing a grid-stride share):
//
//	reduce<<<2 * numSMs, 256>>>(x, n);
package gridsize
