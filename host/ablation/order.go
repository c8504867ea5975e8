package ablation

import (
	"fmt"
	"io"

	"github.com/cudaperf/cudaperf/host/grpo"
)

// ClassOrder says, over a run's training candidates, whether the
// structural term kept the reward's outcome classes in order. The
// defaults (reward.DefaultWeights) put a compile failure (−αc) below
// compiled but wrong code (at least −αt); Rver + λ·Rstr reverses that for
// a compiled candidate whose λ·Rstr is below −(αc − αt). When that happens
// often, compiling stops paying and the group's advantage follows the
// ranker (or, in the random control, noise) instead: in the runs of
// 2026-12-03 with the structural term, half the compiled candidates
// scored below a compile failure and their mean advantage fell from about
// +1 (ver) to about +0.1.
type ClassOrder struct {
	// Compiled counts the candidates that compiled; Below those of them
	// whose total reward is below a compile failure's.
	Compiled, Below int
	// Wrong counts the compiled candidates that were not correct;
	// WrongReward is their mean total reward.
	Wrong       int
	WrongReward float64
	// AdvCompiled and AdvOther are the mean advantages of the candidates
	// sent to Update (zero-variance groups are not) that compiled and
	// that did not; NCompiled and NOther count them.
	AdvCompiled, AdvOther float64
	NCompiled, NOther     int
}

// orderOf summarises one run's rollouts; compile is αc, the magnitude of
// the compile-failure reward.
func orderOf(recs []grpo.RolloutRecord, compile float64) ClassOrder {
	var o ClassOrder
	for _, r := range recs {
		if r.Compiled {
			o.Compiled++
			if r.Reward.Total < -compile {
				o.Below++
			}
			if !r.Correct {
				o.Wrong++
				o.WrongReward += r.Reward.Total
			}
		}
		if !r.Used {
			continue
		}
		if r.Compiled {
			o.NCompiled++
			o.AdvCompiled += r.Advantage
		} else {
			o.NOther++
			o.AdvOther += r.Advantage
		}
	}
	if o.Wrong > 0 {
		o.WrongReward /= float64(o.Wrong)
	}
	if o.NCompiled > 0 {
		o.AdvCompiled /= float64(o.NCompiled)
	}
	if o.NOther > 0 {
		o.AdvOther /= float64(o.NOther)
	}
	return o
}

// add pools another run's counts and means into o.
func (o *ClassOrder) add(p ClassOrder) {
	mean := func(a float64, na int, b float64, nb int) float64 {
		if na+nb == 0 {
			return 0
		}
		return (a*float64(na) + b*float64(nb)) / float64(na+nb)
	}
	o.WrongReward = mean(o.WrongReward, o.Wrong, p.WrongReward, p.Wrong)
	o.AdvCompiled = mean(o.AdvCompiled, o.NCompiled, p.AdvCompiled, p.NCompiled)
	o.AdvOther = mean(o.AdvOther, o.NOther, p.AdvOther, p.NOther)
	o.Compiled += p.Compiled
	o.Below += p.Below
	o.Wrong += p.Wrong
	o.NCompiled += p.NCompiled
	o.NOther += p.NOther
}

// writeOrder is the results page's table of ClassOrder per mode, every
// seed's rollouts pooled.
func (r *Results) writeOrder(w io.Writer) {
	c := r.Config
	rw := c.base.Reward.Weights
	fmt.Fprintf(w, "\nDoes the structural term outrank compiling? The defaults put a compile failure (Rver = %.3g) below compiled but wrong code (Rver ≥ %.3g); Rver + λ·Rstr reverses that for a compiled candidate with λ·Rstr < %.3g. Over the training candidates of every seed's run (advantages of the candidates sent to Update):\n\n| mode | compiled candidates | scored below a compile failure | mean reward, compiled and wrong | mean advantage, compiled / not compiled |\n|---|---|---|---|---|\n",
		-rw.Compile, -rw.Tests, rw.Tests-rw.Compile)
	if rw.StrBound > 0 { // Validate holds it to OrderBound
		fmt.Fprintf(w, "(Here str_bound = %g keeps every class in order, so the count below is 0 by construction.)\n\n", rw.StrBound)
	}
	for _, mode := range c.Modes {
		var o ClassOrder
		for _, p := range r.Orders[mode] {
			o.add(p)
		}
		if o.Compiled == 0 {
			fmt.Fprintf(w, "| %s | 0 | — | — | — |\n", mode)
			continue
		}
		wrong := "—"
		if o.Wrong > 0 {
			wrong = fmt.Sprintf("%+.3f", o.WrongReward)
		}
		fmt.Fprintf(w, "| %s | %d | %d (%.0f%%) | %s | %+.2f / %+.2f |\n", mode, o.Compiled, o.Below,
			100*float64(o.Below)/float64(o.Compiled), wrong, o.AdvCompiled, o.AdvOther)
	}
}
