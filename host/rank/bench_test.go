package rank

import (
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user + system CPU time: on a shared machine the
// wall time of a benchmark measures the neighbours, so the training
// benchmark also reports CPU seconds per operation.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchTasks makes tasks with the built-in model's schema and random
// feature values: 100 tasks × 21 variants give 21,000 pairs under the all-
// pairs rule (no tie band), the size the performance target names.
func benchTasks(b *testing.B, schema Schema) []Task {
	rng := rand.New(rand.NewPCG(1, 2))
	var ts []Task
	for t := 0; t < 100; t++ {
		task := Task{Name: fmt.Sprint("t", t), Primary: "p", Configs: []string{"p"}}
		for v := 0; v < 21; v++ {
			vec := Vector{}
			for _, f := range schema {
				if rng.IntN(10) > 0 {
					vec[f.Name] = math.Floor(100 * rng.Float64())
				}
			}
			task.Variants = append(task.Variants, Variant{Name: fmt.Sprint(v), Kernels: []Kernel{{"k", vec}},
				Times: map[string]float64{"p": 1 + float64(v) + rng.Float64()*0.5}})
		}
		ts = append(ts, task)
	}
	return ts
}

// BenchmarkTrain20kPairs trains one MLP (the built-in model's options, one
// member) for a fixed 1000 epochs (no early stopping: the worst case) on
// 21,000 pairs. Run with -cpu 1: training uses one goroutine.
func BenchmarkTrain20kPairs(b *testing.B) {
	m, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	ts := benchTasks(b, m.Schema)
	opt := m.Training.Options
	opt.Ensemble, opt.MaxEpochs, opt.Pairs = 1, 1000, PairRule{All: true}
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		tm, err := Train(m.Schema, ts, nil, opt)
		if err != nil {
			b.Fatal(err)
		}
		if tm.Training.Pairs < 20000 {
			b.Fatalf("%d pairs, want ≥ 20,000", tm.Training.Pairs)
		}
	}
	b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkScoreFile scores one two-kernel file with the built-in model
// (ensemble included): what `rank score` and lint add per file after the
// features are extracted.
func BenchmarkScoreFile(b *testing.B) {
	m, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	ks := benchTasks(b, m.Schema)[0].Variants[0].Kernels
	ks = append(ks, benchTasks(b, m.Schema)[1].Variants[0].Kernels...)
	sc := m.NewScorer()
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		sc.ScoreFile(ks)
	}
	b.ReportMetric(float64((cpuTime()-start).Microseconds())/float64(b.N), "cpu-µs/op")
}
