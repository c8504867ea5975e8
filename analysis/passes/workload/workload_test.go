package workload_test

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/passes/workload"
)

func TestAnalyzer(t *testing.T) {
	if err := analysis.Validate([]*analysis.Analyzer{workload.Analyzer}); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), workload.Analyzer, "conv", "host", "nosize", "gemm", "reduce", "relaunch")
}
