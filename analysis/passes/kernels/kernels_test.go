package kernels_test

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
)

func TestAnalyzer(t *testing.T) {
	if err := analysis.Validate([]*analysis.Analyzer{kernels.Analyzer}); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), kernels.Analyzer, "launches", "nolaunch", "discovery", "shared_calls")
}
