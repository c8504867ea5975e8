package coalescing

import (
	_ "embed"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/options"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/analysis/tripcount"
)

//go:embed doc.go
var doc string

// Analyzer reports the coal and coal_unknown features and uncoalesced
// accesses.
var Analyzer = &analysis.Analyzer{
	Name:       "coalescing",
	Doc:        analysis.MustExtractDoc(doc, "coalescing"),
	URL:        "https://cudaperf.dev/checks/coalescing",
	Requires:   []*analysis.Analyzer{dataflow.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((map[*dataflow.Access]Request)(nil)),
	Features: []analysis.FeatureDef{
		{Name: "coal", Unit: "fraction", Doc: "mean ideal/actual 32-byte sectors per warp request over global accesses with a known index, loop-weighted; broadcasts (every lane the same address) are left out; unknown when no access has a known index", Range: "(0, 1]", Level: analysis.LevelKernel},
		{Name: "coal_load", Unit: "fraction", Doc: "coal over the global loads only (unknown when no load has a known index)", Range: "(0, 1]", Level: analysis.LevelKernel},
		{Name: "coal_store", Unit: "fraction", Doc: "coal over the global stores and read-modify-writes only: a strided store costs more than a strided load (about 3x on the H200 for a transpose), so the two are kept apart (unknown when no store has a known index)", Range: "(0, 1]", Level: analysis.LevelKernel},
		{Name: "coal_unknown", Unit: "fraction", Doc: "loop-weighted fraction of global accesses whose index is not affine in threadIdx.x", Range: "[0, 1]", Level: analysis.LevelKernel},
	},
	Severity: analysis.Warning,
	// A warp never touches fewer sectors than the ideal, so a ratio below 1
	// would report every access.
	Options: []options.Def{{Name: "min-ratio", Type: options.Float, Default: "2", Min: "1",
		Doc: "report an access when a warp touches at least this many times the ideal 32-byte sectors"}},
}

// Request is the sector count of one warp-wide access.
type Request struct {
	Known    bool   // the index is affine in threadIdx.x
	Stride   int64  // elements between neighbouring lanes (when not symbolic)
	Symbolic string // the stride's monomial when it is not a constant, e.g. "K"
	Sectors  int    // 32-byte sectors one warp touches
	Ideal    int    // sectors of the stride-1 request
}

// Efficiency returns Ideal/Sectors (1 for unknown requests, which callers
// must treat separately).
func (r Request) Efficiency() float64 {
	if !r.Known || r.Sectors == 0 {
		return 1
	}
	return float64(r.Ideal) / float64(r.Sectors)
}

// Analyze computes the request of a warp accessing elements of size bytes
// at index, from the addresses of its 32 lanes (affine.Form.WarpShape) in
// blocks blockX threads wide (0: unknown, taken as whole-warp rows).
func Analyze(index affine.Form, size, blockX int64) Request {
	req, _ := analyze(index, size, blockX)
	return req
}

// analyze is Analyze that also returns the lanes' element indices, which
// groupEfficiency reuses.
func analyze(index affine.Form, size, blockX int64) (Request, [32]int64) {
	if size <= 0 {
		size = 4
	}
	ideal := int(ceilDiv(32*size, 32))
	lanes, symbolic, ok := index.WarpShape(0, blockX)
	if !ok {
		return Request{Ideal: ideal}, lanes
	}
	var buf [64]int64
	req := Request{Known: true, Sectors: distinct(sectors(buf[:0], lanes, size)), Ideal: ideal, Symbolic: strings.Join(symbolic, " + ")}
	// A linear pattern has a stride to report; a broadcast counts as ideal.
	stride := lanes[1] - lanes[0]
	linear := true
	for l := range lanes {
		if lanes[l]-lanes[0] != int64(l)*stride {
			linear = false
		}
	}
	if linear {
		req.Stride = stride
		if req.Stride < 0 {
			req.Stride = -req.Stride
		}
		if stride == 0 {
			req.Ideal = req.Sectors
		}
	} else {
		req.Stride = -1
	}
	return req, lanes
}

// sectors appends the 32-byte sectors the lanes' elements of size bytes
// touch to dst (with repeats).
func sectors(dst []int64, lanes [32]int64, size int64) []int64 {
	for _, e := range lanes {
		first := e * size
		for b := floorDiv(first, 32); b <= floorDiv(first+size-1, 32); b++ {
			dst = append(dst, b)
		}
	}
	return dst
}

// distinct sorts xs and returns the number of distinct values: sector sets
// are small, and sorting a slice costs less than filling a map.
func distinct(xs []int64) int {
	slices.Sort(xs)
	n := 0
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			n++
		}
	}
	return n
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// member is one global access of a kernel, with its request.
type member struct {
	a      *dataflow.Access
	req    Request
	lanes  [32]int64 // the lanes' element indices (req is Known)
	w      float64
	index  affine.Form
	blockX int64
	loop   *tripcount.Loop // innermost loop around the access, or nil
	fn     *kernels.Function
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	out := map[*dataflow.Access]Request{}
	reported := map[[2]uint32]bool{}
	shared := sharedParams(df.Kernels, pass.File.Src)
	minRatio := pass.Options.Float("min-ratio")
	for _, k := range df.Kernels.Kernels {
		// The means, over loads [0], stores [1] and both [2]: eff sums
		// weight·efficiency over accesses with a known, non-broadcast
		// index (known their weights); unknown and total weigh the
		// accesses whose index is not known, and all of them.
		var eff, known, unknown, total [3]float64
		bx := df.BlockX(k)
		groups := map[groupKey][]*member{}
		var order []groupKey
		for _, c := range df.Reach(k) {
			loops := df.Kernels.Loops(c.Func)
			for _, a := range df.Accesses(c.Func) {
				if a.Space != dataflow.Global {
					continue
				}
				w := a.Weight * c.Weight
				idx := c.Index(a)
				req, lanes := analyze(idx, a.Size, bx)
				out[a] = req
				kind := kindOf(a)
				total[kind] += w
				total[2] += w
				if !req.Known {
					unknown[kind] += w
					unknown[2] += w
					continue
				}
				if req.Stride == 0 || req.Sectors < req.Ideal {
					// A broadcast (or a partial one: the two rows of a
					// 16-wide block reading one element each): fewer
					// transactions than a stride-1 warp, neither
					// coalesced nor wasteful; counting it as ideal (or
					// better) would hide the strided accesses next to it.
					continue
				}
				enc := loops.Enclosing(a.Node)
				key := keyOf(c.Func.Node.StartByte(), enc, a, idx)
				if _, ok := groups[key]; !ok {
					order = append(order, key)
				}
				m := &member{a: a, req: req, lanes: lanes, w: w, index: idx, blockX: bx, fn: c.Func}
				if len(enc) > 0 {
					m.loop = enc[0]
				}
				groups[key] = append(groups[key], m)
			}
		}
		for _, key := range order {
			ms := groups[key]
			g := groupEfficiency(ms)
			for i, m := range ms {
				e := min(m.req.Efficiency(), 1)
				if g > e {
					e = g
				}
				kind := kindOf(m.a)
				eff[kind] += m.w * e
				known[kind] += m.w
				eff[2] += m.w * e
				known[2] += m.w
				nk := [2]uint32{m.a.Node.StartByte(), m.a.Node.EndByte()}
				if float64(m.req.Sectors) < minRatio*float64(m.req.Ideal) || reported[nk] {
					continue
				}
				if d := m.a.Decl; d != nil && d.Param && shared[m.fn.Name][paramIndex(m.fn, d.Name)] {
					continue // the pointer is a __shared__ array of the caller
				}
				switch {
				case g <= 0.5:
					reported[nk] = true
					report(pass, k.Name, m.a, m.req)
				case i == 0:
					// Together the group reads contiguous memory: only the
					// number of requests is wasteful.
					reported[nk] = true
					// A symbolic stride is named as written (its number is
					// a stand-in), and a group that still wastes part of
					// its sectors says how much ("no sectors are wasted"
					// was said of one that wasted a third).
					apart := fmt.Sprintf("%d", m.req.Stride)
					if m.req.Symbolic != "" {
						apart = m.req.Symbolic
					}
					waste := "so no sectors are wasted"
					if g < 0.99 {
						waste = fmt.Sprintf("so about %.0f%% of the bytes of the sectors they touch go unused", 100*(1-g))
					}
					pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Info, Range: analysis.NodeRange(m.a.Node), Kernel: k.Name,
						Message: fmt.Sprintf("global %s is strided (neighbouring threads %s elements apart) but %s cover contiguous memory, %s; each is still a separate request touching %d sectors — access a thread's elements as one vector (float2/float4), or stage through shared memory", pass.File.Text(m.a.Node), apart, together(ms), waste, m.req.Sectors)})
				}
			}
		}
		st := df.Kernels.WeightStatus(k)
		for i, name := range []string{"coal_load", "coal_store", "coal"} {
			switch {
			case known[i] > 0:
				pass.ReportKernelFeatureStatus(k.Name, name, eff[i]/known[i], st)
			case unknown[i] > 0:
				// Only unknown indices: no number, never a 0 that reads
				// as the worst pattern.
				pass.ReportKernelUnknown(k.Name, name)
			default:
				// No access of this kind, or broadcasts only: no sector
				// is wasted.
				pass.ReportKernelFeature(k.Name, name, 1)
			}
		}
		frac := 0.0
		if total[2] > 0 {
			frac = unknown[2] / total[2]
		}
		pass.ReportKernelFeatureStatus(k.Name, "coal_unknown", frac, st)
	}
	return out, nil
}

