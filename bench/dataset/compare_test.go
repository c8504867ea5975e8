package dataset

import (
	"bytes"
	"strings"
	"testing"
)

// oneTask is a suite of one task "t" whose accepted variants a, b, ... have
// the given primary medians.
func oneTask(ms ...float64) []*Task {
	task := &Task{Name: "t"}
	for i, m := range ms {
		task.Variants = append(task.Variants, Variant{Name: string(rune('a' + i)), Accepted: true, MedianMs: m})
	}
	return []*Task{task}
}

func TestCompare(t *testing.T) {
	mk := oneTask
	// Ten variants: nine move by 1%, one by 50%; the new run also has an extra variant.
	a := mk(1, 1, 1, 1, 1, 1, 1, 1, 1, 2)
	b := mk(1.01, 1.01, 1.01, 1.01, 1.01, 1.01, 1.01, 1.01, 1.01, 3, 7)
	d := Compare(a, b)
	if d.Common != 10 || d.OnlyInB != 1 || d.OnlyInA != 0 {
		t.Fatalf("counts %+v", d)
	}
	if d.Max < 0.499 || d.Max > 0.501 || d.Median < 0.0099 || d.Median > 0.0101 {
		t.Errorf("median %.4f max %.4f, want 0.01 and 0.5", d.Median, d.Max)
	}
	if d.Ratio < 1.0099 || d.Ratio > 1.0101 {
		t.Errorf("median ratio %.4f, want 1.01 (the new run is 1%% slower)", d.Ratio)
	}
	if r := Compare(b, a).Ratio; r < 0.99 || r > 0.991 {
		t.Errorf("median ratio the other way %.4f, want 1/1.01", r)
	}
	if d.Largest[0].Variant != "j" {
		t.Errorf("largest drift should be variant j, got %+v", d.Largest[0])
	}
	var buf bytes.Buffer
	if err := WriteDrift(&buf, d, "old.jsonl"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "median 1.00%") || !strings.Contains(buf.String(), "largest 50.0%") {
		t.Errorf("section:\n%s", buf.String())
	}
}

func TestControlDecision(t *testing.T) {
	// The first H200 control (lease 9): passes.
	ex := Drift{Common: 358, Median: 0.0055, Ratio: 1.0029}
	sh := Drift{Common: 266, Median: 0.0113, Ratio: 1.0098}
	direct := Drift{Common: 266, Median: 0.0093, Ratio: 1.0066}
	if ok, why := ControlDecision(ex, sh, direct); !ok {
		t.Errorf("lease 9's control fails: %v", why)
	}
	for name, c := range map[string][3]Drift{
		"too few variants":           {{Common: 19, Median: 0.005}, sh, direct},
		"shared systematically slow": {ex, sh, {Common: 266, Ratio: 1.0201}},
		"shared systematically fast": {ex, sh, {Common: 266, Ratio: 0.9799}},
		"shared noisier":             {ex, {Common: 266, Median: 0.0256}, direct},
		"nothing compared directly":  {ex, sh, {}},
	} {
		ok, why := ControlDecision(c[0], c[1], c[2])
		if ok {
			t.Errorf("%s: passes: %v", name, why)
		}
		if !strings.Contains(strings.Join(why, "\n"), "FAIL") {
			t.Errorf("%s: no criterion says FAIL: %v", name, why)
		}
	}
}

// TestCompareMedianOfEvenCount: the median of two variants' drifts is
// their mean (the upper one was taken: 1.04 for drifts of 0 and 4%, which
// fails ControlDecision's [0.98, 1.02] though the median, 1.02, passes).
func TestCompareMedianOfEvenCount(t *testing.T) {
	d := Compare(oneTask(1, 1), oneTask(1, 1.04))
	if d.Ratio < 1.0199 || d.Ratio > 1.0201 || d.Median < 0.0199 || d.Median > 0.0201 {
		t.Errorf("ratio %.4f median %.4f, want 1.02 and 0.02", d.Ratio, d.Median)
	}
}
