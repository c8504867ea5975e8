package occupancy_test

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/passes/occupancy"
)

func TestAnalyzer(t *testing.T) {
	if err := analysis.Validate([]*analysis.Analyzer{occupancy.Analyzer}); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), occupancy.Analyzer, "basic", "ptxas")
}