// kindOf returns 0 for a load and 1 for a store or read-modify-write.
func kindOf(a *dataflow.Access) int {
	if a.Write {
		return 1
	}
	return 0
}

// groupKey puts together accesses that a warp issues one after the other on
// neighbouring data: same function, same innermost loop, same variable and
// direction, element size, and an index differing only by a constant
// (acc[3*i], acc[3*i + 1], acc[3*i + 2]).
type groupKey struct {
	fn, loop    uint32
	base        string
	decl        *affine.Decl
	read, write bool
	size        int64
	index       string // the index without its constant
}

func keyOf(fn uint32, loops []*tripcount.Loop, a *dataflow.Access, idx affine.Form) groupKey {
	loop := uint32(0)
	if len(loops) > 0 {
		loop = loops[0].Node.StartByte() + 1
	}
	return groupKey{fn: fn, loop: loop, base: a.Base, decl: a.Decl, read: a.Read, write: a.Write, size: a.Size, index: idx.Sub(affine.Const(idx.Const)).String()}
}

// groupEfficiency is the ideal sectors of a group's requests over the
// sectors their union touches (at most 1): DRAM traffic wasted by the group
// as a whole, whatever each request looks like alone. A small constant loop
// around the group (for (k = 0; k < 4; k++) y[4*i + k]) repeats it at each
// value of its counter, and those requests count too. It returns 0 for a
// lone request.
func groupEfficiency(ms []*member) float64 {
	if len(ms) == 1 && !expands(ms[0]) {
		return 0 // one request: the answer below, without counting sectors
	}
	var union []int64
	ideal, requests := 0, 0
	for _, m := range ms {
		lanes, ok := expansions(m)
		if !ok {
			return 0
		}
		for _, ls := range lanes {
			union = sectors(union, ls, m.a.Size)
			ideal += m.req.Ideal
			requests++
		}
	}
	if requests < 2 {
		return 0
	}
	g := float64(ideal) / float64(distinct(union))
	if g > 1 {
		g = 1
	}
	return g
}

