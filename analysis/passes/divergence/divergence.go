package divergence

import (
	_ "embed"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/taint"
)

//go:embed doc.go
var doc string

// Analyzer reports the div feature and costly divergent branches.
var Analyzer = &analysis.Analyzer{
	Name:     "divergence",
	Doc:      analysis.MustExtractDoc(doc, "divergence"),
	URL:      "https://cudaperf.dev/checks/divergence",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "div", Unit: "branches", Doc: "branches whose condition varies between lanes of a warp (warp-uniform ones excluded), weighted by the trip counts of the loops around them", Range: "[0, +inf)", Level: analysis.LevelKernel},
	},
	Severity: analysis.Warning,
}

// Form classifies a divergent condition.
type Form uint8

const (
	Pattern  Form = iota // arithmetic on the thread index: tid % 2, tid & 1
	Data                 // depends on per-thread data (loads, shuffles)
	Guard                // thread index compared with a uniform bound: i < n
	Election             // thread index equal to a uniform value: tid == 0
)

// Classify says what kind of divergent condition cond is.
func Classify(s *affine.Scope, cond *sitter.Node, src []byte) Form {
	cond = unparen(cond)
	if cond == nil {
		return Data
	}
	if cond.Type() == "binary_expression" {
		op := opOf(cond)
		l, r := cond.ChildByFieldName("left"), cond.ChildByFieldName("right")
		switch op {
		case "&&", "||":
			a, b := Classify(s, l, src), Classify(s, r, src)
			if a == b {
				return a
			}
			if (a == Guard || a == Election) && (b == Guard || b == Election) {
				return Guard
			}
			// A uniform operand does not change the other's kind.
			if !s.Eval(l).ThreadDependent() && s.Eval(l).Kind == affine.Affine {
				return b
			}
			if !s.Eval(r).ThreadDependent() && s.Eval(r).Kind == affine.Affine {
				return a
			}
			if a == Data || b == Data {
				return Data
			}
			return Pattern
		case "<", "<=", ">", ">=", "==", "!=":
			fl, fr := s.Eval(l), s.Eval(r)
			thread, other := fl, fr
			if !fl.ThreadDependent() {
				thread, other = fr, fl
			}
			if thread.Kind == affine.Affine && thread.ThreadDependent() && other.Kind == affine.Affine && !other.ThreadDependent() {
				// Periodic atoms (tid % 32, tid & 1) make the condition
				// alternate inside every warp; quotients (tid / 16) keep it
				// monotone like a plain index.
				switch {
				case thread.HasAtoms(true):
				case op == "==" || op == "!=":
					if !thread.HasAtoms(false) {
						return Election
					}
				default:
					return Guard
				}
			}
		}
	}
	f := s.Eval(cond)
	if f.Kind == affine.Unknown {
		return Data
	}
	return Pattern
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	reported := map[[2]uint32]bool{}
	for _, k := range df.Kernels.Kernels {
		total := 0.0
		for _, c := range df.Reach(k) {
			total += c.Weight * count(pass, df, k, c.Func, reported)
		}
		pass.ReportKernelFeature(k.Name, "div", total)
	}
	return nil, nil
}

// count returns the weighted divergent branches of f and reports the
// costly ones (once per node).
func count(pass *analysis.Pass, df *dataflow.Result, k, f *kernels.Function, reported map[[2]uint32]bool) float64 {
	tn := df.Taint(f)
	loops := df.Kernels.Loops(f)
	scope := df.Kernels.Scope(f)
	total := 0.0
	df.Walk(f, func(n *sitter.Node, kind string) bool {
		switch kind {
		case "lambda_expression":
			return false
		case "if_statement", "switch_statement":
		default:
			return true
		}
		if tn.Cond(n) != taint.Varying {
			return true
		}
		total += loops.Weight(n)
		cond := taint.CondOf(n)
		key := [2]uint32{n.StartByte(), n.EndByte()}
		if reported[key] {
			return true
		}
		reported[key] = true
		text := strings.Join(strings.Fields(pass.File.Text(unparen(cond))), " ")
		switch Classify(scope, cond, pass.File.Src) {
		case Pattern:
			pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Warning, Range: analysis.NodeRange(cond), Kernel: k.Name,
				Message: "branch on " + text + " diverges inside every warp: neighbouring lanes take different paths, so each warp runs both; branch on a warp-uniform value instead (e.g. threadIdx.x / 32) or compute both results and select"})
		case Data:
			pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Info, Range: analysis.NodeRange(cond), Kernel: k.Name,
				Message: "branch on " + text + " depends on per-thread data, so lanes of a warp may take different paths; if both paths are long, sort or bin the work so that warps agree, or make the body branch-free"})
		}
		return true
	})
	return total
}

func opOf(n *sitter.Node) string {
	if o := n.ChildByFieldName("operator"); o != nil {
		return o.Type()
	}
	return ""
}

func unparen(n *sitter.Node) *sitter.Node {
	for n != nil && (n.Type() == "parenthesized_expression" || n.Type() == "condition_clause") && n.NamedChildCount() >= 1 {
		n = n.NamedChild(int(n.NamedChildCount()) - 1)
	}
	return n
}
