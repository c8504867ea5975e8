package device

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// ErrNoGPU means NVML or a GPU is not available. Its text is the one
// "no GPU" message of the project: the CLI, the benchmarker plugin and the
// tests all match it.
var ErrNoGPU = errors.New("no CUDA device found")

// Info describes one GPU at one moment.
type Info struct {
	Index          int      `json:"index"`
	Name           string   `json:"name"`
	UUID           string   `json:"uuid,omitempty"`
	CC             CC       `json:"cc"` // compute capability, "9.0"
	SMs            int      `json:"sm_count,omitempty"`
	Driver         string   `json:"driver,omitempty"`
	SMClockMHz     int      `json:"sm_clock_mhz"`
	MaxSMClockMHz  int      `json:"max_sm_clock_mhz"`
	MemClockMHz    int      `json:"mem_clock_mhz"`
	MaxMemClockMHz int      `json:"max_mem_clock_mhz"`
	MemBusWidth    int      `json:"mem_bus_width_bits,omitempty"`
	TemperatureC   int      `json:"temperature_c"`
	PowerW         float64  `json:"power_w"`
	Reasons        []string `json:"clock_event_reasons,omitempty"`
}

// Arch is the nvcc architecture of the device, "sm_90".
func (i *Info) Arch() string { return i.CC.Arch() }

// PeakBandwidth is the device memory bandwidth in bytes per second: the
// datasheet figure of the limits table (FromInfo: the compute capability's
// entry, adjusted for the named part, e.g. the H200's HBM3e), else 2
// transfers per memory clock over the bus width.
func (i *Info) PeakBandwidth() float64 {
	if d, err := FromInfo(i); err == nil && d.DRAMBandwidth > 0 {
		return d.DRAMBandwidth
	}
	return 2 * float64(i.MaxMemClockMHz) * 1e6 * float64(i.MemBusWidth) / 8
}

// Clock-event reasons, as NVML numbers them.
var reasonNames = map[uint64]string{
	1:    "gpu_idle",
	2:    "applications_clocks_setting",
	4:    "sw_power_cap",
	8:    "hw_slowdown",
	16:   "sync_boost",
	32:   "sw_thermal_slowdown",
	64:   "hw_thermal_slowdown",
	128:  "hw_power_brake_slowdown",
	256:  "display_clock_setting",
	512:  "board_limit",
	1024: "reliability",
}

// benign reasons do not slow a running kernel: an idle GPU between calls,
// clocks an administrator set, sync boost and the display clock.
var benign = map[string]bool{"gpu_idle": true, "applications_clocks_setting": true, "sync_boost": true, "display_clock_setting": true}

func reasons(mask uint64) []string {
	var out []string
	for bit, name := range reasonNames {
		if mask&bit != 0 {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Throttling returns the reasons in rs that slow kernels down.
func Throttling(rs []string) []string {
	var out []string
	for _, r := range rs {
		if !benign[r] {
			out = append(out, r)
		}
	}
	return out
}

// Summary is what a Sampler saw during a measurement.
type Summary struct {
	Samples       int      `json:"samples"`
	MinSMClockMHz int      `json:"min_sm_clock_mhz"`
	MaxSMClockMHz int      `json:"max_sm_clock_mhz"`
	MaxTempC      int      `json:"max_temperature_c"`
	MaxPowerW     float64  `json:"max_power_w"`
	Throttled     []string `json:"throttle_reasons,omitempty"` // reasons that slow kernels, seen at least once
}

func (s *Summary) add(i *Info) {
	if s.Samples == 0 || i.SMClockMHz < s.MinSMClockMHz {
		s.MinSMClockMHz = i.SMClockMHz
	}
	s.MaxSMClockMHz = max(s.MaxSMClockMHz, i.SMClockMHz)
	s.MaxTempC = max(s.MaxTempC, i.TemperatureC)
	s.MaxPowerW = max(s.MaxPowerW, i.PowerW)
	for _, r := range Throttling(i.Reasons) {
		if !contains(s.Throttled, r) {
			s.Throttled = append(s.Throttled, r)
		}
	}
	s.Samples++
}

func contains(s []string, x string) bool { return slices.Contains(s, x) }

// DeviceNodesPresent reports whether the NVIDIA driver's device nodes
// (/dev/nvidia0, ...) exist: some sandboxes expose a GPU to CUDA but not to
// NVML, and a benchmark can still run there without device information.
func DeviceNodesPresent() bool {
	m, _ := filepath.Glob("/dev/nvidia[0-9]*")
	return len(m) > 0
}

// Detect returns the limits of GPU index i (as NVML numbers them): the
// per-SM values from the table of its compute capability, with the name,
// multiprocessor count and memory bus width read from NVML. go-nvml loads
// libnvidia-ml.so.1 at run time, so a binary that calls Detect still runs
// where there is no driver: Detect then returns an error wrapping ErrNoGPU.
func Detect(i int) (*Device, error) {
	g, err := Open()
	if err != nil {
		return nil, fmt.Errorf("device: %w; pick the target with an architecture such as %s instead", err, DefaultArch)
	}
	defer g.Close()
	if n := g.Count(); i < 0 || i >= n {
		return nil, fmt.Errorf("device: GPU index %d out of range: this machine has %d GPU(s), numbered from 0", i, n)
	}
	info, err := g.Info(i)
	if err != nil {
		return nil, err
	}
	return FromInfo(info)
}

// FromInfo maps what NVML says about a GPU to its limits: the table's
// per-SM values for its compute capability, with NVML's name,
// multiprocessor count and memory bus width.
func FromInfo(info *Info) (*Device, error) {
	d, err := ForCC(info.CC)
	if err != nil {
		return nil, fmt.Errorf("device: GPU %d (%s): %w", info.Index, info.Name, err)
	}
	d.Name = info.Name
	WithName(d, info.Name)
	if strings.Contains(info.Name, "H200") {
		h := H200()
		d.SMs, d.L2Bytes = h.SMs, h.L2Bytes
	}
	if info.SMs > 0 {
		d.SMs = info.SMs
	}
	if info.MemBusWidth > 0 {
		d.MemoryBusWidthBits = info.MemBusWidth
	}
	d.Source = "nvml"
	return d, nil
}

// coresPerSM is the FP32 core count per multiprocessor (Programming Guide,
// arithmetic instructions table): NVML has no multiprocessor count, so the
// core count divided by this gives it.
func coresPerSM(cc CC) int {
	if cc.Major == 7 || cc == (CC{8, 0}) {
		return 64
	}
	return 128
}
