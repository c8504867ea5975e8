package rank

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"

	"github.com/cudaperf/cudaperf/host/stats"
)

// TaskResult measures a scorer on one task and configuration.
type TaskResult struct {
	Task   string  `json:"task"`
	Config string  `json:"config"`
	N      int     `json:"variants"`
	Rho    float64 `json:"rho"` // Spearman ρ between score and speed (1/time)
	Tau    float64 `json:"tau"` // Kendall τ-b between score and speed
	// Acc is the fraction of top-vs-bottom-quartile pairs the scorer
	// orders correctly (a tie counts one half); Pairs is their number.
	Acc   float64 `json:"pair_accuracy"`
	Pairs int     `json:"pairs"`
}

// PrimaryOnly makes Evaluate measure the primary configuration only.
const PrimaryOnly = -1

// Evaluate measures score on each task: on its primary configuration when
// minMs is PrimaryOnly, else on every configuration whose fastest variant
// runs at least minMs (faster ones time the launch, not the kernel).
func Evaluate(tasks []Task, score func(Variant) float64, minMs float64) []TaskResult {
	var out []TaskResult
	for _, t := range tasks {
		configs := []string{t.Primary}
		if minMs != PrimaryOnly {
			configs = t.Configs
		}
		for _, c := range configs {
			idx := t.timed(c)
			if len(idx) < 2 || (minMs != PrimaryOnly && t.Variants[idx[0]].Times[c] < minMs) {
				continue
			}
			s := make([]float64, len(t.Variants))
			for i, v := range t.Variants {
				s[i] = score(v.atConfig(c))
			}
			sc, speed := make([]float64, len(idx)), make([]float64, len(idx))
			for k, i := range idx {
				sc[k], speed[k] = s[i], -t.Variants[i].Times[c]
			}
			r := TaskResult{Task: t.Name, Config: c, N: len(idx), Rho: rhoOrZero(sc, speed), Tau: KendallTauB(sc, speed)}
			var right float64
			ps := t.Pairs(c, PairRule{})
			for _, p := range ps {
				switch d := s[p.Fast] - s[p.Slow]; {
				case d > 0:
					right++
				case d == 0:
					right += 0.5
				}
			}
			r.Pairs = len(ps)
			if len(ps) > 0 {
				r.Acc = right / float64(len(ps))
			}
			out = append(out, r)
		}
	}
	return out
}

// Spearman is the rank correlation of x and y (ties get their mean rank);
// ok is false when either has no spread.
func Spearman(x, y []float64) (rho float64, ok bool) {
	c := stat.Correlation(ranks(x), ranks(y), nil)
	if math.IsNaN(c) || math.IsInf(c, 0) {
		return 0, false
	}
	return c, true
}

// rhoOrZero is Spearman with 0 for no spread: a scorer that cannot tell
// a task's variants apart ranks them no better than chance.
func rhoOrZero(x, y []float64) float64 {
	r, _ := Spearman(x, y)
	return r
}

func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}

// KendallTauB is Kendall's τ-b (ties in either variable corrected); 0 when
// either is constant. (gonum's stat.Kendall is τ-a and counts ties as
// concordant, which would reward a constant scorer.)
func KendallTauB(x, y []float64) float64 {
	var conc, disc, tx, ty float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
			case dx == 0:
				tx++
			case dy == 0:
				ty++
			case (dx > 0) == (dy > 0):
				conc++
			default:
				disc++
			}
		}
	}
	den := math.Sqrt((conc + disc + tx) * (conc + disc + ty))
	if den == 0 {
		return 0
	}
	return (conc - disc) / den
}

