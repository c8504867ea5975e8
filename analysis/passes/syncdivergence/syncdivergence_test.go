package syncdivergence

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestSyncDivergence(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "bad", "good", "tiles", "sharedscalar")
}
