// Package device describes the limits of a target GPU that the analyses
// need: registers, shared memory, warps and blocks per multiprocessor, the
// number of multiprocessors and the allocation granularities of NVIDIA's
// occupancy calculator.
//
// Limits come from a table per compute capability (NVIDIA's CUDA C++
// Programming Guide, "Technical Specifications per Compute Capability", and
// the architecture constants of cuda_occupancy.h), or, when a GPU and its
// driver are present, from NVML (Detect). The default target is the H200
// (sm_90, 132 SMs) that the project measures on.
//
// Every table entry names a representative part for the multiprocessor count
// (for example sm_80 is an A100 SXM with 108 SMs); per-SM limits are the same
// for every part of a compute capability.
package device