// CI is a mean with its 95% bootstrap interval.
type CI struct {
	Mean float64 `json:"mean"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	// N is the number of values (tasks) it rests on; 0 means no value, and
	// the zeros above mean nothing (no task had the metric).
	N int `json:"n"`
}

// Summary is a scorer's result over tasks: the mean over tasks of each
// metric with a 95% bootstrap interval (tasks resampled), and the pair
// accuracy pooled over all pairs.
type Summary struct {
	Tasks     int     `json:"tasks"`
	Rho       CI      `json:"rho"`
	Tau       CI      `json:"tau"`
	Acc       CI      `json:"pair_accuracy"`
	PooledAcc float64 `json:"pooled_pair_accuracy"`
	Pairs     int     `json:"pairs"`
	// DataHash is Hash of the tasks the figures were computed on, where
	// they were recorded into a model: figures whose data has changed
	// since (a suite that grew) no longer describe the split.
	DataHash string `json:"data_hash,omitempty"`
}

// BootstrapRounds is the number of resamples behind every interval.
const BootstrapRounds = 10000

// ByTask averages the results of each task over its configurations, so
// every task weighs the same; the order is by task name.
func ByTask(rs []TaskResult) []TaskResult {
	agg := map[string]*TaskResult{}
	n, nAcc := map[string]float64{}, map[string]float64{}
	var order []string
	for _, r := range rs {
		a := agg[r.Task]
		if a == nil {
			a = &TaskResult{Task: r.Task, Config: r.Config}
			agg[r.Task] = a
			order = append(order, r.Task)
		} else {
			a.Config = "*"
		}
		a.N = max(a.N, r.N)
		a.Rho += r.Rho
		a.Tau += r.Tau
		if r.Pairs > 0 { // a configuration without pairs has no accuracy
			a.Acc += r.Acc
			nAcc[r.Task]++
		}
		a.Pairs += r.Pairs
		n[r.Task]++
	}
	sort.Strings(order)
	out := make([]TaskResult, 0, len(order))
	for _, t := range order {
		a := *agg[t]
		a.Rho /= n[t]
		a.Tau /= n[t]
		if nAcc[t] > 0 {
			a.Acc /= nAcc[t]
		}
		out = append(out, a)
	}
	return out
}

// Summarize bootstraps the per-task results (one per task: see ByTask).
func Summarize(rs []TaskResult, seed uint64) Summary {
	s := Summary{Tasks: len(rs)}
	var right float64
	for _, r := range rs {
		right += r.Acc * float64(r.Pairs)
		s.Pairs += r.Pairs
	}
	if s.Pairs > 0 {
		s.PooledAcc = right / float64(s.Pairs)
	}
	s.Rho = Bootstrap(metric(rs, rho), seed)
	s.Tau = Bootstrap(metric(rs, tau), seed)
	s.Acc = Bootstrap(metric(rs, acc), seed)
	return s
}

// Metric picks one number of a TaskResult.
type Metric func(TaskResult) float64

func rho(r TaskResult) float64 { return r.Rho }
func tau(r TaskResult) float64 { return r.Tau }

// acc is NaN for a task with no pair (its variants' times all within the
// pair rule's band): no evidence either way, left out of means rather than
// counted as always wrong.
func acc(r TaskResult) float64 {
	if r.Pairs == 0 {
		return math.NaN()
	}
	return r.Acc
}

// Metrics by name, for reports.
var Metrics = map[string]Metric{"rho": rho, "tau": tau, "pair_accuracy": acc}

// metric is f of each task, the tasks f has no value for (NaN) left out.
func metric(rs []TaskResult, f Metric) []float64 {
	out := make([]float64, 0, len(rs))
	for _, r := range rs {
		if x := f(r); !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

// Bootstrap is the mean of xs with the 2.5 and 97.5 percentiles of the
// means of BootstrapRounds resamples (with replacement), for a seed.
func Bootstrap(xs []float64, seed uint64) CI {
	return bootstrap(len(xs), func(idx []int) float64 {
		var s float64
		for _, i := range idx {
			s += xs[i]
		}
		return s / float64(len(idx))
	}, seed)
}

// PairedBootstrap is the mean difference a − b of a metric over the same
// tasks (a[i] and b[i] must be the same task), with the interval from
// resampling tasks: the two scorers always see the same resample.
func PairedBootstrap(a, b []TaskResult, f Metric, seed uint64) CI {
	d := make([]float64, 0, len(a))
	for i := range a {
		if x := f(a[i]) - f(b[i]); !math.IsNaN(x) { // a task f has no value for
			d = append(d, x)
		}
	}
	return Bootstrap(d, seed)
}

func bootstrap(n int, stat func(idx []int) float64, seed uint64) CI {
	if n == 0 {
		return CI{}
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	ci := CI{Mean: stat(all), N: n}
	ci.Lo, ci.Hi = stats.Bootstrap(n, BootstrapRounds, 0.95, seed, stat)
	return ci
}
