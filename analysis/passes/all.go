// Package passes lists cudaperf's built-in analysis passes; each lives in
// its own subpackage.
package passes

import (
	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/arith"
	"github.com/cudaperf/cudaperf/analysis/passes/atomics"
	"github.com/cudaperf/cudaperf/analysis/passes/bankconflicts"
	"github.com/cudaperf/cudaperf/analysis/passes/blocksize"
	"github.com/cudaperf/cudaperf/analysis/passes/coalescing"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/divergence"
	"github.com/cudaperf/cudaperf/analysis/passes/globalmem"
	"github.com/cudaperf/cudaperf/analysis/passes/gridsize"
	"github.com/cudaperf/cudaperf/analysis/passes/gridstride"
	"github.com/cudaperf/cudaperf/analysis/passes/intensity"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/passes/launchbounds"
	"github.com/cudaperf/cudaperf/analysis/passes/occupancy"
	"github.com/cudaperf/cudaperf/analysis/passes/shuffles"
	"github.com/cudaperf/cudaperf/analysis/passes/spills"
	"github.com/cudaperf/cudaperf/analysis/passes/sync"
	"github.com/cudaperf/cudaperf/analysis/passes/syncdivergence"
	"github.com/cudaperf/cudaperf/analysis/passes/tensorcores"
	"github.com/cudaperf/cudaperf/analysis/passes/transfers"
	"github.com/cudaperf/cudaperf/analysis/passes/vectorize"
	"github.com/cudaperf/cudaperf/analysis/passes/workload"
)

// All returns every built-in analyzer, in a stable order. The analyzer
// plugin serves exactly these; adding a pass is adding it here.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		kernels.Analyzer,
		dataflow.Analyzer,
		arith.Analyzer,
		atomics.Analyzer,
		bankconflicts.Analyzer,
		coalescing.Analyzer,
		divergence.Analyzer,
		globalmem.Analyzer,
		intensity.Analyzer,
		occupancy.Analyzer,
		sync.Analyzer,
		syncdivergence.Analyzer,
		transfers.Analyzer,
		blocksize.Analyzer,
		gridsize.Analyzer,
		gridstride.Analyzer,
		launchbounds.Analyzer,
		shuffles.Analyzer,
		spills.Analyzer,
		tensorcores.Analyzer,
		vectorize.Analyzer,
		workload.Analyzer,
	}
}
