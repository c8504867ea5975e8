package grammar_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"

	"github.com/cudaperf/cudaperf/grammar"
)

// cpuTime is the CPU time (user + system) this process has used. On a
// shared machine the wall-clock MB/s that testing reports depends on the
// load; MB per CPU-second of the parsing thread does much less, so the
// benchmarks report both (as MB/s and cpu-MB/s).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPUThroughput adds the cpu-MB/s metric for b.N passes over total bytes.
func reportCPUThroughput(b *testing.B, start time.Duration, total int64) {
	if used := cpuTime(b) - start; used > 0 {
		b.ReportMetric(float64(total)*float64(b.N)/1e6/used.Seconds(), "cpu-MB/s")
	}
}

func loadCorpus(b *testing.B) ([][]byte, int64) {
	b.Helper()
	var srcs [][]byte
	var total int64
	for _, f := range corpusFiles(b) {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	if len(srcs) == 0 {
		b.Fatal("empty corpus")
	}
	return srcs, total
}

// BenchmarkParseCorpus is parse throughput over the whole corpus through
// Parse (a new parser per file, as one-shot callers do). Target: >= 10 MB/s
// on one core; numbers in bench/perf/parse.md.
//
//	go test ./grammar -run '^$' -bench ParseCorpus -cpu 1 -count 5
func BenchmarkParseCorpus(b *testing.B) {
	srcs, total := loadCorpus(b)
	ctx := context.Background()
	b.SetBytes(total)
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		for _, src := range srcs {
			tree, err := grammar.Parse(ctx, src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
		}
	}
	reportCPUThroughput(b, start, total)
}

// BenchmarkParseCorpusReuse reuses one parser for all files, as a linter
// walking many files does.
func BenchmarkParseCorpusReuse(b *testing.B) {
	srcs, total := loadCorpus(b)
	p, err := grammar.NewParser()
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	b.SetBytes(total)
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		for _, src := range srcs {
			tree, err := p.ParseCtx(ctx, nil, src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
		}
	}
	reportCPUThroughput(b, start, total)
}

// BenchmarkParseAndListErrors adds the syntax-error walk that `cudaperf parse
// --check` and the linter do after each parse.
func BenchmarkParseAndListErrors(b *testing.B) {
	srcs, total := loadCorpus(b)
	ctx := context.Background()
	b.SetBytes(total)
	start := cpuTime(b)
	for b.Loop() {
		for _, src := range srcs {
			tree, err := grammar.Parse(ctx, src)
			if err != nil {
				b.Fatal(err)
			}
			if errs := grammar.SyntaxErrors(tree.RootNode(), src); len(errs) != 0 {
				b.Fatalf("corpus file has syntax errors: %+v", errs[0])
			}
			tree.Close()
		}
	}
	reportCPUThroughput(b, start, total)
}

// BenchmarkReferenceGoGrammar parses this package's Go files with smacker's
// Go grammar: a machine-speed reference measured next to the CUDA numbers,
// so that bench/perf/parse.md can say how fast the machine itself was.
func BenchmarkReferenceGoGrammar(b *testing.B) {
	files, _ := filepath.Glob("*.go")
	var srcs [][]byte
	var total int64
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(golang.GetLanguage())
	ctx := context.Background()
	b.SetBytes(total)
	start := cpuTime(b)
	for b.Loop() {
		for _, src := range srcs {
			tree, err := p.ParseCtx(ctx, nil, src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
		}
	}
	reportCPUThroughput(b, start, total)
}
