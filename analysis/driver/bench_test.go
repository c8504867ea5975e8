package driver

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/passes/occupancy"
)

// benchCorpus is the grammar's corpus of realistic CUDA files plus the
// benchmark suites' kernels: real code of the sizes users lint.
func benchCorpus(b *testing.B) (paths []string, size int64) {
	b.Helper()
	for _, pat := range []string{"../../grammar/testdata/corpus/*.cu", "../../bench/suites/*/*/variants/*.cu"} {
		m, _ := filepath.Glob(pat)
		paths = append(paths, m...)
	}
	if len(paths) == 0 {
		b.Skip("no corpus files found (grammar/testdata/corpus)")
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

// cpuTime is the process's user+system CPU time. The development machine
// is shared, so wall-clock MB/s varies with the load; MB per CPU-second
// (reported as MB/cpu-s) is the work's own cost.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration, size int64) {
	if d := cpuTime() - start; d > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/d.Seconds()/1e6, "MB/cpu-s")
	}
}

func benchDriver(b *testing.B, jobs int) {
	paths, size := benchCorpus(b)
	d, err := New([]*analysis.Analyzer{kernels.Analyzer, occupancy.Analyzer}, Options{Jobs: jobs})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, fr := range d.RunFiles(context.Background(), paths) {
			if !fr.Analyzed {
				b.Fatalf("%s: %v", fr.Path, fr.Errors)
			}
		}
	}
	reportCPU(b, start, size)
	b.ReportMetric(float64(len(paths)), "files/op")
}

// BenchmarkDriverBatch is batch throughput (MB/s of CUDA source) with one
// worker per CPU.
func BenchmarkDriverBatch(b *testing.B) { benchDriver(b, 0) }

// BenchmarkDriverSerial is the same work on one worker.
func BenchmarkDriverSerial(b *testing.B) { benchDriver(b, 1) }

// BenchmarkParseOnly is the parse alone, the floor under the passes.
func BenchmarkParseOnly(b *testing.B) {
	paths, size := benchCorpus(b)
	srcs := make([][]byte, len(paths))
	for i, p := range paths {
		srcs[i], _ = os.ReadFile(p)
	}
	b.SetBytes(size)
	b.ResetTimer()
	start := cpuTime()
	defer func() { reportCPU(b, start, size) }()
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			f, err := analysis.ParseFile(context.Background(), paths[j], src)
			if err != nil {
				b.Fatal(err)
			}
			f.Tree.Close()
		}
	}
}
