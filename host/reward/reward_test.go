package reward

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestVer(t *testing.T) {
	w := DefaultWeights()
	cases := []struct {
		name string
		o    Outcome
		want float64
	}{
		{"no code", Outcome{HasCode: false, Compiled: true, Total: 3}, -1},
		{"compile error", Outcome{HasCode: true}, -1},
		{"nothing ran", Outcome{HasCode: true, Compiled: true}, -0.8},
		{"all fail", Outcome{HasCode: true, Compiled: true, Failed: 4, Total: 4}, -0.8},
		{"one of four fails", Outcome{HasCode: true, Compiled: true, Failed: 1, Total: 4}, -0.2},
		// 0.5 + 0.1*log2(8/2) - 0.1*0.05 = 0.5 + 0.2 - 0.005
		{"4x the baseline", Outcome{HasCode: true, Compiled: true, Total: 4, Speedup: 8, Baseline: 2, CV: 0.05}, 0.695},
		// log2(1024) = 10, clipped to 3; cv 0.9 capped at 0.3.
		{"clipped fast, noisy", Outcome{HasCode: true, Compiled: true, Total: 2, Speedup: 1024, CV: 0.9}, 0.5 + 0.3 - 0.03},
		{"clipped slow", Outcome{HasCode: true, Compiled: true, Total: 2, Speedup: 1, Baseline: 1000}, 0.2},
		{"no speedup measured", Outcome{HasCode: true, Compiled: true, Total: 2}, 0.5},
	}
	for _, c := range cases {
		if got := Ver(c.o, w); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: Ver = %v, want %v", c.name, got, c.want)
		}
	}
}

// With the defaults every correct candidate outscores every incorrect one,
// which is what the correctness bonus is for.
func TestDefaultOrder(t *testing.T) {
	w := DefaultWeights()
	worstCorrect := Ver(Outcome{HasCode: true, Compiled: true, Total: 9, Speedup: 1e-6, Baseline: 1e6, CV: 100}, w)
	bestWrong := Ver(Outcome{HasCode: true, Compiled: true, Failed: 1, Total: 9}, w)
	if worstCorrect <= bestWrong {
		t.Errorf("worst correct %v ≤ best incorrect %v", worstCorrect, bestWrong)
	}
	if c, f := Ver(Outcome{HasCode: true}, w), Ver(Outcome{HasCode: true, Compiled: true, Failed: 9, Total: 9}, w); c >= f {
		t.Errorf("compile failure %v ≥ all-wrong %v", c, f)
	}
}

func TestModes(t *testing.T) {
	w := DefaultWeights()
	w.StrOn = GateCode // every code block scored, so each mode's arithmetic shows
	outs := []Outcome{
		{HasCode: true, Compiled: true, Total: 2, Speedup: 2, Baseline: 1}, // Rver 0.6
		{HasCode: true},  // compile error, Rver -1
		{HasCode: false}, // no code, Rver -1
		{HasCode: true, Compiled: true, Failed: 1, Total: 2}, // -0.4
	}
	str := []float64{1.5, -0.5, math.NaN(), 0.25}
	want := map[Mode][]float64{
		ModeVer:  {0.6, -1, -1, -0.4},
		ModeStr:  {0.3, -0.1, -1, 0.05},
		ModeBoth: {0.9, -1.1, -1, -0.35},
	}
	for mode, w8 := range want {
		got := scoreOnce(t, mode, w, 1, outs, str)
		for i := range got {
			if math.Abs(got[i].Total-w8[i]) > 1e-12 {
				t.Errorf("%s: candidate %d: total %v, want %v", mode, i, got[i].Total, w8[i])
			}
		}
	}
	// ModeRandom: the Rver part is the same, the structural term is a draw
	// for exactly the candidates that have a real score.
	got := scoreOnce(t, ModeRandom, w, 1, outs, str)
	for i, g := range got {
		if g.Ver != want[ModeVer][i] {
			t.Errorf("random: candidate %d: Rver %v, want %v", i, g.Ver, want[ModeVer][i])
		}
		if math.IsNaN(str[i]) != (g.StrUsed == 0) {
			t.Errorf("random: candidate %d: structural term %v for real score %v", i, g.StrUsed, str[i])
		}
		if g.StrUsed == str[i] {
			t.Errorf("random: candidate %d used the real score", i)
		}
	}
	if _, err := (&Combiner{mode: ModeBoth, w: w}).Score(outs, nil); err == nil {
		t.Error("mode both without ranker scores: no error")
	}
	if _, err := ParseMode("rnd"); err == nil {
		t.Error(`ParseMode("rnd"): no error`)
	}
}

