package pluginhost

import (
	"encoding/json"
	"math"
	"testing"
)

// TestFiniteStats checks that a plugin's NaN or Inf statistic arrives as a
// marker, so the metrics stay valid JSON (a NaN loss made json.Marshal fail
// and sft.jsonl lines come out empty on the H200).
func TestFiniteStats(t *testing.T) {
	got := finiteStats(map[string]float64{"loss": math.NaN(), "grad_norm": math.Inf(1), "tokens": 12})
	want := map[string]float64{"nonfinite.loss": 1, "nonfinite.grad_norm": 1, "tokens": 12}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v (all: %v)", k, got[k], v, got)
		}
	}
	if _, err := json.Marshal(got); err != nil {
		t.Errorf("stats do not marshal: %v", err)
	}
}
