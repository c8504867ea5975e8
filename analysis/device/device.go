package device

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Device is a target GPU's limits. Field names follow cudaOccDeviceProp and
// the CUDA device attributes so that values can be checked against either.
type Device struct {
	Name string // e.g. "NVIDIA H200"
	CC          // compute capability (d.Major, d.Minor, d.Arch())

	SMs int // multiprocessors

	WarpSize               int
	MaxThreadsPerBlock     int
	MaxThreadsPerSM        int
	MaxBlocksPerSM         int
	RegsPerSM              int
	RegsPerBlock           int
	MaxRegsPerThread       int // largest per-thread register count the allocator accepts
	SharedPerSM            int // bytes of shared memory per SM (the largest carveout)
	SharedPerBlock         int // bytes a block may use without opting in (48 KB)
	SharedPerBlockOptin    int // bytes a block may use with cudaFuncAttributeMaxDynamicSharedMemorySize
	ReservedSharedPerBlock int // bytes the system reserves in every block (1 KB from sm_80)
	L2Bytes                int
	RegAllocUnit           int   // registers per warp are rounded up to this (256)
	SharedAllocUnit        int   // shared memory per block is rounded up to this (128 or 256 bytes)
	SubPartitions          int   // warp schedulers per SM; the register file is split among them
	SharedCarveouts        []int // shared memory sizes per SM the L1/shared split can take, ascending, bytes
	BarriersPerBlockSlot   int   // block barriers per resident-block slot (2 or 1): from sm_90, blocks per SM ≤ MaxBlocksPerSM × this / barriers per block
	VirtualResourcesPerSM  int   // virtual resource units per SM (128 from sm_100; 0 = no such limit)
	MemoryBusWidthBits     int   // 0 when unknown
	// DRAMBandwidth (bytes/s) and FP32Peak (FLOP/s, FMA = 2) are the
	// vendor's datasheet peaks, not measurements: the workload pass turns
	// bytes and FLOPs into lower bounds on time with them.
	DRAMBandwidth float64
	FP32Peak      float64
	Source        string // "table" or "nvml"
}

// MaxWarpsPerSM is the resident-warp limit per multiprocessor.
func (d *Device) MaxWarpsPerSM() int { return d.MaxThreadsPerSM / d.WarpSize }

// Clone returns a copy that may be modified without touching d.
func (d *Device) Clone() *Device {
	c := *d
	c.SharedCarveouts = append([]int(nil), d.SharedCarveouts...)
	return &c
}

// Validate checks that the limits are usable by the occupancy calculator.
func (d *Device) Validate() error {
	checks := []struct {
		name string
		v    int
	}{
		{"warp size", d.WarpSize}, {"max threads per block", d.MaxThreadsPerBlock},
		{"max threads per SM", d.MaxThreadsPerSM}, {"max blocks per SM", d.MaxBlocksPerSM},
		{"registers per SM", d.RegsPerSM}, {"registers per block", d.RegsPerBlock},
		{"register allocation unit", d.RegAllocUnit}, {"shared allocation unit", d.SharedAllocUnit},
		{"sub-partitions", d.SubPartitions}, {"shared memory per SM", d.SharedPerSM},
	}
	for _, c := range checks {
		if c.v <= 0 {
			return fmt.Errorf("device %s: %s is %d, want > 0", d.Arch(), c.name, c.v)
		}
	}
	return nil
}

const kib = 1024

func carveouts(kbs ...int) []int {
	out := make([]int, len(kbs))
	for i, k := range kbs {
		out[i] = k * kib
	}
	return out
}

