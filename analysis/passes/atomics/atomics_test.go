package atomics

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestAtomics(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "contention", "fine")
}
