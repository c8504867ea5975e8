package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
)

// BenchmarkLintColdOneFile measures what a user waits for: `cudaperf lint
// one.cu` from process start to exit (host start, analyzer plugin start,
// parse, every pass, printing). Target: median ≤ 50 ms (bench/perf/lint.md).
func BenchmarkLintColdOneFile(b *testing.B) {
	exe := lintInstalledB(b)
	dir := filepath.Join(plugintest.ModuleRoot(b), "examples/cmake/src")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(exe, "lint", "--arch", "sm_90", "transpose.cu")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), pluginhost.PathEnv+"=")
		if out, err := cmd.CombinedOutput(); err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 && ee.ExitCode() != 0 {
				b.Fatalf("lint: %v\n%s", err, out)
			}
		}
	}
}

// BenchmarkLintBatchCorpus measures batch throughput: one `cudaperf lint`
// over every CUDA file of the grammar's corpus and the benchmark suites
// (the batch of bench/perf/lint.md, start-up included); b.SetBytes makes
// `go test` print MB/s of CUDA source. Target: ≥ 5 MB/s.
func BenchmarkLintBatchCorpus(b *testing.B) {
	exe := lintInstalledB(b)
	root := plugintest.ModuleRoot(b)
	var size int64
	for _, dir := range []string{"grammar/testdata/corpus", "bench/suites"} {
		_ = filepath.Walk(filepath.Join(root, dir), func(_ string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && filepath.Ext(fi.Name()) == ".cu" {
				size += fi.Size()
			}
			return nil
		})
	}
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(exe, "lint", "--arch", "sm_90", "--format", "json", "grammar/testdata/corpus", "bench/suites")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), pluginhost.PathEnv+"=")
		if out, err := cmd.Output(); err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
				b.Fatalf("lint: %v\n%s", err, out)
			}
		}
	}
}

func lintInstalledB(b *testing.B) string {
	dir := b.TempDir()
	exe := plugintest.BuildGo(b, "cmd/cudaperf", dir)
	plugintest.InstallGo(b, "plugins/analyzer", filepath.Join(dir, "plugins"))
	return exe
}