// maxUnroll bounds the constant loops whose iterations are taken as one
// group of requests.
const maxUnroll = 64

// expansions returns the lanes' element indices of a member at each
// iteration of a small constant loop whose counter its index uses, else
// just its own; ok is false when the lanes of one are unknown.
func expansions(m *member) (lanes [][32]int64, ok bool) {
	if !expands(m) {
		return [][32]int64{m.lanes}, true // a known request (see run)
	}
	l := m.loop
	out := make([][32]int64, 0, l.Trips)
	if c, ok := linearIn(m.index, l.Var); ok {
		// index = base + c·var: iteration t shifts base's lanes by c·t,
		// which is what substituting t and evaluating again gives.
		base, _, ok := m.index.Subst(map[string]affine.Form{l.Var: affine.Const(0)}).WarpShape(0, m.blockX)
		if !ok {
			return nil, false
		}
		for t := int64(0); t < l.Trips; t++ {
			ls := base
			for i := range ls {
				ls[i] += c * t
			}
			out = append(out, ls)
		}
		return out, true
	}
	for t := int64(0); t < l.Trips; t++ {
		ls, _, ok := m.index.Subst(map[string]affine.Form{l.Var: affine.Const(t)}).WarpShape(0, m.blockX)
		if !ok {
			return nil, false
		}
		out = append(out, ls)
	}
	return out, true
}

// expands reports whether m's index uses the counter of a small constant
// loop around it (see expansions).
func expands(m *member) bool {
	l := m.loop
	return l != nil && l.Kind == tripcount.Constant && l.Trips >= 2 && l.Trips <= maxUnroll && l.Var != "" && m.index.Coef(l.Var) != 0
}

