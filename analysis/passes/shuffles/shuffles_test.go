package shuffles

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestShuffles(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "reduce", "legacy")
}
