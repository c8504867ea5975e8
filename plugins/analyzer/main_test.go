package main

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/passes"
)

// One name per check: infrastructure passes (NoChecks) are passes, never
// checks, so config, suppressions, explain and SARIF cannot offer them.
func TestDescribeListsOnlyChecks(t *testing.T) {
	d := describe(passes.All())
	checks := map[string]bool{}
	for _, c := range d.GetChecks() {
		if checks[c.GetId()] {
			t.Errorf("check %q listed twice", c.GetId())
		}
		checks[c.GetId()] = true
	}
	pass := map[string]bool{}
	for _, p := range d.GetPasses() {
		pass[p.GetName()] = true
	}
	for _, infra := range []string{"kernels", "dataflow", "arith", "intensity", "tensorcores"} {
		if checks[infra] || !pass[infra] {
			t.Errorf("%s: check %v, pass %v; want a pass that is not a check", infra, checks[infra], pass[infra])
		}
	}
	for _, c := range []string{"syntax", "input", "internal", "coalescing", "bankconflicts", "syncdivergence", "transfers", "gridsize", "blocksize"} {
		if !checks[c] {
			t.Errorf("check %s missing", c)
		}
	}
}
