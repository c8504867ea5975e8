package divergence

import (
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

// Analyzer reports the div feature and costly divergent branches.
var Analyzer = &analysis.Analyzer{
	Name:     "divergence",
	Doc:      analysis.MustExtractDoc(doc, "divergence"),
	URL:      "https://cudaperf.dev/checks/divergence",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "div", Unit: "branches", Doc: "branches whose condition varies between lanes of a warp (warp-uniform ones excluded), weighted by the trip counts of the loops around them", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
	},
	Severity: analysis.Warning,
}

// Form classifies a divergent condition.
type Form uint8

const (
	Pattern   Form = iota // lanes alternate inside every warp: tid % 2, (tid & 3) == 1
	Data                  // depends on per-thread data (loads, shuffles)
	Guard                 // a monotone index against a uniform bound: i < n (only edge warps split)
	Split                 // every warp splits into two contiguous groups: lane < 16, lane >= offset
	Election              // at most one lane of a warp: lane == 0, tid == k
	WarpConst             // the same in every lane of the warp (threadIdx.y == 0 with rows of 32 or more)
)

// Evaluator gives the affine form of an expression: the Eval of a scope
// whose parameters are bound to the caller's arguments (see
// dataflow.Result.BoundScope).
type Evaluator func(*syntax.Node) affine.Form

// Classify says what kind of divergent condition cond is, from the values
// the thread-dependent side takes in the lanes of warps 0 and 1
// (affine.Form.WarpFrom).
func Classify(eval Evaluator, cond *syntax.Node, src []byte, blockX int64) Form {
	cond = unparen(cond)
	if cond == nil {
		return Data
	}
	if cond.Type() == "binary_expression" {
		op := cond.Operator()
		l, r := cond.ChildByFieldName("left"), cond.ChildByFieldName("right")
		switch op {
		case "&&", "||":
			// A uniform operand does not change the other's kind.
			if fl := eval(l); !fl.ThreadDependent() && fl.Kind != affine.Unknown {
				return Classify(eval, r, src, blockX)
			}
			if fr := eval(r); !fr.ThreadDependent() && fr.Kind != affine.Unknown {
				return Classify(eval, l, src, blockX)
			}
			a, b := Classify(eval, l, src, blockX), Classify(eval, r, src, blockX)
			if a == WarpConst && b == WarpConst {
				return WarpConst
			}
			for _, k := range []Form{Election, Pattern, Data, Split} {
				if a == k || b == k {
					return k
				}
			}
			return Guard
		case "==", "!=":
			// g.thread_rank() == k: ranks are distinct within the group,
			// so one thread is elected, as with threadIdx.x == k.
			if rankCall(l, src) && isUniform(eval, r) || rankCall(r, src) && isUniform(eval, l) {
				return Election
			}
			return compare(eval, l, r, op, blockX)
		case "<", "<=", ">", ">=":
			return compare(eval, l, r, op, blockX)
		}
	}
	return compare(eval, cond, nil, "!=", blockX) // if (x) is if (x != 0)
}

// rankCall reports a call of a function that numbers the threads of a group
// one by one: cooperative groups' thread_rank() (g.thread_rank(),
// cg::this_thread_block().thread_rank()) and the lane id intrinsics.
func rankCall(n *syntax.Node, src []byte) bool {
	n = unparen(n)
	if n == nil || n.Type() != "call_expression" {
		return false
	}
	fn := n.ChildByFieldName("function")
	if fn == nil {
		return false
	}
	if fn.Type() == "field_expression" {
		fn = fn.ChildByFieldName("field")
	}
	if fn == nil {
		return false
	}
	switch fn.Content(src) {
	case "thread_rank", "__lane_id", "laneid":
		return true
	}
	return false
}

// isUniform reports a side that is the same in every thread.
func isUniform(eval Evaluator, n *syntax.Node) bool {
	f := eval(n)
	return f.Kind != affine.Unknown && !f.ThreadDependent()
}

