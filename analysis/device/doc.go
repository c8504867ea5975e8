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
//
// The package is also the project's one place for GPU facts: the compute
// capability type (CC, written "9.0"), the default architecture
// (DefaultArch), and the one NVML wrapper (Open, NVML.Info, NVML.Sample),
// which the benchmarker uses to record the device, its clocks and
// throttling. Without a driver or a GPU, Open and Detect fail with ErrNoGPU
// ("no CUDA device found"); a binary built without cgo does the same. The
// package imports nothing of bench, so the analyses stay below it.
package device