// linearIn returns the coefficient of v in an affine form where v occurs
// only as a term of its own (c·v, not in a product or an atom).
func linearIn(f affine.Form, v string) (int64, bool) {
	if f.Kind != affine.Affine {
		return 0, false
	}
	for _, t := range f.Terms() {
		if t.Mono == v {
			continue
		}
		for _, x := range affine.Factors(t.Mono) {
			if x == v || strings.Contains(x, v) {
				return 0, false
			}
		}
	}
	return f.Coef(v), true
}

func together(ms []*member) string {
	if len(ms) > 1 {
		return fmt.Sprintf("it and the %d accesses next to it", len(ms)-1)
	}
	return "the iterations of its loop"
}

func report(pass *analysis.Pass, kernel string, a *dataflow.Access, req Request) {
	verb := "load from"
	if a.Write && !a.Read {
		verb = "store to"
	} else if a.Write {
		verb = "read-modify-write of"
	}
	text := pass.File.Text(a.Node)
	if req.Stride < 0 {
		pass.ReportKernelf(kernel, a.Node,
			"global %s %s is uncoalesced: the lanes of a warp touch %d 32-byte sectors instead of %d (%.1fx the ideal); arrange the index so that consecutive threadIdx.x values access consecutive elements",
			verb, text, req.Sectors, req.Ideal, float64(req.Sectors)/float64(req.Ideal))
		return
	}
	if req.Symbolic != "" {
		pass.ReportKernelf(kernel, a.Node,
			"global %s %s is uncoalesced: neighbouring threads (threadIdx.x) are %s elements apart, so a warp touches up to %d 32-byte sectors instead of %d; make threadIdx.x index the contiguous dimension (swap the row and column roles, or stage the tile through shared memory)",
			verb, text, req.Symbolic, req.Sectors, req.Ideal)
		return
	}
	pass.ReportKernelf(kernel, a.Node,
		"global %s %s is uncoalesced: neighbouring threads (threadIdx.x) are %d elements (%d B) apart, so a warp touches %d 32-byte sectors instead of %d (%.1fx the ideal); give threadIdx.x stride 1 in the index, or load contiguously and reorder through shared memory",
		verb, text, req.Stride, req.Stride*a.Size, req.Sectors, req.Ideal, float64(req.Sectors)/float64(req.Ideal))
}

// sharedParams finds the pointer parameters of the file's functions that
// a call in the file binds to a __shared__ array (or a pointer into one):
// scan(s_data + 1, n) makes scan's first parameter point at shared
// memory, whose accesses are not global traffic. The dataflow analysis
// still counts them as global for the features; the diagnostic, which
// names the memory, must not.
//
// Parameters are keyed by function name and position: the call may
// resolve to a prototype whose parameter names differ from the
// definition's.
func sharedParams(kr *kernels.Result, src []byte) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	for _, g := range kr.Functions {
		if g.Body == nil || len(g.Calls) == 0 {
			continue
		}
		var scope *affine.Scope
		syntax.Inspect(g.Body, func(n *syntax.Node) bool {
			if n.Type() != "call_expression" {
				return true
			}
			fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
			if fn == nil || args == nil {
				return true
			}
			name := fn.Content(src)
			for _, callee := range g.Calls {
				if callee.Name != name && callee.Qualified != name {
					continue
				}
				k := 0
				for i := 0; i < int(args.NamedChildCount()); i++ {
					a := args.NamedChild(i)
					if a.Type() == "comment" {
						continue
					}
					if k < len(callee.Params) && callee.Params[k].Pointer > 0 {
						if base := syntax.PointerBase(a, src, true); base != "" {
							if scope == nil {
								scope = kr.Scope(g)
							}
							d := scope.Lookup(base, a.StartByte())
							// follow local pointers: p = s_data + 1
							for hop := 0; hop < 4 && d != nil && !d.Has("__shared__") && d.Pointer > 0 && !d.Param && d.Value != nil; hop++ {
								next := syntax.PointerBase(d.Value, src, true)
								if next == "" {
									break
								}
								d = scope.Lookup(next, d.Value.StartByte())
							}
							if d != nil && d.Has("__shared__") {
								if out[callee.Name] == nil {
									out[callee.Name] = map[int]bool{}
								}
								out[callee.Name][k] = true
							}
						}
					}
					k++
				}
			}
			return true
		})
	}
	return out
}

// paramIndex is the position of the parameter named name, or -1.
func paramIndex(f *kernels.Function, name string) int {
	for i, p := range f.Params {
		if p.Name == name {
			return i
		}
	}
	return -1
}
