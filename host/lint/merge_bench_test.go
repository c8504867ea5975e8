package lint_test

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/host/config"
	"github.com/cudaperf/cudaperf/host/lint"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	"github.com/cudaperf/cudaperf/host/report"
)

// BenchmarkMergeAndWrite is the host's serial tail of a lint batch: after
// the last plugin answer, Merge (suppressions, config, feature vectors,
// sort) and the JSON report. The answer is the real analyzer plugin's over
// the grammar corpus and the benchmark suites (built once, outside the
// timing). On many cores this tail is a visible part of the wall time
// (bench/perf/lint.md).
//
//	go test ./host/lint -run '^$' -bench MergeAndWrite -benchtime 20x
func BenchmarkMergeAndWrite(b *testing.B) {
	root := plugintest.ModuleRoot(b)
	dir := b.TempDir()
	plugintest.InstallGo(b, "plugins/analyzer", dir)
	h, err := pluginhost.New(pluginhost.Options{Dirs: []string{dir}})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	inputs, errs := lint.Collect([]string{filepath.Join(root, "grammar/testdata/corpus"), filepath.Join(root, "bench/suites")}, config.Default())
	if len(errs) > 0 || len(inputs) < 100 {
		b.Fatalf("collect: %d inputs, errors %v", len(inputs), errs)
	}
	a := h.Analyze(context.Background(), lint.Request(inputs, lint.Options{Target: lint.Target(device.Default())}))
	if len(a.Failures) > 0 {
		b.Fatal(a.Failures)
	}
	b.ResetTimer()
	for b.Loop() {
		res := lint.Merge(inputs, a, config.Default())
		if err := report.WriteJSON(io.Discard, res.Diagnostics, res.Failures); err != nil {
			b.Fatal(err)
		}
	}
}
