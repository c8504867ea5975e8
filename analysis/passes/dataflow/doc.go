// Package dataflow defines the dataflow analyzer, which finds the memory
// accesses of every device function and the thread dependence of its
// values, for the passes that measure memory behaviour and divergence.
//
// # Analyzer dataflow
//
// memory accesses and thread dependence of device code
//
// For each kernel and device function the analyzer lists the memory
// accesses — a[i], a[i][j], *p, *(p + i), p->f, __ldg(&a[i]) — with the
// variable they go through, its memory space (global for pointer
// parameters and __device__ variables, shared for __shared__, constant for
// __constant__, local for per-thread arrays), the element type and size,
// whether the access reads, writes or both, the element index as an affine
// form (multi-dimensional arrays flattened with their declared
// dimensions; pointers such as float* row = A + r*K followed to their base),
// and the loop weight around it (package tripcount). Accesses made through
// reinterpret_cast<float4*>(p)[i] or a float4* copy of p count as float4
// accesses of p.
//
// It also runs the taint analysis (package taint) on every function,
// kernels with uniform parameters, and gives each kernel the device
// functions it calls, with the loop weight of the call site, so counts can
// include the callees' work.
//
// It reports no features and no diagnostics of its own.
package dataflow