// The control's scores have the real Rstr's mean and variance, for a real
// Rstr that is far from a standard normal (skewed, shifted).
func TestRandomMatchesRealStr(t *testing.T) {
	c, err := NewCombiner(ModeRandom, DefaultWeights(), 7)
	if err != nil {
		t.Fatal(err)
	}
	src := rand.New(rand.NewPCG(3, 4))
	var real, ctrl Running
	const batches, size = 400, 64
	outs := make([]Outcome, size)
	for i := range outs {
		outs[i] = Outcome{HasCode: true, Compiled: true, Total: 1}
	}
	for range batches {
		str := make([]float64, size)
		for i := range str {
			str[i] = 2 + 3*src.ExpFloat64() // mean 5, variance 9
			real.add(str[i])
		}
		got, err := c.Score(outs, str)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range got {
			ctrl.add(g.StrUsed)
		}
	}
	n, mean, variance := c.RunningStr()
	if n != real.N || math.Abs(mean-real.Mean) > 1e-9 || math.Abs(variance-real.variance()) > 1e-9 {
		t.Errorf("running stats (%d, %v, %v), want (%d, %v, %v)", n, mean, variance, real.N, real.Mean, real.variance())
	}
	// 25,600 draws: the standard error of the mean is 3/160 ≈ 0.019 and of
	// the variance about 9·sqrt(2/25600) ≈ 0.08 (plus the early batches'
	// noisier estimates); the bounds are several standard errors wide.
	if math.Abs(ctrl.Mean-real.Mean) > 0.1 {
		t.Errorf("control mean %.3f, real %.3f", ctrl.Mean, real.Mean)
	}
	if math.Abs(ctrl.variance()-real.variance())/real.variance() > 0.06 {
		t.Errorf("control variance %.3f, real %.3f", ctrl.variance(), real.variance())
	}
}

