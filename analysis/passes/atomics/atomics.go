package atomics

import (
	_ "embed"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/analysis/taint"
)

//go:embed doc.go
var doc string

// Analyzer reports the atomics feature and contended global atomics.
var Analyzer = &analysis.Analyzer{
	Name:     "atomics",
	Doc:      analysis.MustExtractDoc(doc, "atomics"),
	URL:      "https://cudaperf.dev/checks/atomics",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "atomics", Unit: "ops", Doc: "atomic operations per thread, weighted by the trip counts of the loops around them", Range: "[0, +inf)", Level: analysis.LevelKernel},
	},
	Severity: analysis.Warning,
}

var members = map[string]bool{"fetch_add": true, "fetch_sub": true, "fetch_and": true, "fetch_or": true, "fetch_xor": true,
	"fetch_min": true, "fetch_max": true, "exchange": true, "compare_exchange_strong": true, "compare_exchange_weak": true}

// IsAtomic reports whether a call_expression is an atomic operation.
func IsAtomic(call *syntax.Node, src []byte) bool {
	fn := call.ChildByFieldName("function")
	if fn == nil {
		return false
	}
	if fn.Type() == "field_expression" {
		f := fn.ChildByFieldName("field")
		return f != nil && members[f.Content(src)]
	}
	name := fn.Content(src)
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return strings.HasPrefix(name, "atomic") && len(name) > 6 && name[6] >= 'A' && name[6] <= 'Z'
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	src := pass.File.Src
	reported := map[[2]uint32]bool{}
	for _, k := range df.Kernels.Kernels {
		total := 0.0
		for _, c := range df.Reach(k) {
			loops := df.Kernels.Loops(c.Func)
			for _, st := range c.Func.Sites {
				n := st.Node
				if st.Kind != kernels.CallSite || !IsAtomic(n, src) {
					continue
				}
				total += c.Weight * loops.Weight(n)
				args := n.ChildByFieldName("arguments")
				if args == nil || args.NamedChildCount() == 0 {
					continue
				}
				addr := df.Address(c.Func, args.NamedChild(0))
				if addr == nil {
					continue
				}
				space := addr.Space
				if addr.Decl != nil && addr.Decl.Param && c.Levels != nil {
					// A device function's pointer parameter: the caller's
					// argument says where it points, and whether it is one
					// address for all threads (a scatter passes &out[idx[i]]).
					if s, ok := c.Spaces[addr.Base]; ok {
						space = s
					}
					if c.Levels[addr.Base] != taint.Uniform {
						continue
					}
				}
				if space != dataflow.Global {
					continue
				}
				idx := c.Index(addr)
				if idx.Kind != affine.Affine || idx.ThreadDependent() {
					continue
				}
				// An atomic only the lanes a thread-dependent equality elects
				// reach (lane == 0, threadIdx.x == 0) is already aggregated;
				// a bounds guard (i < n, a grid-stride loop) lets nearly
				// every thread through (it had hidden the contention).
				if elected(df.CallTaint(c), df.BoundScope(c), n) || c.Control == taint.Varying && isElection(df.BoundScope(c), c.Cond) {
					continue // elected here, or by the caller (if (threadIdx.x == 0) flush(out, s))
				}
				key := [2]uint32{n.StartByte(), n.EndByte()}
				if reported[key] {
					continue
				}
				reported[key] = true
				pass.ReportKernelf(k.Name, n, "every thread performs %s on the same global address (%s does not depend on the thread), so the whole grid serialises on one location; reduce within the warp (__shfl_down_sync or __reduce_add_sync) and the block (shared memory) first and issue one atomic per block", calleeText(n, src), pass.File.Text(args.NamedChild(0)))
			}
		}
		pass.ReportKernelFeatureStatus(k.Name, "atomics", total, df.Kernels.WeightStatus(k))
	}
	return nil, nil
}

// elected reports whether a thread-dependent condition that elects a few
// threads controls n: an equality (lane == 0), a negation (!(tid & 31)),
// a comparison with a small constant (lane < 1), a switch on the thread,
// or && with one of them.
func elected(ti *taint.Info, s *affine.Scope, n *syntax.Node) bool {
	for _, g := range ti.Guards(n) {
		if ti.Expr(g) == taint.Varying && (isElection(s, g) || g.Parent() != nil && g.Parent().Type() == "switch_statement") {
			return true
		}
	}
	return false
}

// electMax is the largest constant a comparison of the thread's index may
// bound to count as an election: lane < 4 lets a few lanes of each warp
// through; lane < 32, i < 1024 or i < n lets nearly all, and a comparison
// of data (in[i] < 0) elects nobody in particular.
const electMax = 16

func isElection(s *affine.Scope, e *syntax.Node) bool {
	for e != nil && (e.Type() == "parenthesized_expression" || e.Type() == "condition_clause") && e.NamedChildCount() == 1 {
		e = e.NamedChild(0)
	}
	if e == nil {
		return false
	}
	switch e.Type() {
	case "binary_expression":
		l, r := e.ChildByFieldName("left"), e.ChildByFieldName("right")
		small := func(x *syntax.Node) bool {
			v, ok := s.Eval(x).Int()
			return ok && v <= electMax
		}
		// The thread's index (threadIdx.x & 31, a lane number), not data:
		// its form is known and depends on threadIdx.
		index := func(x *syntax.Node) bool {
			f := s.Eval(x)
			return f.Kind != affine.Unknown && f.ThreadDependent()
		}
		switch e.Operator() {
		case "==":
			return true
		case "<", "<=":
			return small(r) && index(l)
		case ">", ">=":
			return small(l) && index(r)
		case "&&":
			return isElection(s, l) || isElection(s, r)
		case "||":
			return isElection(s, l) && isElection(s, r)
		}
	case "unary_expression":
		return e.Operator() == "!"
	}
	return false
}

func calleeText(n *syntax.Node, src []byte) string {
	if fn := n.ChildByFieldName("function"); fn != nil {
		return fn.Content(src)
	}
	return "an atomic"
}
