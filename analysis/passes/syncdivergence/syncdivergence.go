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
				ti := df.CallTaint(c)
				cond, lvl := ti.ControlCond(n)
				if c.Control > lvl {
					cond, lvl = c.Cond, c.Control // the call site is conditional
				}
				var exit *syntax.Node // a thread-dependent break or continue that skips the barrier
				if lvl == taint.Uniform || cond == nil {
					exit, cond, lvl = loopExit(ti, n)
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
				if exit != nil && inElse(exit, cond) || exit == nil && inElse(n, cond) {
					holds = "does not hold" // the statement is in the else arm
				}
				if exit != nil {
					pass.ReportKernelf(k.Name, n, "%s is skipped by the threads that leave its loop through the %s on line %d, taken when %s %s, and that condition %s: the others wait for threads that never arrive, which is undefined behaviour (hangs or wrong results); let every thread run the loop's barriers (compute a flag, and break or skip the work only after the barrier, on a condition the whole %s shares)",
						pass.File.Text(n), strings.TrimSuffix(exit.Type(), "_statement"), exit.StartPoint().Row+1, text, holds, how, group)
					continue
				}
				pass.ReportKernelf(k.Name, n, "%s is reached only by the threads for which %s %s, and that condition %s: the others never arrive, which is undefined behaviour (hangs or wrong results); move the barrier out of the conditional code so every thread of the %s reaches it", pass.File.Text(n), text, holds, how, group)
			}
		}
		pass.ReportKernelFeature(k.Name, "sync_divergent", float64(count))
	}
	return nil, nil
}

// loopExit finds a break or continue that makes threads skip barrier n in
// a loop around it, on a thread-dependent condition: a break anywhere in
// the loop's body (the thread misses every later iteration's barrier) or a
// continue before the barrier (it misses this iteration's). It returns the
// statement, its condition and the condition's level (Uniform when none).
// A break of an inner loop or switch, and a continue of an inner loop,
// leave only that statement.
func loopExit(ti *taint.Info, n *syntax.Node) (exit, cond *syntax.Node, lvl taint.Level) {
	for l := n.Parent(); l != nil; l = l.Parent() {
		switch l.Type() {
		case "for_statement", "while_statement", "do_statement", "for_range_loop":
		case "function_definition", "lambda_expression":
			return nil, nil, taint.Uniform
		default:
			continue
		}
		body := l.ChildByFieldName("body")
		if body == nil {
			continue
		}
		syntax.Inspect(body, func(s *syntax.Node) bool {
			if exit != nil {
				return false
			}
			switch s.Type() {
			case "for_statement", "while_statement", "do_statement", "for_range_loop", "lambda_expression":
				return false // its own break and continue
			case "switch_statement":
				// A break there leaves the switch; a continue, this loop.
				syntax.Inspect(s, func(x *syntax.Node) bool {
					if exit != nil {
						return false
					}
					switch x.Type() {
					case "for_statement", "while_statement", "do_statement", "for_range_loop", "lambda_expression":
						return false
					case "continue_statement":
						exit, cond, lvl = skips(ti, x, n)
					}
					return true
				})
				return false
			case "break_statement":
				exit, cond, lvl = skips(ti, s, nil)
			case "continue_statement":
				exit, cond, lvl = skips(ti, s, n)
			}
			return true
		})
		if exit != nil {
			return exit, cond, lvl
		}
	}
	return nil, nil, taint.Uniform
}

// skips returns s with its thread-dependent condition when s is taken on
// one, and, for a continue (before set), only when it comes before the
// barrier; nil otherwise.
func skips(ti *taint.Info, s, before *syntax.Node) (*syntax.Node, *syntax.Node, taint.Level) {
	if before != nil && s.StartByte() > before.StartByte() {
		return nil, nil, taint.Uniform
	}
	cond, lvl := ti.ControlCond(s)
	if lvl == taint.Uniform || cond == nil {
		return nil, nil, taint.Uniform
	}
	return s, cond, lvl
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
