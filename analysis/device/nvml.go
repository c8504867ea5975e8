package device

import (
	"errors"
	"fmt"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// ErrNoGPU is returned by Detect when NVML or a GPU is not there.
var ErrNoGPU = errors.New("no NVIDIA GPU found")

// gpuInfo is what Detect reads through NVML. It is an interface so that
// the mapping to a Device is tested without a GPU.
type gpuInfo interface {
	init() error
	shutdown()
	count() (int, error)
	name(i int) (string, error)
	computeCapability(i int) (major, minor int, err error)
	cores(i int) (int, error)
	busWidth(i int) (int, error)
}

// Detect returns the limits of GPU index i (as NVML numbers them): the
// per-SM values from the table of its compute capability, with the name,
// multiprocessor count and memory bus width read from NVML. It needs the
// NVIDIA driver's libnvidia-ml.so.1, which go-nvml loads at run time, so a
// binary that calls Detect still runs where there is no driver: Detect then
// returns an error wrapping ErrNoGPU.
func Detect(i int) (*Device, error) { return detect(realNVML{}, i) }

func detect(g gpuInfo, i int) (*Device, error) {
	if err := g.init(); err != nil {
		return nil, fmt.Errorf("device: NVML: %w (%w); pick the target with an architecture such as sm_90 instead", err, ErrNoGPU)
	}
	defer g.shutdown()
	n, err := g.count()
	if err != nil {
		return nil, fmt.Errorf("device: NVML device count: %w", err)
	}
	if n == 0 {
		return nil, fmt.Errorf("device: NVML sees no GPU: %w", ErrNoGPU)
	}
	if i < 0 || i >= n {
		return nil, fmt.Errorf("device: GPU index %d out of range: this machine has %d GPU(s), numbered from 0", i, n)
	}
	major, minor, err := g.computeCapability(i)
	if err != nil {
		return nil, fmt.Errorf("device: NVML compute capability of GPU %d: %w", i, err)
	}
	d, err := ForCC(major, minor)
	if err != nil {
		return nil, fmt.Errorf("device: GPU %d: %w", i, err)
	}
	name, err := g.name(i)
	if err != nil {
		return nil, fmt.Errorf("device: NVML name of GPU %d: %w", i, err)
	}
	d.Name = name
	WithName(d, name)
	if strings.Contains(name, "H200") {
		d.SMs, d.L2Bytes = H200().SMs, H200().L2Bytes
	}
	// NVML has no multiprocessor count for a whole GPU; the CUDA core
	// count divided by the cores per SM of the architecture gives it.
	if c, err := g.cores(i); err == nil && c > 0 {
		d.SMs = c / coresPerSM(major, minor)
	}
	if w, err := g.busWidth(i); err == nil && w > 0 {
		d.MemoryBusWidthBits = w
	}
	d.Source = "nvml"
	return d, nil
}

// coresPerSM is the FP32 core count per multiprocessor (Programming Guide,
// arithmetic instructions table).
func coresPerSM(major, minor int) int {
	if major == 7 || (major == 8 && minor == 0) {
		return 64
	}
	return 128
}

type realNVML struct{}

func nvmlErr(r nvml.Return) error {
	if r == nvml.SUCCESS {
		return nil
	}
	return errors.New(nvml.ErrorString(r))
}

func (realNVML) init() error {
	r := nvml.Init()
	if r == nvml.ERROR_LIBRARY_NOT_FOUND {
		return errors.New("libnvidia-ml.so.1 not found (no NVIDIA driver)")
	}
	return nvmlErr(r)
}
func (realNVML) shutdown() { nvml.Shutdown() }
func (realNVML) count() (int, error) {
	n, r := nvml.DeviceGetCount()
	return n, nvmlErr(r)
}
func (realNVML) handle(i int) (nvml.Device, error) {
	h, r := nvml.DeviceGetHandleByIndex(i)
	return h, nvmlErr(r)
}
func (g realNVML) name(i int) (string, error) {
	h, err := g.handle(i)
	if err != nil {
		return "", err
	}
	s, r := nvml.DeviceGetName(h)
	return s, nvmlErr(r)
}
func (g realNVML) computeCapability(i int) (int, int, error) {
	h, err := g.handle(i)
	if err != nil {
		return 0, 0, err
	}
	a, b, r := nvml.DeviceGetCudaComputeCapability(h)
	return a, b, nvmlErr(r)
}
func (g realNVML) cores(i int) (int, error) {
	h, err := g.handle(i)
	if err != nil {
		return 0, err
	}
	c, r := nvml.DeviceGetNumGpuCores(h)
	return c, nvmlErr(r)
}
func (g realNVML) busWidth(i int) (int, error) {
	h, err := g.handle(i)
	if err != nil {
		return 0, err
	}
	w, r := nvml.DeviceGetMemoryBusWidth(h)
	return int(w), nvmlErr(r)
}
