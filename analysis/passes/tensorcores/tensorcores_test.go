package tensorcores

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestTensorCores(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "wmma", "scalar")
}
