package ablation

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/cudaperf/cudaperf/host/grpo"
)

// PlanRow is the minimum detectable effect of one comparison on one metric
// of one side, over simulated ablations.
type PlanRow struct {
	Side, Metric, A, B string
	// MDE's median and 10th/90th percentiles over the simulations.
	Median, P10, P90 float64
}

// Plan estimates, before any run, the smallest difference the design can
// detect (80% power, α = 0.05: the report's MDE) for each comparison the
// report makes. It simulates ablations in which every mode has the same
// true per-task behaviour, estimated from base[side] (an evaluation of the
// start checkpoint). Each simulation draws every task's true correct rate
// once from its Jeffreys posterior, Beta(c + ½, n − c + ½) for c correct of
// n base samples (a task with 0 of 4 correct may well be right 10% of the
// time, and a resampling of its 4 failures would never say so); then each
// run's evaluation samples eval.n answers per task at that rate, a correct
// one with the speed of one of the task's correct base samples (its known
// variants' geomean when it had none). The report's paired two-way
// bootstrap then gives the MDE. The simulated modes differ only by
// sampling noise, as they would if the reward made no difference; training
// noise on top of it (seeds that learn differently) makes the real MDE
// larger, so this is a lower bound. sims simulations, each with B
// bootstrap resamples.
func Plan(c *Config, base map[string]*grpo.EvalReport, sims, B int, seed uint64) ([]PlanRow, error) {
	var rows []PlanRow
	metrics := reportMetrics(c)
	pairs := comparedPairs(c.Modes)
	if len(pairs) == 0 {
		return nil, fmt.Errorf("ablation: plan: modes %v: nothing is compared (the report compares both, random, ver and str)", c.Modes)
	}
	rng := rand.New(rand.NewPCG(seed, 0x91a2))
	for _, side := range c.Eval.Sides {
		rep := base[side]
		if rep == nil {
			continue
		}
		for _, te := range rep.Tasks {
			if n := countCorrect(te); n != te.Correct || len(te.Speedups) != te.N || te.N == 0 {
				return nil, fmt.Errorf("ablation: plan: base evaluation of %s, task %s: %d samples with %d speedups, %d correct but %d with a speedup: give a `cudaperf eval --out` report",
					side, te.Task, te.N, len(te.Speedups), te.Correct, n)
			}
		}
		mdes := map[string][]float64{} // metric|A|B → one per simulation
		for range sims {
			rates := make([]float64, len(rep.Tasks))
			for i, te := range rep.Tasks {
				rates[i] = distuv.Beta{Alpha: float64(te.Correct) + 0.5, Beta: float64(te.N-te.Correct) + 0.5, Src: rng}.Rand()
			}
			tables := map[string]*Table{}
			for _, m := range metrics {
				tables[m] = &Table{Metric: m, Modes: c.Modes, Seeds: c.Seeds, Values: map[string][][]float64{}}
			}
			for _, mode := range c.Modes {
				for range c.Seeds {
					sim := make([]grpo.TaskEval, len(rep.Tasks))
					for i, te := range rep.Tasks {
						sim[i] = simulateTask(rng, te, rates[i], c.Eval.N)
					}
					for _, m := range metrics {
						row := make([]float64, len(sim))
						for i, te := range sim {
							row[i] = perTask(m, te)
						}
						tables[m].Values[mode] = append(tables[m].Values[mode], row)
					}
				}
			}
			for _, m := range metrics {
				tables[m].Tasks = make([]string, len(rep.Tasks))
				for _, p := range pairs {
					cmp := tables[m].Compare(p[0], p[1], B, rng.Uint64())
					k := m + "|" + p[0] + "|" + p[1]
					mdes[k] = append(mdes[k], cmp.MDE)
				}
			}
		}
		for _, m := range metrics {
			for _, p := range pairs {
				v := mdes[m+"|"+p[0]+"|"+p[1]]
				slices.Sort(v)
				q := func(f float64) float64 { return v[int(f*float64(len(v)-1)+0.5)] }
				rows = append(rows, PlanRow{Side: side, Metric: m, A: p[0], B: p[1], Median: q(0.5), P10: q(0.1), P90: q(0.9)})
			}
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("ablation: plan: no base evaluation for the sides %v", c.Eval.Sides)
	}
	return rows, nil
}

// reportMetrics are the report's metrics: pass@k and speedup@k per k.
func reportMetrics(c *Config) []string {
	var ms []string
	for _, k := range c.Eval.K {
		ms = append(ms, fmt.Sprintf("pass@%d", k))
	}
	for _, k := range c.Eval.K {
		ms = append(ms, fmt.Sprintf("speedup@%d", k))
	}
	return ms
}

// comparedPairs are the report's paired comparisons among the modes given:
// the reward modes among themselves, then each against the start (when
// StartMode is among them).
func comparedPairs(modes []string) [][2]string {
	var out [][2]string
	for _, p := range [][2]string{{"both", "random"}, {"both", "ver"}, {"random", "ver"}, {"str", "ver"}} {
		if slices.Contains(modes, p[0]) && slices.Contains(modes, p[1]) {
			out = append(out, p)
		}
	}
	if slices.Contains(modes, StartMode) {
		for _, m := range modes {
			if m != StartMode {
				out = append(out, [2]string{m, StartMode})
			}
		}
	}
	return out
}

func countCorrect(te grpo.TaskEval) int {
	n := 0
	for _, s := range te.Speedups {
		if s > 0 {
			n++
		}
	}
	return n
}

// simulateTask draws n answers to a task that is correct at the given
// rate; a correct answer has the speed of one of te's correct samples, or
// the task's baseline (1× when unknown) when te had none.
func simulateTask(rng *rand.Rand, te grpo.TaskEval, rate float64, n int) grpo.TaskEval {
	var speeds []float64
	for _, s := range te.Speedups {
		if s > 0 {
			speeds = append(speeds, s)
		}
	}
	if len(speeds) == 0 {
		speeds = []float64{max(1, te.Baseline)}
	}
	out := grpo.TaskEval{Task: te.Task, Side: te.Side, N: n, Baseline: te.Baseline, Best: te.Best, Speedups: make([]float64, n)}
	for i := range out.Speedups {
		if rng.Float64() < rate {
			out.Speedups[i] = speeds[rng.IntN(len(speeds))]
			out.Correct++
		}
	}
	return out
}

// WritePlan prints the plan as Markdown.
func WritePlan(w io.Writer, c *Config, rows []PlanRow, bases map[string]string, reps map[string]*grpo.EvalReport, sims int, command string) {
	fmt.Fprintf(w, "# Reward ablation %s: what the design can detect, before the runs\n\n", c.Name)
	fmt.Fprintf(w, "Generated by `%s`; do not edit by hand.\n\n", command)
	b := c.base
	fmt.Fprintf(w, "Design: modes %s × seeds %v, %d steps × %d tasks × G = %d × T = %d; evaluation %d samples per task. Primary metric: %s on the %s side.\n\n",
		strings.Join(c.Modes, ", "), c.Seeds, b.Steps, b.Batch, b.Group, b.Turns, c.Eval.N, c.Primary.Metric, c.Primary.Side)
	fmt.Fprintf(w, "Minimum detectable difference (80%% power, α = 0.05 two-sided: 2.80 × the report's paired two-way bootstrap SE) in %d simulated ablations where every mode behaves like the start checkpoint: each simulation draws every task's true correct rate from its Jeffreys posterior given the checkpoint's evaluation (below), and every run samples its evaluation at those rates, a correct answer as fast as one of the task's correct samples there (its known variants' geomean if it had none). So the modes differ by sampling noise only; training noise adds to it: read these as lower bounds.\n\n", sims)
	var sides []string
	for s := range bases {
		sides = append(sides, s)
	}
	slices.Sort(sides)
	for _, s := range sides {
		fmt.Fprintf(w, "- %s side: `%s`", s, bases[s])
		if r := reps[s]; r != nil {
			n := 0
			if len(r.Tasks) > 0 {
				n = r.Tasks[0].N
			}
			fmt.Fprintf(w, " (%s, %s: %d tasks × %d samples)", r.Policy, r.Model, len(r.Tasks), n)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n| side | metric | comparison | MDE, median [10%%, 90%%] |\n|---|---|---|---|\n")
	for _, r := range rows {
		primary := ""
		if r.Side == c.Primary.Side && r.Metric == c.Primary.Metric {
			primary = " (primary)"
		}
		fmt.Fprintf(w, "| %s | %s%s | %s − %s | %s [%s, %s] |\n", r.Side, r.Metric, primary, r.A, r.B,
			fmtMDE(r.Metric, r.Median), fmtMDE(r.Metric, r.P10), fmtMDE(r.Metric, r.P90))
	}
}
