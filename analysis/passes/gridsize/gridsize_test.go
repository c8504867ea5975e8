package gridsize

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestGridSize(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "small", "large", "unknown")
}
