package intensity

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestIntensity(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "ai")
}
