package ablation

import (
	"math"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/host/reward"
)

func rec(compiled, correct, used bool, total, adv float64) grpo.RolloutRecord {
	return grpo.RolloutRecord{HasCode: true, Compiled: compiled, Correct: correct, Used: used,
		Reward: reward.Scored{Total: total}, Advantage: adv}
}

// Hand-computed: three compiled (one correct), one of the wrong ones below
// −1; advantages only of the candidates sent to Update.
func TestOrderOf(t *testing.T) {
	recs := []grpo.RolloutRecord{
		rec(true, false, true, -1.2, 0.5), // wrong, below a compile failure
		rec(true, false, true, -0.8, 1.5), // wrong
		rec(true, true, false, 0.6, 0),    // correct, its group skipped
		rec(false, false, true, -1, -1),   // no compile
		rec(false, false, true, -1, -0.5), // no compile
		rec(false, false, false, -1, 0),   // skipped group
	}
	o := orderOf(recs, 1)
	want := ClassOrder{Compiled: 3, Below: 1, Wrong: 2, WrongReward: -1, AdvCompiled: 1, AdvOther: -0.75, NCompiled: 2, NOther: 2}
	if o != want {
		t.Errorf("orderOf = %+v, want %+v", o, want)
	}
	// Exactly −αc is a tie, not below.
	if o := orderOf([]grpo.RolloutRecord{rec(true, false, true, -1, 0)}, 1); o.Below != 0 {
		t.Errorf("a compiled candidate at exactly -1 counted below: %+v", o)
	}
	// Pooling weights each run's means by its counts.
	p := orderOf([]grpo.RolloutRecord{rec(true, false, true, -0.5, 4)}, 1)
	o.add(p)
	if o.Compiled != 4 || o.Below != 1 || o.Wrong != 3 || math.Abs(o.WrongReward-(-2.5/3)) > 1e-12 ||
		math.Abs(o.AdvCompiled-2) > 1e-12 || o.NCompiled != 3 || o.AdvOther != -0.75 {
		t.Errorf("pooled = %+v", o)
	}
}

// The page's row pools the seeds; a mode without compiled candidates says
// so instead of dividing by zero.
func TestWriteOrder(t *testing.T) {
	c, err := Parse("a.yaml", []byte("name: abl\nroot: /x\nmodes: [ver, both]\nseeds: [1, 2]\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := &Results{Config: c, Orders: map[string][]ClassOrder{
		"both": {
			orderOf([]grpo.RolloutRecord{rec(true, false, true, -1.2, 0.5), rec(false, false, true, -1, -0.5)}, 1),
			orderOf([]grpo.RolloutRecord{rec(true, false, true, -0.8, 1.5), rec(false, false, true, -1, -1.5)}, 1),
		},
	}}
	var b strings.Builder
	r.writeOrder(&b)
	page := b.String()
	for _, want := range []string{
		"compile failure (Rver = -1) below compiled but wrong code (Rver ≥ -0.8)",
		"λ·Rstr < -0.2",
		"| both | 2 | 1 (50%) | -1.000 | +1.00 / -1.00 |",
		"| ver | 0 | — | — | — |",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("table lacks %q:\n%s", want, page)
		}
	}
}

// A bounded structural term is stated on the page, and the table says its
// count is 0 by construction; an over-large bound is refused with the
// configuration.
func TestStrBoundOnPage(t *testing.T) {
	c, err := Parse("a.yaml", []byte("name: abl\nroot: /x\nmodes: [ver, both]\nseeds: [1, 2]\ntrain: {reward: {str_bound: 0.085}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := &Results{Config: c, Orders: map[string][]ClassOrder{}}
	var b strings.Builder
	r.writeOrder(&b)
	if !strings.Contains(b.String(), "str_bound = 0.085 keeps every class in order") {
		t.Errorf("table lacks the bound's note:\n%s", b.String())
	}
	if _, err := Parse("a.yaml", []byte("name: abl\nroot: /x\nmodes: [ver, both]\nseeds: [1, 2]\ntrain: {reward: {str_bound: 0.3}}\n")); err == nil || !strings.Contains(err.Error(), "exceeds 0.085") {
		t.Errorf("str_bound 0.3: error %v, want the order bound named", err)
	}
}

// The replay's table: recorded → replayed per run, "—" where a run has no
// compiled candidate or too few updated ones for a correlation.
func TestWriteRescore(t *testing.T) {
	w := reward.DefaultWeights()
	w.StrBound = 0.085
	rows := []RescoreRow{
		{Run: "both-s1", Recorded: ClassOrder{Compiled: 4, Below: 2, AdvCompiled: 0.1, AdvOther: -0.05},
			Rescored: ClassOrder{Compiled: 4, AdvCompiled: 1.5, AdvOther: -0.5}, CorrRecorded: 0.11, CorrRescored: 0.99},
		{Run: "ver-s1", CorrRecorded: math.NaN(), CorrRescored: math.NaN()},
	}
	var b strings.Builder
	WriteRescore(&b, rows, w, "cudaperf ablate rescore --config a.yaml --str-bound 0.085")
	for _, want := range []string{
		"squashed into ±0.085, str_on = compiled",
		"| both-s1 | 4 | 50% → 0% | +0.10 / -0.05 → +1.50 / -0.50 | 0.11 → 0.99 |",
		"| ver-s1 | 0 | — → — | +0.00 / +0.00 → +0.00 / +0.00 | — → — |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}
