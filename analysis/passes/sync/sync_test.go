package sync

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestSync(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "barriers", "clean")
}
