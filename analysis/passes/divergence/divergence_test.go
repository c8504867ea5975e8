package divergence

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestDivergence(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "divergent", "uniform", "guards")
}
