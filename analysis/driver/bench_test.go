package driver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

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

func benchDriver(b *testing.B, jobs int) {
	paths, size := benchCorpus(b)
	d, err := New([]*analysis.Analyzer{kernels.Analyzer, occupancy.Analyzer}, Options{Jobs: jobs})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, fr := range d.RunFiles(context.Background(), paths) {
			if !fr.Analyzed {
				b.Fatalf("%s: %v", fr.Path, fr.Errors)
			}
		}
	}
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
