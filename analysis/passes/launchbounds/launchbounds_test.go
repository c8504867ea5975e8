package launchbounds

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestLaunchBounds(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "bounds", "none")
}
