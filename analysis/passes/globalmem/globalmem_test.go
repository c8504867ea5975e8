package globalmem

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestGlobalMem(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "traffic", "hoisted", "views")
}
