package blocksize

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestBlockSize(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "sizes", "fine", "unknown")
}
