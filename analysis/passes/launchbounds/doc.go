// Package launchbounds defines the launchbounds analyzer, which reports
// __launch_bounds__ use and launches that break a kernel's bounds.
//
// # Analyzer launchbounds
//
// __launch_bounds__: present, valid, and respected by the launches
//
// __launch_bounds__(maxThreads, minBlocks) tells the compiler the largest
// block a kernel will be launched with, so it can budget registers for
// minBlocks resident blocks per SM instead of assuming 1024 threads.
// Launching the kernel with a larger block than maxThreads fails
// (cudaErrorLaunchOutOfResources / invalid configuration).
//
// Feature, per kernel: launch_bounds, 1 when the kernel declares
// __launch_bounds__ (or __maxnreg__), else 0. Unit: flag; range {0, 1}.
//
// Diagnostics:
//   - an error at a launch whose constant block is larger than the
//     kernel's maxThreads;
//   - an error when maxThreads exceeds the device's threads per block;
//   - a warning when maxThreads is not a multiple of the warp size.
//
// Bad (the launch fails: 512 > 256):
//
//	__global__ void __launch_bounds__(256) k(float* x);
//	k<<<n / 512, 512>>>(x);
//
// Good:
//
//	__global__ void __launch_bounds__(256) k(float* x);
//	k<<<n / 256, 256>>>(x);
package launchbounds