func TestStateRestore(t *testing.T) {
	outs := []Outcome{{HasCode: true, Compiled: true, Total: 1}, {HasCode: true, Compiled: true, Total: 1}}
	a, _ := NewCombiner(ModeRandom, DefaultWeights(), 11)
	a.Score(outs, []float64{1, 3})
	st, err := a.State()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := a.Score(outs, []float64{2, 5})

	b, _ := NewCombiner(ModeRandom, DefaultWeights(), 999)
	if err := b.Restore(st); err != nil {
		t.Fatal(err)
	}
	got, _ := b.Score(outs, []float64{2, 5})
	for i := range got {
		if got[i] != want[i] && !(math.IsNaN(got[i].Str) && math.IsNaN(want[i].Str)) {
			t.Errorf("after restore, candidate %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestValidate(t *testing.T) {
	w := DefaultWeights()
	w.Tests = -1
	if err := w.Validate(); err == nil {
		t.Error("negative tests weight accepted")
	}
	if err := DefaultWeights().Validate(); err != nil {
		t.Error(err)
	}
}

// The gate decides who gets a structural term, in every mode that uses one;
// outside it, mode str gives −αc and the others add nothing.
func TestGates(t *testing.T) {
	outs := []Outcome{
		{HasCode: true, Compiled: true, Total: 2, Speedup: 2, Baseline: 1}, // correct, Rver 0.6
		{HasCode: true, Compiled: true, Failed: 1, Total: 2},               // wrong, Rver -0.4
		{HasCode: true},  // compile error, Rver -1
		{HasCode: false}, // no code, Rver -1
	}
	str := []float64{1, 2, 3, math.NaN()}
	want := map[Gate][]bool{
		GateCode:     {true, true, true, false},
		GateCompiled: {true, true, false, false},
		GateCorrect:  {true, false, false, false},
	}
	for gate, admitted := range want {
		w := DefaultWeights()
		w.StrOn = gate
		for _, mode := range []Mode{ModeStr, ModeBoth, ModeRandom} {
			c, err := NewCombiner(mode, w, 5)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Score(outs, str)
			if err != nil {
				t.Fatal(err)
			}
			var nAdmitted int64
			for i, g := range got {
				if admitted[i] {
					nAdmitted++
				}
				if (g.StrUsed != 0) != admitted[i] {
					t.Errorf("%s/%s: candidate %d: structural term %v, admitted %v", gate, mode, i, g.StrUsed, admitted[i])
				}
				switch {
				case mode == ModeStr && !admitted[i] && g.Total != -w.Compile:
					t.Errorf("%s/str: candidate %d outside the gate: total %v, want %v", gate, i, g.Total, -w.Compile)
				case mode == ModeBoth && math.Abs(g.Total-(g.Ver+w.Lambda*g.StrUsed)) > 1e-12:
					t.Errorf("%s/both: candidate %d: total %v ≠ Rver %v + λ·%v", gate, i, g.Total, g.Ver, g.StrUsed)
				}
			}
			if n, _, _ := c.RunningStr(); n != nAdmitted {
				t.Errorf("%s/%s: running stats over %d scores, want the %d admitted", gate, mode, n, nAdmitted)
			}
		}
	}
	w := DefaultWeights()
	if w.StrOn != GateCompiled {
		t.Errorf("default str_on %q, want compiled", w.StrOn)
	}
	w.StrOn = "compile"
	if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "str_on") {
		t.Errorf("str_on compile: error %v, want one naming str_on", err)
	}
}

// The failure of lease 3 of 2026-12-03 in miniature: a group in which
// nothing compiles. Under the default gate every candidate gets the same
// reward, so the group has no advantage to follow (GRPO skips it); with
// str_on: code the ranker's scores of code that does not compile decide the
// advantage, and "no code" (no structural term) outranks code the ranker
// dislikes.
func TestNothingCompiledGroup(t *testing.T) {
	outs := []Outcome{{HasCode: true}, {HasCode: true}, {HasCode: false}, {HasCode: true}}
	str := []float64{-1.5, 2.5, math.NaN(), 0.5}
	for _, gate := range []Gate{GateCompiled, GateCode} {
		w := DefaultWeights()
		w.StrOn = gate
		got := scoreOnce(t, ModeBoth, w, 1, outs, str)
		distinct := map[float64]bool{}
		for _, g := range got {
			distinct[g.Total] = true
		}
		if gate == GateCompiled && len(distinct) != 1 {
			t.Errorf("compiled: rewards %v differ in a group where nothing compiled", got)
		}
		if gate == GateCode && !(got[2].Total > got[0].Total && got[1].Total > got[2].Total) {
			t.Errorf("code: rewards %v: want ranker-liked code > no code > ranker-disliked code", got)
		}
	}
}

// scoreOnce scores one group with a fresh combiner.
func scoreOnce(t *testing.T, mode Mode, w Weights, seed uint64, outs []Outcome, str []float64) []Scored {
	t.Helper()
	c, err := NewCombiner(mode, w, seed)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Score(outs, str)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// The largest order-keeping bound for the defaults, by gate: the worst
// correct is 0.5 − 0.3 − 0.03 = 0.17 and a failure sits 0.2 below the
// worst wrong.
func TestOrderBound(t *testing.T) {
	for gate, want := range map[Gate]float64{GateCompiled: 0.085, GateCode: 0.085, GateCorrect: 0.17} {
		w := DefaultWeights()
		w.StrOn = gate
		if got := w.OrderBound(); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: OrderBound = %v, want %v", gate, got, want)
		}
	}
	w := DefaultWeights()
	w.MaxCV = 0 // an uncapped cv penalty: no floor under correct
	if b := w.OrderBound(); b != 0 {
		t.Errorf("uncapped cv: OrderBound = %v, want 0", b)
	}
	w = DefaultWeights()
	w.Tests = 1 // a wrong candidate as bad as a failure
	if b := w.OrderBound(); b != 0 {
		t.Errorf("tests = compile: OrderBound = %v, want 0", b)
	}
}

// Unbounded, a compiled wrong candidate with a low score falls below a
// compile failure (what the ablation's runs showed); with str_bound at
// OrderBound no score in ±1e6 crosses a class, in any gate and mode.
func TestStrBoundKeepsOrder(t *testing.T) {
	outs := []Outcome{
		{HasCode: true},  // compile error
		{HasCode: false}, // no code
		{HasCode: true, Compiled: true, Failed: 3, Total: 3},
		{HasCode: true, Compiled: true, Failed: 1, Total: 100},
		{HasCode: true, Compiled: true},                                 // nothing ran
		{HasCode: true, Compiled: true, Total: 3, Speedup: 1e-9, CV: 5}, // worst correct
		{HasCode: true, Compiled: true, Total: 3, Speedup: 1e9},         // best correct
	}
	class := func(o Outcome) int {
		switch {
		case !o.HasCode || !o.Compiled:
			return 0
		case o.Correct():
			return 2
		}
		return 1
	}
	crossed := func(w Weights, mode Mode, str []float64) bool {
		rs := scoreOnce(t, mode, w, 1, outs, str)
		for i := range outs {
			for j := range outs {
				if class(outs[i]) < class(outs[j]) && rs[i].Total >= rs[j].Total {
					return true
				}
			}
		}
		return false
	}
	low := []float64{1e6, 1e6, -1e6, -1e6, -1e6, -1e6, -1e6}
	if !crossed(DefaultWeights(), ModeBoth, []float64{0, 0, -2, 0, 0, 0, 0}) {
		t.Error("unbounded: a compiled wrong candidate with Rstr -2 should score below a compile failure")
	}
	for _, gate := range Gates {
		w := DefaultWeights()
		w.StrOn = gate
		w.StrBound = w.OrderBound()
		for _, mode := range []Mode{ModeBoth, ModeRandom} {
			for _, str := range [][]float64{low, {-1e6, -1e6, 1e6, 1e6, 1e6, -1e6, -1e6}, {0, 0, 1e6, 1e6, 1e6, -1e6, 1e6}} {
				if crossed(w, mode, str) {
					t.Errorf("gate %s, mode %s, str %v: a class crossed with str_bound %v", gate, mode, str, w.StrBound)
				}
			}
		}
	}
	// Near 0 the squashed term is λ·Rstr, and it never reaches the bound.
	w := DefaultWeights()
	w.StrBound = 0.085
	if d := w.structural(0.01) - w.Lambda*0.01; math.Abs(d) > 1e-6 {
		t.Errorf("structural(0.01) differs from λ·0.01 by %v", d)
	}
	if v := w.structural(1e9); v > 0.085 || v < 0.084 {
		t.Errorf("structural(1e9) = %v, want just under 0.085", v)
	}
}

func TestValidateStrBound(t *testing.T) {
	w := DefaultWeights()
	w.StrBound = 0.085
	if err := w.Validate(); err != nil {
		t.Errorf("the order bound itself: %v", err)
	}
	for _, c := range []struct {
		bound  float64
		maxCV  float64
		wantIn string
	}{
		{0.2, 0.3, "exceeds 0.085"},
		{-0.1, 0.3, "str_bound = -0.1"},
		{math.NaN(), 0.3, "str_bound = NaN"},
		{0.05, 0, "no bound keeps"},
	} {
		w := DefaultWeights()
		w.StrBound, w.MaxCV = c.bound, c.maxCV
		err := w.Validate()
		if err == nil || !strings.Contains(err.Error(), c.wantIn) {
			t.Errorf("str_bound %v, max_cv %v: error %v, want one containing %q", c.bound, c.maxCV, err, c.wantIn)
		}
	}
}
