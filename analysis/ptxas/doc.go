// Package ptxas reads the resource report that ptxas prints with
// `nvcc -Xptxas -v` (or `--resource-usage`): registers, shared, constant and
// local memory, stack frame, spill stores and loads, and barriers per kernel.
//
// Both the CUDA 12/13 layout
//
//	ptxas info    : Compiling entry function '_Z2k2Pf' for 'sm_90'
//	ptxas info    : Function properties for _Z2k2Pf
//	    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//	ptxas info    : Used 10 registers, used 1 barriers, 32768 bytes smem
//
// and the older one ("Used 10 registers, 32768+0 bytes smem, 352 bytes
// cmem[0]") are understood. Functions are keyed by their mangled name; Report
// also finds a kernel by its source name (the base name of a simple Itanium
// mangled name, or an extern "C" name).
package ptxas
