package device

import (
	"errors"
	"strings"
	"testing"
)

// The device properties the occupancy golden file was computed with
// (shared/data/README.md), and the H200's reported values.
func TestTableMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		arch                                   string
		threadsPerSM, sharedPerSM, optin, cap_ int
	}{
		{"sm_80", 2048, 167936, 166912, 32},
		{"sm_86", 1536, 102400, 101376, 16},
		{"sm_89", 1536, 102400, 101376, 24},
		{"sm_90", 2048, 233472, 232448, 32},
	} {
		d, err := ForArch(tc.arch)
		if err != nil {
			t.Fatal(err)
		}
		if d.MaxThreadsPerSM != tc.threadsPerSM || d.SharedPerSM != tc.sharedPerSM || d.SharedPerBlockOptin != tc.optin || d.MaxBlocksPerSM != tc.cap_ {
			t.Errorf("%s: %+v", tc.arch, d)
		}
		if d.RegsPerSM != 65536 || d.RegsPerBlock != 65536 || d.WarpSize != 32 || d.MaxThreadsPerBlock != 1024 ||
			d.SharedPerBlock != 49152 || d.ReservedSharedPerBlock != 1024 {
			t.Errorf("%s: common limits %+v", tc.arch, d)
		}
		if err := d.Validate(); err != nil {
			t.Error(err)
		}
	}
	h := Default()
	if h.Name != "NVIDIA H200" || h.SMs != 132 || h.Arch() != "sm_90" || h.L2Bytes != 62914560 || h.MaxBlocksPerSM != 32 || h.MaxWarpsPerSM() != 64 {
		t.Errorf("H200 = %+v", h)
	}
	// Every table entry is usable.
	for _, a := range Arches() {
		d, err := ForArch(a)
		if err != nil || d.Validate() != nil || d.Arch() != a {
			t.Errorf("%s: %v %v", a, err, d)
		}
		if last := d.SharedCarveouts[len(d.SharedCarveouts)-1]; last != d.SharedPerSM {
			t.Errorf("%s: largest carveout %d != shared per SM %d", a, last, d.SharedPerSM)
		}
	}
}

func TestClone(t *testing.T) {
	a := H200()
	b := a.Clone()
	b.SharedCarveouts[0] = 7
	b.SMs = 1
	if a.SharedCarveouts[0] == 7 || a.SMs == 1 {
		t.Error("Clone shares state")
	}
}

func TestParseArch(t *testing.T) {
	for _, s := range []string{"sm_90", "sm90", "90", "9.0", "compute_90", "sm_90a", " SM_90 "} {
		ma, mi, err := ParseArch(s)
		if err != nil || ma != 9 || mi != 0 {
			t.Errorf("ParseArch(%q) = %d.%d, %v", s, ma, mi, err)
		}
	}
	if ma, mi, _ := ParseArch("sm_100"); ma != 10 || mi != 0 {
		t.Errorf("sm_100 = %d.%d", ma, mi)
	}
	for _, s := range []string{"", "hopper", "sm_", "9", "sm_9x"} {
		if _, _, err := ParseArch(s); err == nil || !strings.Contains(err.Error(), "sm_90") {
			t.Errorf("ParseArch(%q): err = %v, want a hint", s, err)
		}
	}
	if _, err := ForArch("sm_61"); err == nil || !strings.Contains(err.Error(), "sm_70") {
		t.Errorf("ForArch(sm_61): %v", err)
	}
}

type fakeGPU struct {
	initErr    error
	n          int
	nameS      string
	major, min int
	coresN     int
}

func (f *fakeGPU) init() error                             { return f.initErr }
func (f *fakeGPU) shutdown()                               {}
func (f *fakeGPU) count() (int, error)                     { return f.n, nil }
func (f *fakeGPU) name(int) (string, error)                { return f.nameS, nil }
func (f *fakeGPU) computeCapability(int) (int, int, error) { return f.major, f.min, nil }
func (f *fakeGPU) cores(int) (int, error)                  { return f.coresN, nil }
func (f *fakeGPU) busWidth(int) (int, error)               { return 5120, nil }

func TestDetectMapping(t *testing.T) {
	d, err := detect(&fakeGPU{n: 1, nameS: "NVIDIA A100-SXM4-80GB", major: 8, min: 0, coresN: 6912}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.SMs != 108 || d.Name != "NVIDIA A100-SXM4-80GB" || d.Source != "nvml" || d.SharedPerSM != 167936 || d.MemoryBusWidthBits != 5120 {
		t.Errorf("A100 = %+v", d)
	}
	d, _ = detect(&fakeGPU{n: 2, nameS: "NVIDIA H200", major: 9, min: 0, coresN: 16896}, 1)
	if d.SMs != 132 || d.L2Bytes != 62914560 {
		t.Errorf("H200 = %+v", d)
	}
	for _, tc := range []struct {
		g    *fakeGPU
		i    int
		want string
	}{
		{&fakeGPU{initErr: errors.New("libnvidia-ml.so.1 not found")}, 0, "no NVIDIA GPU"},
		{&fakeGPU{n: 0}, 0, "no GPU"},
		{&fakeGPU{n: 1, major: 9}, 3, "index 3 out of range"},
		{&fakeGPU{n: 1, major: 6, min: 1}, 0, "no limits for compute capability 6.1"},
	} {
		if _, err := detect(tc.g, tc.i); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("detect: err = %v, want %q", err, tc.want)
		}
	}
}

// TestDetectReal runs the real NVML path: on a machine without a driver it
// must fail cleanly with ErrNoGPU, never crash.
func TestDetectReal(t *testing.T) {
	d, err := Detect(0)
	if err != nil {
		if !errors.Is(err, ErrNoGPU) && !strings.Contains(err.Error(), "NVML") {
			t.Fatalf("Detect: %v", err)
		}
		t.Logf("no GPU here: %v", err)
		return
	}
	if d.SMs <= 0 || d.Validate() != nil {
		t.Errorf("Detect = %+v", d)
	}
}