// compare classifies left OP right (right nil: the constant 0).
func compare(eval Evaluator, l, r *syntax.Node, op string, blockX int64) Form {
	fl, fr := eval(l), affine.Const(0)
	if r != nil {
		fr = eval(r)
	}
	threadNode, thread, other := l, fl, fr
	if !fl.ThreadDependent() {
		threadNode, thread, other = r, fr, fl
	}
	if other.ThreadDependent() || other.Kind == affine.Unknown {
		return Data
	}
	if periodic(eval, threadNode) {
		return Pattern // x % m, x & m with a runtime m: alternates in the warp
	}
	if thread.Kind != affine.Affine {
		return Data
	}
	w0, _, ok0 := thread.WarpShape(0, blockX)
	w1, _, ok1 := thread.WarpShape(32, blockX)
	if !ok0 || !ok1 {
		return Data
	}
	if lo, hi := minmax(w0); lo == hi {
		return WarpConst // the same in every lane (threadIdx.y with whole-warp rows)
	}
	if op == "==" || op == "!=" {
		if c, ok := other.Int(); ok {
			m := 0
			for _, v := range w0 {
				if v == c {
					m++
				}
			}
			// A few lanes (one per group of 8 or more) take the short path.
			if m <= 4 {
				return Election
			}
			return Pattern
		}
		if distinct(w0) {
			return Election
		}
		return Pattern
	}
	if monotone(w0) {
		// A guard when the next warp moves past this one's range, a split
		// of every warp when it repeats it.
		lo0, hi0 := minmax(w0)
		lo1, hi1 := minmax(w1)
		if lo1 > hi0 || hi1 < lo0 {
			return Guard
		}
		return Split
	}
	// Not monotone in the warp (a 2-D tile: bn + tid % 16), but offset by the
	// block: only the blocks at the edge of the bound split.
	if blockOffset(thread) || uniformOffset(thread) {
		return Guard
	}
	return Pattern
}

// uniformOffset reports a term of variables that do not depend on the
// thread (u + ib with u = 4 * blockIdx.x * w >> 2): where the split falls
// moves with that offset, so only the warps at the edge of the bound
// split, as with a blockIdx term.
func uniformOffset(f affine.Form) bool {
	for _, t := range f.Terms() {
		fs := affine.Factors(t.Mono)
		if len(fs) == 0 {
			continue
		}
		uniform := true
		for _, x := range fs {
			if affine.IsThreadSym(x) {
				uniform = false
			}
		}
		if uniform {
			return true
		}
	}
	return false
}

// periodic reports a remainder or mask of a thread-dependent value by a
// runtime amount: tid % (2 * k).
func periodic(eval Evaluator, n *syntax.Node) bool {
	n = unparen(n)
	if n == nil || n.Type() != "binary_expression" {
		return false
	}
	switch n.Operator() {
	case "%", "&":
	default:
		return false
	}
	if _, ok := eval(n.ChildByFieldName("right")).Int(); ok {
		return false // a constant: the atom's lane values tell
	}
	return eval(n.ChildByFieldName("left")).ThreadDependent()
}

// blockOffset reports a term with blockIdx outside any atom.
func blockOffset(f affine.Form) bool {
	for _, t := range f.Terms() {
		for _, x := range affine.Factors(t.Mono) {
			if strings.HasPrefix(x, "blockIdx.") {
				return true
			}
		}
	}
	return false
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
			total += c.Weight * count(pass, df, k, c, reported)
		}
		pass.ReportKernelFeature(k.Name, "div", total)
	}
	return nil, nil
}

// count returns the weighted divergent branches of f and reports the
// costly ones (once per node).
func count(pass *analysis.Pass, df *dataflow.Result, k *kernels.Function, c dataflow.Call, reported map[[2]uint32]bool) float64 {
	f := c.Func
	// Taint is computed for every function reached, as before, since the
	// forms of mutually defined variables depend on the order they are
	// first evaluated in; the loops and the bound scope only at the first
	// divergent branch: many functions have none.
	tn := df.CallTaint(c)
	var (
		loops *tripcount.Info
		bound *affine.Scope // the callee's parameters as the caller passes them
	)
	total := 0.0
	for _, st := range f.Sites {
		if st.Kind != kernels.IfSite && st.Kind != kernels.SwitchSite || st.InLambda {
			continue
		}
		n := st.Node
		if tn.Cond(n) != taint.Varying {
			continue
		}
		if loops == nil {
			loops, bound = df.Kernels.Loops(f), df.BoundScope(c)
		}
		cond := taint.CondOf(n)
		bx := df.BlockX(k)
		class := Classify(bound.Eval, cond, pass.File.Src, bx)
		if class == WarpConst && bx > 0 && bx%32 == 0 {
			continue // every launch has whole-warp rows: threadIdx.y is warp-uniform
		}
		total += loops.Weight(n)
		key := [2]uint32{n.StartByte(), n.EndByte()}
		if reported[key] {
			continue
		}
		reported[key] = true
		text := strings.Join(strings.Fields(pass.File.Text(unparen(cond))), " ")
		switch class {
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
	}
	return total
}

func unparen(n *syntax.Node) *syntax.Node {
	for n != nil && (n.Type() == "parenthesized_expression" || n.Type() == "condition_clause") && n.NamedChildCount() >= 1 {
		n = n.NamedChild(int(n.NamedChildCount()) - 1)
	}
	return n
}
