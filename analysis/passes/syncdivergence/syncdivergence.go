package syncdivergence

import (
	_ "embed"
	"regexp"
	"strconv"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/passes/sync"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/analysis/taint"
)

//go:embed doc.go
var doc string

// Analyzer reports barriers under thread-dependent control flow.
var Analyzer = &analysis.Analyzer{
	Name:     "syncdivergence",
	Doc:      analysis.MustExtractDoc(doc, "syncdivergence"),
	URL:      "https://cudaperf.dev/checks/syncdivergence",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "sync_divergent", Unit: "barriers", Doc: "block barriers that are reached only by the threads for which a thread-dependent condition holds (a bug)", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
	},
	Severity: analysis.Error,
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	src := pass.File.Src
	reported := map[[2]uint32]bool{}
	for _, k := range df.Kernels.Kernels {
		count := 0
		for _, c := range df.Reach(k) {
			for _, st := range c.Func.Sites {
				n := st.Node
				if st.Kind != kernels.CallSite || !sync.IsBarrier(n, src) {
					continue
				}
				cond, lvl := df.CallTaint(c).ControlCond(n)
				if c.Control > lvl {
					cond, lvl = c.Cond, c.Control // the call site is conditional
				}
				if lvl == taint.Uniform || cond == nil {
					continue
				}
				group := "block"
				if size, ok := tileBarrier(n, src); ok {
					if tileUniform(lvl, pass.File.Text(cond), size) {
						continue
					}
					group = "tile"
				}
				count++
				key := [2]uint32{n.StartByte(), n.EndByte()}
				if reported[key] {
					continue
				}
				reported[key] = true
				how := "differs between threads"
				if lvl == taint.WarpUniform {
					how = "differs between the warps of a block"
				}
				text := strings.Join(strings.Fields(pass.File.Text(cond)), " ")
				holds := "holds"
				if inElse(n, cond) {
					holds = "does not hold" // the barrier is in the else arm
				}
				pass.ReportKernelf(k.Name, n, "%s is reached only by the threads for which %s %s, and that condition %s: the others never arrive, which is undefined behaviour (hangs or wrong results); move the barrier out of the conditional code so every thread of the %s reaches it", pass.File.Text(n), text, holds, how, group)
			}
		}
		pass.ReportKernelFeature(k.Name, "sync_divergent", float64(count))
	}
	return nil, nil
}

// tileBarrier reports whether a barrier call syncs a tile of threads
// (cg::sync(tile32), __syncwarp()) rather than the block, with the tile's
// size when the file creates it with a constant (tiled_partition(cta, 16),
// tiled_partition<16>(cta)); 32 (a warp) otherwise.
func tileBarrier(call *syntax.Node, src []byte) (size int, ok bool) {
	fn := call.ChildByFieldName("function")
	if fn == nil {
		return 0, false
	}
	name := fn.Content(src)
	if name == "__syncwarp" {
		return 32, true
	}
	if !strings.HasSuffix(name, "::sync") {
		return 0, false
	}
	args := call.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() != 1 {
		return 0, false
	}
	g := args.NamedChild(0).Content(src)
	low := strings.ToLower(g)
	if !strings.Contains(low, "tile") && !strings.Contains(low, "warp") && !strings.Contains(low, "coalesced") && !strings.Contains(low, "partition") {
		return 0, false
	}
	size = 32
	if m := regexp.MustCompile(`\b` + regexp.QuoteMeta(g) + `\s*=\s*(?:\w+::)*tiled_partition\s*(?:<\s*(\d+)\s*>\s*\(\s*\w+\s*\)|\(\s*\w+\s*,\s*(\d+)\s*\))`).FindSubmatch(src); m != nil {
		for _, d := range m[1:] {
			if v, err := strconv.Atoi(string(d)); err == nil && v > 0 && v <= 32 {
				size = v
			}
		}
	}
	return size, true
}

// laneBound matches a condition that splits the threads at a constant:
// idx < 16, (threadIdx.x >= 32).
var laneBound = regexp.MustCompile(`^\(?\s*[A-Za-z_][\w.]*\s*(<|>=)\s*(\d+)\s*\)?$`)

// tileUniform reports whether every thread of a tile of size threads
// evaluates cond alike: a condition that differs only between warps, or a
// split at a multiple of the tile size (tiles are consecutive threads).
func tileUniform(lvl taint.Level, cond string, size int) bool {
	if lvl == taint.WarpUniform && size <= 32 {
		return true
	}
	m := laneBound.FindStringSubmatch(strings.TrimSpace(cond))
	if m == nil {
		return false
	}
	c, err := strconv.Atoi(m[2])
	return err == nil && size > 0 && c%size == 0
}

// inElse reports whether barrier n lies in the else arm of the if
// statement whose condition is cond.
func inElse(n, cond *syntax.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() != "if_statement" {
			continue
		}
		c := p.ChildByFieldName("condition")
		if c == nil || c.StartByte() > cond.StartByte() || c.EndByte() < cond.EndByte() {
			continue
		}
		alt := p.ChildByFieldName("alternative")
		return alt != nil && n.StartByte() >= alt.StartByte() && n.EndByte() <= alt.EndByte()
	}
	return false
}