// table holds one entry per supported compute capability. Per-SM values are
// from the CUDA C++ Programming Guide (technical specifications table) and
// cuda_occupancy.h (allocation units, sub-partitions, block caps, carveouts).
var table = map[int]Device{
	70: {Name: "Tesla V100-SXM2 (sm_70)", CC: CC{7, 0}, SMs: 80, BarriersPerBlockSlot: 2,
		MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32, SharedPerSM: 96 * kib, SharedPerBlockOptin: 96 * kib,
		ReservedSharedPerBlock: 0, SharedAllocUnit: 256, L2Bytes: 6 * kib * kib, MaxRegsPerThread: 255,
		DRAMBandwidth: 9e+11, FP32Peak: 1.57e+13,
		SharedCarveouts: carveouts(0, 8, 16, 32, 64, 96)},
	75: {Name: "Tesla T4 (sm_75)", CC: CC{7, 5}, SMs: 40, BarriersPerBlockSlot: 2,
		MaxThreadsPerSM: 1024, MaxBlocksPerSM: 16, SharedPerSM: 64 * kib, SharedPerBlockOptin: 64 * kib,
		ReservedSharedPerBlock: 0, SharedAllocUnit: 256, L2Bytes: 4 * kib * kib, MaxRegsPerThread: 255,
		DRAMBandwidth: 3.2e+11, FP32Peak: 8.1e+12,
		SharedCarveouts: carveouts(32, 64)},
	80: {Name: "A100-SXM4 (sm_80)", CC: CC{8, 0}, SMs: 108, BarriersPerBlockSlot: 2,
		MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32, SharedPerSM: 164 * kib, SharedPerBlockOptin: 163 * kib,
		ReservedSharedPerBlock: kib, SharedAllocUnit: 128, L2Bytes: 40 * kib * kib, MaxRegsPerThread: 255,
		DRAMBandwidth: 2.039e+12, FP32Peak: 1.95e+13,
		SharedCarveouts: carveouts(0, 8, 16, 32, 64, 100, 132, 164)},
	86: {Name: "A10 (sm_86)", CC: CC{8, 6}, SMs: 72, BarriersPerBlockSlot: 1,
		MaxThreadsPerSM: 1536, MaxBlocksPerSM: 16, SharedPerSM: 100 * kib, SharedPerBlockOptin: 99 * kib,
		ReservedSharedPerBlock: kib, SharedAllocUnit: 128, L2Bytes: 6 * kib * kib, MaxRegsPerThread: 255,
		DRAMBandwidth: 6e+11, FP32Peak: 3.12e+13,
		SharedCarveouts: carveouts(0, 8, 16, 32, 64, 100)},
	89: {Name: "L4 (sm_89)", CC: CC{8, 9}, SMs: 58, BarriersPerBlockSlot: 1,
		MaxThreadsPerSM: 1536, MaxBlocksPerSM: 24, SharedPerSM: 100 * kib, SharedPerBlockOptin: 99 * kib,
		ReservedSharedPerBlock: kib, SharedAllocUnit: 128, L2Bytes: 48 * kib * kib, MaxRegsPerThread: 255,
		DRAMBandwidth: 3e+11, FP32Peak: 3.03e+13,
		SharedCarveouts: carveouts(0, 8, 16, 32, 64, 100)},
	90: {Name: "H100-SXM5 (sm_90)", CC: CC{9, 0}, SMs: 132, BarriersPerBlockSlot: 2,
		MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32, SharedPerSM: 228 * kib, SharedPerBlockOptin: 227 * kib,
		ReservedSharedPerBlock: kib, SharedAllocUnit: 128, L2Bytes: 50 * kib * kib, MaxRegsPerThread: 255,
		DRAMBandwidth: 3.35e+12, FP32Peak: 6.69e+13,
		SharedCarveouts: carveouts(0, 8, 16, 32, 64, 100, 132, 164, 196, 228)},
	100: {Name: "B200 (sm_100)", CC: CC{10, 0}, SMs: 148, BarriersPerBlockSlot: 2, VirtualResourcesPerSM: 128,
		MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32, SharedPerSM: 228 * kib, SharedPerBlockOptin: 227 * kib,
		ReservedSharedPerBlock: kib, SharedAllocUnit: 128, L2Bytes: 126 * kib * kib, MaxRegsPerThread: 255,
		DRAMBandwidth: 8e+12, FP32Peak: 8e+13,
		SharedCarveouts: carveouts(0, 8, 16, 32, 64, 100, 132, 164, 196, 228)},
	120: {Name: "RTX PRO 6000 Blackwell (sm_120)", CC: CC{12, 0}, SMs: 188, BarriersPerBlockSlot: 1, VirtualResourcesPerSM: 128,
		MaxThreadsPerSM: 1536, MaxBlocksPerSM: 24, SharedPerSM: 100 * kib, SharedPerBlockOptin: 99 * kib,
		ReservedSharedPerBlock: kib, SharedAllocUnit: 128, L2Bytes: 128 * kib * kib, MaxRegsPerThread: 255,
		DRAMBandwidth: 1.792e+12, FP32Peak: 1.26e+14,
		SharedCarveouts: carveouts(0, 8, 16, 32, 64, 100)},
}

