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
	Pattern  Form = iota // lanes alternate inside every warp: tid % 2, (tid & 3) == 1
	Data                 // depends on per-thread data (loads, shuffles)
	Guard                // a monotone index against a uniform bound: i < n (only edge warps split)
	Split                // every warp splits into two contiguous groups: lane < 16, lane >= offset
	Election             // at most one lane of a warp: lane == 0, tid == k
)

// Classify says what kind of divergent condition cond is, from the values
// the thread-dependent side takes in the lanes of warps 0 and 1
// (affine.Form.WarpFrom).
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
			// A uniform operand does not change the other's kind.
			if !s.Eval(l).ThreadDependent() && s.Eval(l).Kind != affine.Unknown {
				return b
			}
			if !s.Eval(r).ThreadDependent() && s.Eval(r).Kind != affine.Unknown {
				return a
			}
			// The combination is as cheap as its cheapest operand when
			// that one restricts to few lanes, else as its worst.
			if a == Election || b == Election {
				return Election
			}
			if a < b {
				return a
			}
			return b
		case "<", "<=", ">", ">=", "==", "!=":
			fl, fr := s.Eval(l), s.Eval(r)
			thread, other := fl, fr
			if !fl.ThreadDependent() {
				thread, other = fr, fl
			}
			if other.ThreadDependent() || other.Kind == affine.Unknown {
				break
			}
			if thread.Kind != affine.Affine {
				break
			}
			w0, _, ok0 := thread.WarpFrom(0)
			w1, _, ok1 := thread.WarpFrom(32)
			if !ok0 || !ok1 {
				break
			}
			if op == "==" || op == "!=" {
				if distinct(w0) {
					return Election
				}
				return Pattern
			}
			if !monotone(w0) {
				return Pattern
			}
			// Monotone in the warp: a guard when the next warp moves past
			// this one's range, a split of every warp when it repeats it.
			lo0, hi0 := minmax(w0)
			lo1, hi1 := minmax(w1)
			if lo1 > hi0 || hi1 < lo0 {
				return Guard
			}
			return Split
		}
	}
	f := s.Eval(cond)
	if f.Kind == affine.Unknown {
		return Data
	}
	return Pattern
}

func distinct(v [32]int64) bool {
	seen := map[int64]bool{}
	for _, x := range v {
		if seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

func monotone(v [32]int64) bool {
	up, down := true, true
	for i := 1; i < len(v); i++ {
		up = up && v[i] >= v[i-1]
		down = down && v[i] <= v[i-1]
	}
	return up || down
}

func minmax(v [32]int64) (lo, hi int64) {
	lo, hi = v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
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
		case Split:
			pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Info, Range: analysis.NodeRange(cond), Kernel: k.Name,
				Message: "branch on " + text + " splits every warp into two groups of lanes that run one after the other; that is inherent in warp-level algorithms (scans), otherwise give each path whole warps (branch on threadIdx.x / 32)"})
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
