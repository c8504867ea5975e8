package gridstride

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestGridStride(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "loops")
}
