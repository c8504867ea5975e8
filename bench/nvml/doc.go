// Package nvml records the GPU a measurement ran on, through NVIDIA's NVML
// (github.com/NVIDIA/go-nvml): name, UUID, compute capability, clocks,
// temperature, power, memory bus width and clock-event ("throttle")
// reasons, and it samples them while a benchmark runs so that a measurement
// taken under thermal or power slowdown carries a warning.
//
// NVML is loaded at run time (dlopen of libnvidia-ml.so.1). On a machine
// without the driver, Open returns ErrNoDevice and callers go on without
// device information; a binary built without cgo reports the same.
package nvml
