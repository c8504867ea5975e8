package arith

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestArith(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "counts", "nofloat")
}
