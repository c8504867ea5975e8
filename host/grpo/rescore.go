package grpo

import (
	"fmt"
	"math"
	"slices"

	"github.com/cudaperf/cudaperf/host/reward"
)

// Rescore recomputes recorded rollouts' rewards, returns and advantages
// under another structural term: what a run's training signal would have
// been, from its records alone (no GPU, no policy). Each candidate keeps
// its recorded Rver and real Rstr; mode is ver or both (random's draws and
// str's scale are not in the records). The returns and group advantages
// are the trainer's (Returns, GroupAdvantages), over the records'
// trajectories: the turns of one member of one (step, task) group. Every
// trajectory must have every turn up to its last, as the trainer writes
// them.
func Rescore(recs []RolloutRecord, mode reward.Mode, w reward.Weights, discount float64) ([]RolloutRecord, error) {
	if mode != reward.ModeVer && mode != reward.ModeBoth {
		return nil, fmt.Errorf("grpo: rescore: mode %s: only ver and both can be recomputed from records (random's draws and str's candidates without a score are not in them)", mode)
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	out := slices.Clone(recs)
	type trajKey struct {
		step   int64
		group  string // without the turn suffix
		member int
	}
	type groupKey struct {
		step  int64
		group string
	}
	trajs := map[trajKey][]int{}
	groups := map[groupKey][]int{}
	for i := range out {
		r := &out[i]
		r.Reward.Total, r.Reward.StrUsed = r.Reward.Ver, 0
		if mode == reward.ModeBoth {
			str := math.NaN()
			if r.Str != nil {
				str = *r.Str
			}
			o := reward.Outcome{HasCode: r.HasCode, Compiled: r.Compiled, Failed: r.Failed, Total: r.Total}
			used, term := w.StrTerm(o, str)
			r.Reward.StrUsed, r.Reward.Total = used, r.Reward.Ver+term
		}
		k := trajKey{r.Step, trajectoryName(r.Group), r.Member}
		for len(trajs[k]) <= r.Turn {
			trajs[k] = append(trajs[k], -1)
		}
		trajs[k][r.Turn] = i
		gk := groupKey{r.Step, r.Group}
		groups[gk] = append(groups[gk], i)
	}
	for k, idx := range trajs {
		rewards := make([]float64, len(idx))
		for t, i := range idx {
			if i < 0 {
				return nil, fmt.Errorf("grpo: rescore: step %d, group %s, member %d has no record of turn %d (rollouts of a run are expected whole)", k.step, k.group, k.member, t)
			}
			rewards[t] = out[i].Reward.Total
		}
		for t, g := range Returns([][]float64{rewards}, discount)[0] {
			out[idx[t]].Return = g
		}
	}
	for _, idx := range groups {
		col := make([]float64, len(idx))
		for j, i := range idx {
			col[j] = out[i].Return
		}
		adv, ok := GroupAdvantages(col)
		for j, i := range idx {
			out[i].Used, out[i].Advantage = ok, 0
			if ok {
				out[i].Advantage = adv[j]
			}
		}
	}
	return out, nil
}
