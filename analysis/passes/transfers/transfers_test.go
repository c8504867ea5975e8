package transfers

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestTransfers(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "loops", "once", "kept")
}
