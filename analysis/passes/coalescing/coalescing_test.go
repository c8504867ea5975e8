package coalescing

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestCoalescing(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "stride", "good", "groups", "honest", "minratio", "sharedparam", "unknownblock")
}