// The values every supported architecture shares.
func fillCommon(d *Device) {
	d.WarpSize = 32
	d.MaxThreadsPerBlock = 1024
	d.RegsPerSM = 64 * kib
	d.RegsPerBlock = 64 * kib
	d.SharedPerBlock = 48 * kib
	d.RegAllocUnit = 256
	d.SubPartitions = 4
	if d.Source == "" {
		d.Source = "table"
	}
}

// Arches lists the supported architectures, e.g. "sm_70", in ascending order.
func Arches() []string {
	ccs := make([]int, 0, len(table))
	for cc := range table {
		ccs = append(ccs, cc)
	}
	sort.Ints(ccs)
	out := make([]string, len(ccs))
	for i, cc := range ccs {
		out[i] = fmt.Sprintf("sm_%d", cc)
	}
	return out
}

// ParseArch reads an architecture name: "sm_90", "sm90", "90", "9.0",
// "compute_90" or "sm_90a" (suffix letters are feature sets and do not change
// the limits).
func ParseArch(arch string) (CC, error) {
	s := strings.ToLower(strings.TrimSpace(arch))
	for _, p := range []string{"sm_", "sm", "compute_", "cc"} {
		if strings.HasPrefix(s, p) {
			s = s[len(p):]
			break
		}
	}
	s = strings.TrimRight(s, "af")
	if a, b, ok := strings.Cut(s, "."); ok {
		major, err1 := strconv.Atoi(a)
		minor, err2 := strconv.Atoi(b)
		if err1 == nil && err2 == nil && major > 0 && minor >= 0 && minor < 10 {
			return CC{major, minor}, nil
		}
	} else if n, err := strconv.Atoi(s); err == nil && n >= 10 {
		return CC{n / 10, n % 10}, nil
	}
	return CC{}, fmt.Errorf("device: architecture %q is not understood; write it as sm_90 (supported: %s)", arch, strings.Join(Arches(), ", "))
}

// ForArch returns the table limits of an architecture such as "sm_90".
func ForArch(arch string) (*Device, error) {
	cc, err := ParseArch(arch)
	if err != nil {
		return nil, err
	}
	return ForCC(cc)
}

// ForCC returns the table limits of a compute capability.
func ForCC(cc CC) (*Device, error) {
	e, ok := table[cc.Number()]
	if !ok {
		return nil, fmt.Errorf("device: no limits for compute capability %s (%s); use one of %s", cc, cc.Arch(), strings.Join(Arches(), ", "))
	}
	d := e.Clone()
	fillCommon(d)
	return d, nil
}

// H200 returns the NVIDIA H200 as measured on the project's GPU machine.
func H200() *Device {
	d, _ := ForArch(DefaultArch)
	d.Name = "NVIDIA H200"
	d.SMs = 132
	d.L2Bytes = 62914560
	d.MemoryBusWidthBits = 6144
	d.DRAMBandwidth = 4.8e12 // HBM3e; the same GH100 compute as the H100 SXM
	return d
}

// WithName adjusts the table entry d for a named product whose memory
// differs from its architecture's table entry (the H200 is an sm_90 with
// the H100's compute and faster, larger memory).
func WithName(d *Device, name string) {
	if strings.Contains(name, "H200") {
		h := H200()
		d.DRAMBandwidth = h.DRAMBandwidth
	}
}

// DefaultArch is the architecture used when none is given and no GPU says
// otherwise: the H200 (sm_90) the project measures on. Every default in the
// analyses, nvcc compiles and the benchmarker is this one constant.
const DefaultArch = "sm_90"

// Default returns the default target: the H200.
func Default() *Device { return H200() }
