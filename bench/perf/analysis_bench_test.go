package perf

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/driver"
	"github.com/cudaperf/cudaperf/analysis/passes"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/passes/occupancy"
)

// corpus is the grammar's corpus of realistic CUDA files plus the
// benchmark suites' kernels.
func corpus(b *testing.B) (paths []string, size int64) {
	b.Helper()
	for _, pat := range []string{"../../grammar/testdata/corpus/*.cu", "../suites/*/*/variants/*.cu"} {
		m, _ := filepath.Glob(pat)
		paths = append(paths, m...)
	}
	if len(paths) == 0 {
		b.Skip("no corpus files")
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	return paths, size
}

// cpuTime is the process's user+system CPU time: the development machine
// is shared, so wall-clock MB/s moves with the load while MB per CPU-second
// (MB/cpu-s) is the work's own cost.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func run(b *testing.B, as []*analysis.Analyzer, jobs int) {
	paths, size := corpus(b)
	d, err := driver.New(as, driver.Options{Jobs: jobs})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, fr := range d.RunFiles(context.Background(), paths) {
			if !fr.Analyzed {
				b.Fatalf("%s: %v", fr.Path, fr.Errors)
			}
		}
	}
	if cpu := cpuTime() - start; cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
	b.ReportMetric(float64(len(paths)), "files/op")
}

// BenchmarkDriverBatch is the driver's own cost with only the discovery and
// occupancy passes, one worker per CPU.
func BenchmarkDriverBatch(b *testing.B) {
	run(b, []*analysis.Analyzer{kernels.Analyzer, occupancy.Analyzer}, 0)
}

// BenchmarkDriverSerial is the same work on one worker.
func BenchmarkDriverSerial(b *testing.B) {
	run(b, []*analysis.Analyzer{kernels.Analyzer, occupancy.Analyzer}, 1)
}

// BenchmarkParseOnly is the parse alone, the floor under the passes.
func BenchmarkParseOnly(b *testing.B) {
	paths, size := corpus(b)
	srcs := make([][]byte, len(paths))
	for i, p := range paths {
		srcs[i], _ = os.ReadFile(p)
	}
	b.SetBytes(size)
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			f, err := analysis.ParseFile(context.Background(), paths[j], src)
			if err != nil {
				b.Fatal(err)
			}
			f.Tree.Close()
		}
	}
	if cpu := cpuTime() - start; cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}

// BenchmarkLintAllPasses is the batch throughput of every built-in pass
// (passes.All) over the corpus, one worker per CPU.
func BenchmarkLintAllPasses(b *testing.B) { run(b, passes.All(), 0) }

// BenchmarkLintAllPassesSerial is the same on one worker.
func BenchmarkLintAllPassesSerial(b *testing.B) { run(b, passes.All(), 1) }
