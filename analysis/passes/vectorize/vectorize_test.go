package vectorize

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestVectorize(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "vec", "scalar")
}
