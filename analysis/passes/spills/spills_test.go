package spills

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

// The sm80 case is the ptxas package's real capture: kernels.cu compiled by
// nvcc 13.0 with -maxrregcount=16 (see analysis/ptxas/testdata/gen.sh).
func TestSpills(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "sm80", "noreport")
}
