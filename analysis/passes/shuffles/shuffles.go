package shuffles

import (
	"bytes"
	_ "embed"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/analysis/taint"
	"github.com/cudaperf/cudaperf/analysis/tripcount"
)

//go:embed doc.go
var doc string

// Analyzer reports warp_shuffles and warp_reductions and checks shuffle
// calls.
var Analyzer = &analysis.Analyzer{
	Name:     "shuffles",
	Doc:      analysis.MustExtractDoc(doc, "shuffles"),
	URL:      "https://cudaperf.dev/checks/shuffles",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "warp_shuffles", Unit: "shuffles", Doc: "warp shuffle calls per thread, weighted by the trip counts of the loops around them", Range: "[0, +inf)", Level: analysis.LevelKernel},
		{Name: "warp_reductions", Unit: "reductions", Doc: "warp-level reductions: shuffle loops at halving offsets, __reduce_*_sync and cooperative-groups reduce", Range: "[0, +inf)", Level: analysis.LevelKernel},
	},
	Severity: analysis.Warning,
}

var syncShuffles = map[string]bool{"__shfl_sync": true, "__shfl_up_sync": true, "__shfl_down_sync": true, "__shfl_xor_sync": true}

var legacy = map[string]string{"__shfl": "__shfl_sync", "__shfl_up": "__shfl_up_sync", "__shfl_down": "__shfl_down_sync",
	"__shfl_xor": "__shfl_xor_sync", "__any": "__any_sync", "__all": "__all_sync", "__ballot": "__ballot_sync"}

func name(n *syntax.Node, src []byte) string {
	fn := n.ChildByFieldName("function")
	if fn == nil {
		return ""
	}
	s := fn.Content(src)
	if fn.Type() == "field_expression" { // tile.shfl_down(v, o)
		if f := fn.ChildByFieldName("field"); f != nil {
			return "." + f.Content(src)
		}
	}
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	return s
}

func isShuffle(n string) bool {
	return syncShuffles[n] || n == ".shfl" || n == ".shfl_down" || n == ".shfl_up" || n == ".shfl_xor"
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	src := pass.File.Src
	reported := map[[2]uint32]bool{}
	once := func(n *syntax.Node) bool {
		k := [2]uint32{n.StartByte(), n.EndByte()}
		if reported[k] {
			return false
		}
		reported[k] = true
		return true
	}
	// Every call this pass counts has one of these in its name: a file
	// without them has none to look for.
	found := false
	for _, s := range []string{"shfl", "reduce", "__any", "__all", "__ballot"} {
		found = found || bytes.Contains(src, []byte(s))
	}
	for _, k := range df.Kernels.Kernels {
		shuffles, reductions := 0.0, 0.0
		for _, c := range df.Reach(k) {
			if !found {
				break
			}
			loops := df.Kernels.Loops(c.Func)
			counted := map[*tripcount.Loop]bool{}
			for _, st := range c.Func.Sites {
				if st.Kind != kernels.CallSite {
					continue
				}
				n := st.Node
				nm := name(n, src)
				switch {
				case isShuffle(nm):
					shuffles += c.Weight * loops.Weight(n)
					if l := reductionLoop(df, c.Func.Body, loops, n, src); l != nil && !counted[l] {
						counted[l] = true
						reductions += c.Weight * loops.Weight(l.Node)
					}
					if syncShuffles[nm] && fullMask(df.BoundScope(c), n) {
						if cond, lvl := df.CallTaint(c).ControlCond(n); lvl == taint.Varying && once(n) {
							pass.ReportKernelf(k.Name, n, "%s with the full mask 0xffffffff runs only in lanes where %s holds, but every lane named in the mask must execute it (undefined result otherwise); pass __activemask() or __ballot_sync of the condition as the mask, or move the shuffle out of the branch", nm, strings.Join(strings.Fields(pass.File.Text(cond)), " "))
						}
					}
				case strings.HasPrefix(nm, "__reduce_") && strings.HasSuffix(nm, "_sync"), nm == "reduce" || nm == ".reduce":
					reductions += c.Weight * loops.Weight(n)
				default:
					if repl, ok := legacy[nm]; ok {
						if once(n) {
							pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Error, Range: analysis.NodeRange(n), Kernel: k.Name,
								Message: nm + " was removed in CUDA 9 for sm_70 and later (independent thread scheduling); use " + repl + "(0xffffffff, …) with the mask of the lanes that take part"})
						}
						shuffles += c.Weight * loops.Weight(n)
					}
				}
			}
		}
		pass.ReportKernelFeatureStatus(k.Name, "warp_shuffles", shuffles, df.Kernels.WeightStatus(k))
		pass.ReportKernelFeatureStatus(k.Name, "warp_reductions", reductions, df.Kernels.WeightStatus(k))
	}
	return nil, nil
}

// reductionLoop returns the innermost loop around a shuffle when it is a
// reduction: the loop variable halves (or doubles) and is the shuffle's
// offset, and the shuffled value is folded back into itself.
func reductionLoop(df *dataflow.Result, body *syntax.Node, loops *tripcount.Info, call *syntax.Node, src []byte) *tripcount.Loop {
	enc := loops.Enclosing(call)
	if len(enc) == 0 {
		return nil
	}
	l := enc[0]
	if l.Var == "" {
		return nil
	}
	args := call.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() < 2 {
		return nil
	}
	off := args.NamedChild(int(args.NamedChildCount()) - 1)
	if strings.HasPrefix(name(call, src), ".") {
		off = args.NamedChild(1)
	} else if args.NamedChildCount() >= 3 {
		off = args.NamedChild(2)
	}
	if off == nil || off.Content(src) != l.Var {
		return nil
	}
	// The loop must be geometric: its update multiplies or divides.
	geo := false
	syntax.Inspect(l.Node, func(n *syntax.Node) bool {
		if n.Type() == "assignment_expression" {
			if left := n.ChildByFieldName("left"); left != nil && left.Content(src) == l.Var {
				op := n.ChildByFieldName("operator")
				if op != nil && (op.Type() == ">>=" || op.Type() == "/=" || op.Type() == "<<=" || op.Type() == "*=") {
					geo = true
				}
			}
		}
		return !geo
	})
	if !geo {
		return nil
	}
	// v += shfl(v, o), v = max(v, shfl(v, o)), v = v + shfl(v, o).
	for p := call.Parent(); p != nil && p.Type() != "expression_statement"; p = p.Parent() {
		if p.Type() == "assignment_expression" {
			return l
		}
	}
	return nil
}

// fullMask reports whether a shuffle's mask is 0xffffffff, evaluated in
// its scope: NVIDIA's own FULL_MASK macro, a constexpr and ~0u are the full
// mask as much as the literal (only the literal was recognised).
func fullMask(s *affine.Scope, call *syntax.Node) bool {
	args := call.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() == 0 {
		return false
	}
	v, ok := s.Eval(args.NamedChild(0)).Int()
	return ok && uint32(v) == 0xffffffff
}
