package occupancy

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/device"
)

// goldenDevice returns the device properties the golden file was computed
// with (testdata/README: the table limits of each architecture).
func goldenDevice(t *testing.T, arch string) *device.Device {
	t.Helper()
	d, err := device.ForArch(arch)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestGolden reproduces every line of NVIDIA's calculator output.
func TestGolden(t *testing.T) {
	f, err := os.Open("testdata/occupancy_golden.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		n++
		var arch string
		var regs, smem, bs int
		if _, err := fmt.Sscanf(line, "%s regs=%d smem=%d bs=%d", &arch, &regs, &smem, &bs); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		r, err := Compute(goldenDevice(t, arch), Kernel{Registers: regs}, Launch{BlockSize: bs, DynamicShared: smem, Carveout: -1})
		if err != nil {
			t.Errorf("line %d %q: %v", n, line, err)
			continue
		}
		got := fmt.Sprintf("%s regs=%d smem=%d bs=%d err=0 blocks=%d lim=%d R=%d S=%d W=%d B=%d aR=%d aS=%d",
			arch, regs, smem, bs, r.Blocks, r.Limiting, r.ByRegisters, r.BySharedMemory, r.ByWarps, r.ByBlocks, r.RegistersPerBlock, r.SharedPerBlock)
		if got != line {
			t.Errorf("line %d:\n got  %s\n want %s", n, got, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 800 {
		t.Errorf("golden file has %d cases, want 800", n)
	}
}

func TestBarriersSM90(t *testing.T) {
	d := device.H200()
	// ptxas example from the H200: 10 registers, 1 barrier, 32 KB static smem.
	r, err := Compute(d, Kernel{Registers: 10, StaticShared: 32768, Barriers: 1}, Launch{BlockSize: 256, Carveout: -1})
	if err != nil {
		t.Fatal(err)
	}
	// 228 KB / (32 KB + 1 KB) = 6 blocks; barriers allow 64.
	if r.Blocks != 6 || r.Limiting != LimitSharedMemory || r.ByBarriers != 64 {
		t.Errorf("got blocks=%d lim=%v bars=%d, want 6, shared memory, 64", r.Blocks, r.Limiting, r.ByBarriers)
	}
	if want := 6.0 * 8 / 64; r.Occupancy != want {
		t.Errorf("occupancy %v, want %v", r.Occupancy, want)
	}
	// Three barriers per block: 64/3 = 21 blocks, below the 32-block cap.
	r, err = Compute(d, Kernel{Registers: 16, Barriers: 3}, Launch{BlockSize: 32, Carveout: -1})
	if err != nil {
		t.Fatal(err)
	}
	// As in cuda_occupancy.h, the bits set before the barrier limit is
	// applied stay set: blocks per SM was the limit of the other resources.
	if r.Blocks != 21 || r.Limiting != LimitBarriers|LimitBlocks {
		t.Errorf("3 barriers: blocks=%d lim=%v, want 21 by barriers (and blocks)", r.Blocks, r.Limiting)
	}
	// Before sm_90 barriers do not limit.
	a100, _ := device.ForArch("sm_80")
	r, _ = Compute(a100, Kernel{Registers: 16, Barriers: 3}, Launch{BlockSize: 32, Carveout: -1})
	if r.Blocks != 32 || r.ByBarriers != Unlimited {
		t.Errorf("sm_80 with barriers: blocks=%d bars=%d, want 32 unlimited", r.Blocks, r.ByBarriers)
	}
}

func TestOptInAndCarveout(t *testing.T) {
	d := device.H200()
	// 100000 B of dynamic shared memory is over the 48 KB default...
	r, _ := Compute(d, Kernel{Registers: 32}, Launch{BlockSize: 256, DynamicShared: 100000, Carveout: -1})
	if r.Blocks != 0 || r.Limiting&LimitSharedMemory == 0 {
		t.Errorf("no opt-in: blocks=%d lim=%v, want 0 by shared memory", r.Blocks, r.Limiting)
	}
	// ...but fits twice after opting in (233472 / 101120 = 2).
	r, _ = Compute(d, Kernel{Registers: 32, OptIn: true, MaxDynamicShared: 100000}, Launch{BlockSize: 256, DynamicShared: 100000, Carveout: -1})
	if r.Blocks != 2 {
		t.Errorf("opt-in: blocks=%d, want 2", r.Blocks)
	}
	// A 50% carveout (114 KB, aligned up to 132 KB) holds 3 blocks of 41 KB.
	r, _ = Compute(d, Kernel{Registers: 32}, Launch{BlockSize: 128, DynamicShared: 40 * 1024, Carveout: 50})
	if r.BySharedMemory != 132*1024/(41*1024) {
		t.Errorf("carveout 50: S=%d, want %d", r.BySharedMemory, 132*1024/(41*1024))
	}
	// A 0% carveout is ignored when a block does not fit: the smallest
	// carveout holding one block (64 KB for 41 KB) is used.
	r, _ = Compute(d, Kernel{Registers: 32}, Launch{BlockSize: 128, DynamicShared: 40 * 1024, Carveout: 0})
	if r.BySharedMemory != 1 {
		t.Errorf("carveout 0: S=%d, want 1", r.BySharedMemory)
	}
}

func TestRegisterLimits(t *testing.T) {
	d := device.H200()
	// 255 registers × 32 = 8160 → 8192 per warp; 1024 threads need 32 warps
	// × 8192 = 262144 > 65536 registers per block: cannot launch.
	r, _ := Compute(d, Kernel{Registers: 255}, Launch{BlockSize: 1024, Carveout: -1})
	if r.Blocks != 0 || r.ByRegisters != 0 || r.Limiting&LimitRegisters == 0 {
		t.Errorf("255 regs x 1024: %+v", r)
	}
	// Zero registers (an empty kernel) does not limit.
	r, _ = Compute(d, Kernel{}, Launch{BlockSize: 32, Carveout: -1})
	if r.ByRegisters != Unlimited || r.Blocks != 32 {
		t.Errorf("0 regs: R=%d blocks=%d", r.ByRegisters, r.Blocks)
	}
	// Over the per-thread maximum.
	r, _ = Compute(d, Kernel{Registers: 300}, Launch{BlockSize: 32, Carveout: -1})
	if r.Blocks != 0 {
		t.Errorf("300 regs: blocks=%d, want 0", r.Blocks)
	}
	// Blocks larger than 1024 threads are limited by warps to 0.
	r, _ = Compute(d, Kernel{Registers: 16}, Launch{BlockSize: 2048, Carveout: -1})
	if r.Blocks != 0 || r.Limiting&LimitWarps == 0 {
		t.Errorf("2048 threads: blocks=%d lim=%v", r.Blocks, r.Limiting)
	}
}

func TestBadInput(t *testing.T) {
	d := device.H200()
	for _, tc := range []struct {
		k    Kernel
		l    Launch
		want string
	}{
		{Kernel{}, Launch{BlockSize: 0}, "block size 0"},
		{Kernel{Registers: -1}, Launch{BlockSize: 32}, "register count -1"},
		{Kernel{}, Launch{BlockSize: 32, DynamicShared: -5}, "must not be negative"},
		{Kernel{}, Launch{BlockSize: 32, Carveout: 101}, "carveout 101%"},
	} {
		if _, err := Compute(d, tc.k, tc.l); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v %+v: err = %v, want %q", tc.k, tc.l, err, tc.want)
		}
	}
	if _, err := Compute(&device.Device{}, Kernel{}, Launch{BlockSize: 32}); err == nil {
		t.Error("empty device accepted")
	}
}

func TestLimitString(t *testing.T) {
	if s := (LimitRegisters | LimitBlocks).String(); s != "registers, blocks per SM" {
		t.Errorf("String = %q", s)
	}
}
