// Package spills defines the spills analyzer, which reports register spills
// and local memory from the ptxas resource report.
//
// # Analyzer spills
//
// register spills and local memory (from ptxas -v)
//
// When nvcc is available the driver compiles the file with -Xptxas -v and
// hands the report to the passes (pass.Ptxas). ptxas prints, per kernel and
// architecture, the stack frame and the bytes of spill stores and spill
// loads: registers the allocator could not keep, moved to local memory
// (per-thread, cached in L1/L2 but as slow as global memory on a miss).
// A stack frame without spills is a per-thread array the compiler could
// not put in registers, usually because it is indexed with runtime values.
//
// Features, per kernel, only when a report is available and names the
// kernel (for the target architecture, else the last one reported):
//
//   - spill_bytes: spill stores + spill loads per thread. Unit: bytes;
//     range [0, +inf).
//   - local_bytes: local memory per thread (stack frame, or lmem in older
//     reports). Unit: bytes; range [0, +inf).
//
// Diagnostics at the kernel's name: a warning for spills, a note for
// local memory without spills.
//
// Bad (48 live floats under a 24-register limit spill):
//
//	__global__ void k(float* out, const float* in) {  // nvcc -maxrregcount=24
//	  float r[48];
//	  for (int i = 0; i < 48; i++) r[i] = in[i * 1024 + threadIdx.x];
//	  …
//
// Good: fewer values live at once (smaller tiles, less unrolling), or a
// higher register limit (__launch_bounds__ with fewer threads per block,
// no -maxrregcount).
package spills
