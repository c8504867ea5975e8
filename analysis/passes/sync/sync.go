package sync

import (
	_ "embed"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

//go:embed doc.go
var doc string

// Analyzer reports the sync feature and barriers that order nothing.
var Analyzer = &analysis.Analyzer{
	Name:     "sync",
	Doc:      analysis.MustExtractDoc(doc, "sync"),
	URL:      "https://cudaperf.dev/checks/sync",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "sync", Unit: "barriers", Doc: "block-level barriers (__syncthreads and cooperative-groups sync), weighted by the trip counts of the loops around them", Range: "[0, +inf)", Level: analysis.LevelKernel},
	},
	Severity: analysis.Info,
}

var barriers = map[string]bool{
	"__syncthreads": true, "__syncthreads_count": true, "__syncthreads_and": true, "__syncthreads_or": true,
	"__barrier_sync": true, "__barrier_sync_count": true,
}

// IsBarrier reports whether call (a call_expression) is a block-level
// barrier.
func IsBarrier(call *syntax.Node, src []byte) bool {
	fn := call.ChildByFieldName("function")
	if fn == nil {
		return false
	}
	name := fn.Content(src)
	if barriers[name] {
		return true
	}
	// cg::sync(block), cooperative_groups::sync(g)
	if strings.HasSuffix(name, "::sync") {
		return true
	}
	// block.sync(), this_thread_block().sync(), grid.sync()
	if fn.Type() == "field_expression" {
		if f := fn.ChildByFieldName("field"); f != nil && f.Content(src) == "sync" {
			arg := fn.ChildByFieldName("argument")
			a := ""
			if arg != nil {
				a = arg.Content(src)
			}
			// A warp tile's sync (tile32.sync()) is a warp barrier: it is
			// not counted.
			return !strings.Contains(a, "tile") && !strings.Contains(a, "warp") && !strings.Contains(a, "coalesced")
		}
	}
	return false
}

// orders reports calls that make a barrier meaningful without shared
// memory: atomics and fences.
func orders(name string) bool {
	return strings.HasPrefix(name, "atomic") || strings.HasPrefix(name, "__threadfence") || strings.Contains(name, "memcpy_async") || strings.HasPrefix(name, "__pipeline") || strings.HasPrefix(name, "cuda::")
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	src := pass.File.Src
	for _, k := range df.Kernels.Kernels {
		total := 0.0
		var found []*syntax.Node
		needed := false
		writes, calls := false, false
		var global []uint32 // starts of the kernel's own global accesses
		for _, c := range df.Reach(k) {
			for _, a := range df.Accesses(c.Func) {
				// A barrier is redundant only when provably so: shared
				// memory and memory of unknown space (a pointer from
				// SharedMemory<T>()) may need it, and so may global
				// memory written on one side and accessed on the other
				// (another thread of the block may read it).
				switch {
				case a.Space == dataflow.Shared || a.Space == dataflow.Unknown:
					needed = true
				case a.Space == dataflow.Global:
					writes = writes || a.Write
					if c.Func == k {
						global = append(global, a.Node.StartByte())
					} else {
						calls = true // ordered by where the call is: not tracked
					}
				}
			}
			if len(c.Func.Shared) > 0 {
				needed = true
			}
			loops := df.Kernels.Loops(c.Func)
			for _, st := range c.Func.Sites {
				if st.Kind == kernels.AsmSite {
					needed = true // inline PTX may use shared memory or barriers
					continue
				}
				if st.Kind != kernels.CallSite || st.InAsm {
					continue
				}
				n := st.Node
				if IsBarrier(n, src) {
					total += c.Weight * loops.Weight(n)
					if c.Func == k {
						found = append(found, n)
					}
				} else if fn := n.ChildByFieldName("function"); fn != nil && orders(fn.Content(src)) {
					needed = true
				}
			}
		}
		pass.ReportKernelFeature(k.Name, "sync", total)
		if !needed {
			for _, n := range found {
				if writes && (calls || accessAfter(global, n.EndByte()) || len(df.Kernels.Loops(k).Enclosing(n)) > 0) {
					continue // global memory written and read across it (or around a loop)
				}
				pass.ReportKernelf(k.Name, n, "%s in kernel %s, which uses no shared memory, atomics or fences, orders nothing other threads can observe; remove it", pass.File.Text(n), k.Name)
			}
		}
	}
	return nil, nil
}

// accessAfter reports whether an access starts after offset.
func accessAfter(starts []uint32, offset uint32) bool {
	for _, s := range starts {
		if s > offset {
			return true
		}
	}
	return false
}
