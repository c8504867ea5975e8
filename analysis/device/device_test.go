package device

import (
	"encoding/json"
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
		cc, err := ParseArch(s)
		if err != nil || cc != (CC{9, 0}) {
			t.Errorf("ParseArch(%q) = %v, %v", s, cc, err)
		}
	}
	if cc, _ := ParseArch("sm_100"); cc != (CC{10, 0}) {
		t.Errorf("sm_100 = %v", cc)
	}
	for _, s := range []string{"", "hopper", "sm_", "9", "sm_9x"} {
		if _, err := ParseArch(s); err == nil || !strings.Contains(err.Error(), "sm_90") {
			t.Errorf("ParseArch(%q): err = %v, want a hint", s, err)
		}
	}
	if _, err := ForArch("sm_61"); err == nil || !strings.Contains(err.Error(), "sm_70") {
		t.Errorf("ForArch(sm_61): %v", err)
	}
}

func TestFromInfo(t *testing.T) {
	d, err := FromInfo(&Info{Name: "NVIDIA A100-SXM4-80GB", CC: CC{8, 0}, SMs: 108, MemBusWidth: 5120})
	if err != nil {
		t.Fatal(err)
	}
	if d.SMs != 108 || d.Name != "NVIDIA A100-SXM4-80GB" || d.Source != "nvml" || d.SharedPerSM != 167936 || d.MemoryBusWidthBits != 5120 {
		t.Errorf("A100 = %+v", d)
	}
	d, _ = FromInfo(&Info{Index: 1, Name: "NVIDIA H200", CC: CC{9, 0}})
	if d.SMs != 132 || d.L2Bytes != 62914560 {
		t.Errorf("H200 = %+v", d)
	}
	if _, err := FromInfo(&Info{Name: "GTX 1080", CC: CC{6, 1}}); err == nil || !strings.Contains(err.Error(), "no limits for compute capability 6.1") {
		t.Errorf("FromInfo(6.1): %v", err)
	}
	if n := coresPerSM(CC{8, 0}); n != 64 || coresPerSM(CC{9, 0}) != 128 {
		t.Errorf("cores per SM: %d", n)
	}
}

func TestCCText(t *testing.T) {
	var i Info
	if err := json.Unmarshal([]byte(`{"cc":"9.0"}`), &i); err != nil || i.CC != (CC{9, 0}) || i.Arch() != "sm_90" {
		t.Errorf("unmarshal: %v %+v", err, i.CC)
	}
	b, _ := json.Marshal(Info{CC: CC{8, 6}})
	if !strings.Contains(string(b), `"cc":"8.6"`) {
		t.Errorf("marshal: %s", b)
	}
	if err := json.Unmarshal([]byte(`{"cc":"hopper"}`), &i); err == nil {
		t.Error("cc \"hopper\" accepted")
	}
	if d, err := ForArch(DefaultArch); err != nil || d.Arch() != DefaultArch {
		t.Errorf("DefaultArch: %v %v", d, err)
	}
}

// TestDetectReal runs the real NVML path: on a machine without a driver it
// must fail cleanly with ErrNoGPU, never crash.
func TestDetectReal(t *testing.T) {
	d, err := Detect(0)
	if err != nil {
		if !errors.Is(err, ErrNoGPU) {
			t.Fatalf("Detect: %v", err)
		}
		t.Logf("no GPU here: %v", err)
		return
	}
	if d.SMs <= 0 || d.Validate() != nil {
		t.Errorf("Detect = %+v", d)
	}
}
