package occupancy

import (
	"fmt"
	"math"
	"strings"

	"github.com/cudaperf/cudaperf/analysis/device"
)

// Unlimited stands for "this resource does not limit", as INT_MAX does in
// cuda_occupancy.h.
const Unlimited = math.MaxInt32

// Limit is a bit set of the resources that limit occupancy; the values are
// those of cudaOccLimitingFactor.
type Limit uint32

const (
	LimitWarps            Limit = 0x01
	LimitRegisters        Limit = 0x02
	LimitSharedMemory     Limit = 0x04
	LimitBlocks           Limit = 0x08
	LimitBarriers         Limit = 0x10
	LimitVirtualResources Limit = 0x20
)

func (l Limit) String() string {
	if l == 0 {
		return "none"
	}
	var parts []string
	for _, x := range []struct {
		bit  Limit
		name string
	}{{LimitWarps, "warps"}, {LimitRegisters, "registers"}, {LimitSharedMemory, "shared memory"},
		{LimitBlocks, "blocks per SM"}, {LimitBarriers, "barriers"}, {LimitVirtualResources, "virtual resources"}} {
		if l&x.bit != 0 {
			parts = append(parts, x.name)
		}
	}
	return strings.Join(parts, ", ")
}

// Kernel holds a kernel's attributes that matter for occupancy (the
// cudaOccFuncAttributes of the C header).
type Kernel struct {
	Registers          int // per thread (ptxas "Used N registers")
	StaticShared       int // bytes of static __shared__ per block
	Barriers           int // block barriers used (ptxas "used N barriers")
	MaxThreadsPerBlock int // from __launch_bounds__; 0 means the device maximum
	// OptIn is true when the kernel raises its dynamic shared memory limit
	// with cudaFuncSetAttribute(MaxDynamicSharedMemorySize, MaxDynamicShared).
	OptIn            bool
	MaxDynamicShared int
	VirtualResources int // virtual resource units (sm_100+); 0 for none
}

// Launch is the per-launch configuration.
type Launch struct {
	BlockSize     int // threads per block
	DynamicShared int // bytes of dynamic shared memory per block
	// Carveout is the preferred shared-memory carveout in percent
	// (cudaFuncAttributePreferredSharedMemoryCarveout); -1 is the default,
	// the maximum shared memory.
	Carveout int
}

// Result is the calculator's answer for one kernel and launch.
type Result struct {
	Blocks   int   // active blocks per SM
	Limiting Limit // every limit equal to Blocks

	ByRegisters, BySharedMemory, ByWarps, ByBlocks, ByBarriers, ByVirtual int // block limits; Unlimited when n/a

	RegistersPerBlock int // registers allocated per block
	SharedPerBlock    int // shared bytes allocated per block, reserve included

	WarpsPerBlock int
	ActiveWarps   int     // Blocks × WarpsPerBlock
	MaxWarps      int     // resident-warp limit per SM
	Occupancy     float64 // ActiveWarps / MaxWarps, in [0, 1]
}

func divUp(x, y int) int   { return (x + y - 1) / y }
func roundUp(x, y int) int { return y * divUp(x, y) }

// Compute returns the active blocks per SM of kernel k launched with l on d.
// It returns an error, naming the bad value, for inputs the C calculator
// rejects (block size ≤ 0, negative registers or shared memory, an unusable
// device, a carveout outside [-1, 100]).
func Compute(d *device.Device, k Kernel, l Launch) (Result, error) {
	if d == nil {
		return Result{}, fmt.Errorf("occupancy: no device")
	}
	if err := d.Validate(); err != nil {
		return Result{}, fmt.Errorf("occupancy: %w", err)
	}
	switch {
	case l.BlockSize <= 0:
		return Result{}, fmt.Errorf("occupancy: block size %d must be positive", l.BlockSize)
	case k.Registers < 0:
		return Result{}, fmt.Errorf("occupancy: register count %d is negative", k.Registers)
	case k.StaticShared < 0 || l.DynamicShared < 0 || k.MaxDynamicShared < 0:
		return Result{}, fmt.Errorf("occupancy: shared memory sizes must not be negative (static %d, dynamic %d)", k.StaticShared, l.DynamicShared)
	case k.Barriers < 0 || k.VirtualResources < 0 || k.MaxThreadsPerBlock < 0:
		return Result{}, fmt.Errorf("occupancy: barriers, virtual resources and max threads must not be negative")
	case l.Carveout < -1 || l.Carveout > 100:
		return Result{}, fmt.Errorf("occupancy: carveout %d%% is outside [0, 100] (or -1 for the default)", l.Carveout)
	}

	var r Result
	r.WarpsPerBlock = divUp(l.BlockSize, d.WarpSize)
	r.MaxWarps = d.MaxThreadsPerSM / d.WarpSize

	r.ByRegisters, r.RegistersPerBlock = regsLimit(d, k, r.WarpsPerBlock)
	r.ByWarps = warpsLimit(d, l.BlockSize, r.WarpsPerBlock)
	r.ByBlocks = d.MaxBlocksPerSM
	var err error
	r.BySharedMemory, r.SharedPerBlock, err = smemLimit(d, k, l)
	if err != nil {
		return Result{}, err
	}
	r.ByVirtual = Unlimited
	if d.VirtualResourcesPerSM > 0 && k.VirtualResources > 0 {
		r.ByVirtual = d.VirtualResourcesPerSM / k.VirtualResources
	}

	limit := min(r.ByRegisters, r.BySharedMemory, r.ByWarps, r.ByBlocks, r.ByVirtual)
	for _, x := range []struct {
		v   int
		bit Limit
	}{{r.ByWarps, LimitWarps}, {r.ByRegisters, LimitRegisters}, {r.BySharedMemory, LimitSharedMemory},
		{r.ByBlocks, LimitBlocks}, {r.ByVirtual, LimitVirtualResources}} {
		if limit == x.v {
			r.Limiting |= x.bit
		}
	}
	r.ByBarriers = Unlimited
	if d.Major >= 9 && k.Barriers > 0 {
		r.ByBarriers = d.MaxBlocksPerSM * d.BarriersPerBlockSlot / k.Barriers
		limit = min(limit, r.ByBarriers)
		if limit == r.ByBarriers {
			r.Limiting |= LimitBarriers
		}
	}
	r.Blocks = limit
	r.ActiveWarps = r.Blocks * r.WarpsPerBlock
	if r.MaxWarps > 0 {
		r.Occupancy = float64(r.ActiveWarps) / float64(r.MaxWarps)
	}
	return r, nil
}

