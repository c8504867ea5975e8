package grpo

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/host/reward"
)

// Rescored with the run's own mode and weights, a real run's records come
// back as the trainer wrote them: the reconstruction of trajectories,
// returns and groups is the trainer's. (Rollouts of the H200's reward
// ablation, committed with its results: both-s2 step 1 and ver-s2 step 6,
// 8 tasks x G 8 x T 2, discount 0.8, the default weights.)
func TestRescoreReproducesARun(t *testing.T) {
	for _, c := range []struct {
		file string
		mode reward.Mode
	}{
		{"both-s2/rollouts/step-000001.jsonl.gz", reward.ModeBoth},
		{"ver-s2/rollouts/step-000006.jsonl.gz", reward.ModeVer},
	} {
		recs, err := ReadRollouts(filepath.Join("..", "..", "bench", "h200", "2026-12-03-lease6", "ablation", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 128 {
			t.Fatalf("%s: %d records, want 128", c.file, len(recs))
		}
		got, err := Rescore(recs, c.mode, reward.DefaultWeights(), 0.8)
		if err != nil {
			t.Fatal(err)
		}
		for i := range recs {
			w, g := recs[i], got[i]
			if math.Abs(w.Reward.Total-g.Reward.Total) > 1e-9 || math.Abs(w.Return-g.Return) > 1e-9 ||
				math.Abs(w.Advantage-g.Advantage) > 1e-9 || w.Used != g.Used || math.Abs(w.Reward.StrUsed-g.Reward.StrUsed) > 1e-12 {
				t.Fatalf("%s record %d (group %s, member %d, turn %d): recorded total %v return %v advantage %v used %v; rescored %v %v %v %v",
					c.file, i, w.Group, w.Member, w.Turn, w.Reward.Total, w.Return, w.Advantage, w.Used,
					g.Reward.Total, g.Return, g.Advantage, g.Used)
			}
		}
	}
}

// By hand: two members, two turns, discount 0.5. Member 0 compiles wrong
// code at turn 0 (Rver −0.8, Rstr −3) and fails to compile at turn 1;
// member 1 fails at turn 0 and is correct at turn 1 (Rver 0.5, Rstr 1).
func TestRescoreByHand(t *testing.T) {
	s := func(v float64) *float64 { return &v }
	recs := []RolloutRecord{
		{Step: 1, Turn: 0, Member: 0, Group: "a:s1:b0:t0", HasCode: true, Compiled: true, Failed: 2, Total: 2, Reward: reward.Scored{Ver: -0.8}, Str: s(-3)},
		{Step: 1, Turn: 0, Member: 1, Group: "a:s1:b0:t0", HasCode: true, Reward: reward.Scored{Ver: -1}, Str: s(5)},
		{Step: 1, Turn: 1, Member: 0, Group: "a:s1:b0:t1", HasCode: true, Reward: reward.Scored{Ver: -1}, Str: s(2)},
		{Step: 1, Turn: 1, Member: 1, Group: "a:s1:b0:t1", HasCode: true, Compiled: true, Total: 2, Reward: reward.Scored{Ver: 0.5}, Str: s(1)},
	}
	w := reward.DefaultWeights()
	got, err := Rescore(recs, reward.ModeBoth, w, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	// Unbounded: totals −0.8 − 0.6 = −1.4, −1 (not compiled: no term), −1, 0.5 + 0.2.
	want := []float64{-1.4, -1, -1, 0.7}
	for i, g := range got {
		if math.Abs(g.Reward.Total-want[i]) > 1e-12 {
			t.Errorf("record %d: total %v, want %v", i, g.Reward.Total, want[i])
		}
	}
	// Returns: member 0: −1.4 + 0.5·(−1) = −1.9; member 1: −1 + 0.5·0.7 = −0.65.
	// Two values per group: advantages ±1, the larger return +1.
	if math.Abs(got[0].Return+1.9) > 1e-12 || math.Abs(got[1].Return+0.65) > 1e-12 ||
		math.Abs(got[0].Advantage+1) > 1e-12 || math.Abs(got[1].Advantage-1) > 1e-12 || !got[0].Used {
		t.Errorf("turn 0: returns %v, %v advantages %v, %v", got[0].Return, got[1].Return, got[0].Advantage, got[1].Advantage)
	}
	// Bounded at 0.085, member 0's compiled wrong code scores above a
	// failure again: −0.8 − 0.085·tanh(0.6/0.085).
	w.StrBound = 0.085
	got, err = Rescore(recs, reward.ModeBoth, w, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if v := got[0].Reward.Total; v <= -1 || math.Abs(v-(-0.8-0.085*math.Tanh(0.6/0.085))) > 1e-12 {
		t.Errorf("bounded: total %v", v)
	}
	// ver ignores Rstr.
	got, _ = Rescore(recs, reward.ModeVer, reward.DefaultWeights(), 0.5)
	if got[0].Reward.Total != -0.8 || got[3].Reward.StrUsed != 0 {
		t.Errorf("ver: %+v", got[0].Reward)
	}
	// A trajectory missing a turn, and a mode the records cannot give.
	if _, err := Rescore(recs[2:], reward.ModeBoth, reward.DefaultWeights(), 0.5); err == nil || !strings.Contains(err.Error(), "no record of turn 0") {
		t.Errorf("missing turn: %v", err)
	}
	if _, err := Rescore(recs, reward.ModeRandom, reward.DefaultWeights(), 0.5); err == nil || !strings.Contains(err.Error(), "only ver and both") {
		t.Errorf("random: %v", err)
	}
}
