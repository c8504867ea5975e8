package occupancy_test

import (
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/passes/occupancy"
)

func TestAnalyzer(t *testing.T) {
	if err := analysis.Validate([]*analysis.Analyzer{occupancy.Analyzer}); err != nil {
		t.Fatal(err)
	}
	res := analysistest.Run(t, analysistest.TestData(), occupancy.Analyzer, "basic", "ptxas")
	// A kernel that does not compile is an error (want comments do not
	// check severities; it was a warning, which lint lets pass).
	found := false
	for _, r := range res {
		for _, f := range r.Files {
			for _, d := range f.Diagnostics {
				if strings.Contains(d.Message, "of static __shared__ memory") {
					found = true
					if d.Severity != analysis.Error {
						t.Errorf("%s: severity %v, want error", d.Message, d.Severity)
					}
				}
			}
		}
	}
	if !found {
		t.Error("no static shared memory finding")
	}
}