// regsLimit is cudaOccMaxBlocksPerSMRegsLimit without partitioned global
// caching (a Maxwell/Pascal feature; no supported device has it).
func regsLimit(d *device.Device, k Kernel, warps int) (limit, perBlock int) {
	perWarp := roundUp(k.Registers*d.WarpSize, d.RegAllocUnit)
	perBlock = perWarp * warps
	// The hardware check assumes warps are spread over all sub-partitions.
	assumed := perWarp * roundUp(warps, d.SubPartitions)
	switch {
	case d.RegsPerBlock < assumed || d.RegsPerBlock < perBlock || k.Registers > d.MaxRegsPerThread:
		return 0, perBlock
	case perWarp == 0:
		return Unlimited, perBlock
	}
	warpsPerSub := (d.RegsPerSM / d.SubPartitions) / perWarp
	return warpsPerSub * d.SubPartitions / warps, perBlock
}

func warpsLimit(d *device.Device, blockSize, warps int) int {
	if blockSize > d.MaxThreadsPerBlock {
		return 0
	}
	return d.MaxWarpsPerSM() / warps
}

// smemLimit is cudaOccMaxBlocksPerSMSmemLimit.
func smemLimit(d *device.Device, k Kernel, l Launch) (limit, allocated int, err error) {
	pref := d.SharedPerSM
	if l.Carveout >= 0 {
		pref = l.Carveout * d.SharedPerSM / 100
	}
	pref, err = alignCarveout(d, pref)
	if err != nil {
		return 0, 0, err
	}
	static := k.StaticShared + d.ReservedSharedPerBlock
	allocated = roundUp(static+l.DynamicShared, d.SharedAllocUnit)

	perBlockLimit := d.SharedPerBlock
	if k.OptIn && static+k.MaxDynamicShared > d.SharedPerBlock {
		perBlockLimit = d.SharedPerBlockOptin
	}
	if d.Major >= 8 {
		perBlockLimit += d.ReservedSharedPerBlock
	}
	if (k.OptIn && l.DynamicShared > k.MaxDynamicShared) || allocated > perBlockLimit {
		return 0, allocated, nil
	}
	perSM := pref
	if pref < allocated {
		// The preference is ignored when a block does not fit in it: the
		// driver picks the smallest carveout that holds one block.
		if perSM, err = alignCarveout(d, allocated); err != nil {
			return 0, 0, err
		}
	}
	if allocated == 0 {
		return Unlimited, 0, nil
	}
	return perSM / allocated, allocated, nil
}

// alignCarveout rounds a shared-memory size up to the next carveout the
// architecture supports (cudaOccAlignUpShmemSizeVoltaPlus).
func alignCarveout(d *device.Device, size int) (int, error) {
	if len(d.SharedCarveouts) == 0 {
		return d.SharedPerSM, nil
	}
	for _, c := range d.SharedCarveouts {
		if size <= c {
			return c, nil
		}
	}
	return 0, fmt.Errorf("occupancy: %d bytes of shared memory per SM exceed the largest carveout of %s (%d bytes)", size, d.Arch(), d.SharedCarveouts[len(d.SharedCarveouts)-1])
}
