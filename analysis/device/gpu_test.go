package device

import (
	"errors"
	"slices"
	"testing"
)

// TestOpen runs everywhere: without a driver Open must fail with
// ErrNoGPU rather than crash; with one, the device must have a name.
func TestOpen(t *testing.T) {
	s, err := Open()
	if err != nil {
		if !errors.Is(err, ErrNoGPU) {
			t.Fatalf("Open: %v, want ErrNoGPU", err)
		}
		t.Logf("no GPU: %v", err)
		return
	}
	defer s.Close()
	i, err := s.Info(0)
	if err != nil || i.Name == "" || i.CC.IsZero() {
		t.Fatalf("Info(0) = %+v, %v", i, err)
	}
}

func TestReasons(t *testing.T) {
	got := reasons(1 | 4 | 64)
	if !slices.Equal(got, []string{"gpu_idle", "hw_thermal_slowdown", "sw_power_cap"}) {
		t.Errorf("reasons = %v", got)
	}
	if th := Throttling(got); !slices.Equal(th, []string{"hw_thermal_slowdown", "sw_power_cap"}) {
		t.Errorf("Throttling = %v", th)
	}
	var s Summary
	s.add(&Info{SMClockMHz: 1980, Reasons: []string{"gpu_idle"}})
	s.add(&Info{SMClockMHz: 1500, TemperatureC: 80, Reasons: []string{"sw_thermal_slowdown"}})
	if s.MinSMClockMHz != 1500 || s.MaxSMClockMHz != 1980 || !slices.Equal(s.Throttled, []string{"sw_thermal_slowdown"}) {
		t.Errorf("summary %+v", s)
	}
}

func TestBandwidth(t *testing.T) {
	// The datasheet figures come from the limits table, one place.
	if bw := (&Info{Name: "NVIDIA H200", CC: CC{9, 0}}).PeakBandwidth(); bw != 4.8e12 {
		t.Errorf("H200 bandwidth %g", bw)
	}
	if bw := (&Info{Name: "NVIDIA H100 80GB HBM3", CC: CC{9, 0}}).PeakBandwidth(); bw != 3.35e12 {
		t.Errorf("H100 bandwidth %g", bw)
	}
	// 2 transfers x 1000 MHz x 256 bit / 8 = 64 GB/s.
	if bw := (&Info{Name: "Other", CC: CC{6, 1}, MaxMemClockMHz: 1000, MemBusWidth: 256}).PeakBandwidth(); bw != 64e9 {
		t.Errorf("computed bandwidth %g", bw)
	}
}
