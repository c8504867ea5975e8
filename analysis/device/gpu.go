package nvml

import (
	"errors"
	"path/filepath"
	"sort"
	"strings"
)

// ErrNoDevice means NVML or a GPU is not available.
var ErrNoDevice = errors.New("no CUDA device found")

// Info describes one GPU at one moment.
type Info struct {
	Index          int      `json:"index"`
	Name           string   `json:"name"`
	UUID           string   `json:"uuid,omitempty"`
	CC             string   `json:"cc"` // compute capability, "9.0"
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
func (i *Info) Arch() string { return "sm_" + strings.ReplaceAll(i.CC, ".", "") }

// PeakBandwidth is the device memory bandwidth in bytes per second: the
// datasheet figure for parts we know (NVML's clock and bus width understate
// HBM3e), else 2 transfers per memory clock over the bus width.
func (i *Info) PeakBandwidth() float64 {
	for part, bw := range datasheetBandwidth {
		if strings.Contains(i.Name, part) {
			return bw
		}
	}
	return 2 * float64(i.MaxMemClockMHz) * 1e6 * float64(i.MemBusWidth) / 8
}

// datasheetBandwidth is NVIDIA's published peak memory bandwidth (bytes/s).
var datasheetBandwidth = map[string]float64{
	"H200": 4.8e12,
	"H100": 3.35e12,
	"A100": 2.039e12,
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

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// DeviceNodesPresent reports whether the NVIDIA driver's device nodes
// (/dev/nvidia0, ...) exist: some sandboxes expose a GPU to CUDA but not to
// NVML, and a benchmark can still run there without device information.
func DeviceNodesPresent() bool {
	m, _ := filepath.Glob("/dev/nvidia[0-9]*")
	return len(m) > 0
}
