package workload

import (
	_ "embed"
	"math"
	"reflect"
	"slices"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/hostexec"
	"github.com/cudaperf/cudaperf/analysis/launchcfg"
	"github.com/cudaperf/cudaperf/analysis/passes/arith"
	"github.com/cudaperf/cudaperf/analysis/passes/coalescing"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/analysis/tripcount"
)

//go:embed doc.go
var doc string

// Analyzer reports the per-call workload features; its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "workload",
	Doc:        analysis.MustExtractDoc(doc, "workload"),
	URL:        "https://cudaperf.dev/checks/workload",
	Requires:   []*analysis.Analyzer{dataflow.Analyzer, coalescing.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	Features: []analysis.FeatureDef{
		{Name: "launches_per_call", Unit: "launches", Doc: "launches of the kernel in one call of the host entry at the bound problem size. Formula: Σ over launch sites of the trip counts of the host loops around them", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
		{Name: "blocks", Unit: "blocks", Doc: "thread blocks the kernel's launches start in one call. Formula: Σ over launches of grid.x·grid.y·grid.z", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
		{Name: "threads", Unit: "threads", Doc: "threads the kernel's launches start in one call. Formula: Σ over launches of blocks·block.x·block.y·block.z", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
		{Name: "gbytes", Unit: "bytes", Doc: "bytes of global loads and stores the kernel requests in one call. Formula: Σ over launches of threads · Σ over accesses of element size · trip counts at the size · guard fraction", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
		{Name: "flops_call", Unit: "FLOPs", Doc: "floating-point operations (FMA = 2) of the kernel in one call. Formula: Σ over launches of threads · flops per thread at the size's trip counts", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
		{Name: "dram_bytes", Unit: "bytes", Doc: "estimated DRAM traffic of the kernel in one call, modelling reuse. Formula: per array, T = sector traffic, F = address span; min(T, F) when F fits in L2, else min(T, max(F, blocks·Fb)), Fb one block's span", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
		{Name: "t_dram_us", Unit: "us", Doc: "time to move dram_bytes at the device's DRAM bandwidth. Formula: dram_bytes / bandwidth", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
		{Name: "t_flop_us", Unit: "us", Doc: "time for flops_call at the device's FP32 peak. Formula: flops_call / peak", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
		{Name: "t_lower_us", Unit: "us", Doc: "lower bound on the kernel's time per call from traffic and FLOPs (launch overhead excluded). Formula: max(t_dram_us, t_flop_us)", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
	},
	Severity: analysis.Info,
}

// Work is one kernel's workload per call.
type Work struct {
	Launches, Blocks, Threads float64
	GBytes, Flops, DRAMBytes  float64
	// Known is false when a launch's dimensions could not be evaluated:
	// nothing above is then a value.
	Known bool
	// Exact is true when no estimate entered the launch counts and
	// dimensions (Shape) or the per-thread counts (Counts).
	ShapeExact, CountsExact bool
}

// Result maps each kernel to its workload per call; a kernel the file
// does not launch has none.
type Result struct {
	ByKernel map[*kernels.Function]*Work
}

// instance is one launch, reached from an entry with a multiplicity.
type instance struct {
	l           *kernels.Launch
	grid, block [3]int64
	known       bool
	mult        float64
	exact       bool // mult and dimensions are exact
	args        map[string]affine.Form
}

type walker struct {
	r     *kernels.Result
	src   []byte
	insts []instance
	// ran is true when every entry ran to its end on integers: a launch
	// site it did not reach is then not executed in a call.
	ran bool
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	coal := pass.ResultOf[coalescing.Analyzer].(map[*dataflow.Access]coalescing.Request)
	r := df.Kernels
	w := &walker{r: r, src: pass.File.Src}
	es := entries(r, pass.Sizes)
	w.ran = len(es) > 0
	for _, e := range es {
		// Run the host code on integers (loops that find a power of two,
		// reductions that relaunch until one block is left); where it
		// cannot tell which way the code goes, evaluate the launches
		// symbolically instead.
		if w.exec(e, pass.Sizes, int64(pass.Device.SMs)) {
			continue
		}
		w.ran = false
		bind := map[string]affine.Form{}
		for _, p := range e.Params {
			if v, ok := pass.Sizes[p.Name]; ok {
				bind[p.Name] = affine.Const(v)
			}
		}
		w.host(e, bind, 1, true, 0)
	}
	res := &Result{ByKernel: map[*kernels.Function]*Work{}}
	for _, k := range r.Kernels {
		var wk *Work
		for _, in := range w.insts {
			if in.l.Kernel != k {
				continue
			}
			if wk == nil {
				wk = &Work{Known: true, ShapeExact: true, CountsExact: true}
			}
			w.add(pass, df, coal, k, in, wk)
		}
		if wk == nil && w.ran && len(k.LaunchedBy) > 0 {
			// The host code ran to its end without reaching this
			// kernel's launches at this size (the odd-width path of an
			// image kernel): it does no work in this call.
			wk = &Work{Known: true, ShapeExact: true, CountsExact: true}
		}
		if wk == nil {
			for _, f := range pass.Analyzer.Features {
				pass.ReportKernelUnknown(k.Name, f.Name) // not launched from this file
			}
			continue
		}
		res.ByKernel[k] = wk
		report(pass, k, wk)
	}
	return res, nil
}

// entries returns the host functions that no other host function of the
// file calls; with sizes, those among them that take a bound parameter
// when there are any (the task's entry point, not a main that tests it).
func entries(r *kernels.Result, sizes map[string]int64) []*kernels.Function {
	called := map[*kernels.Function]bool{}
	for _, f := range r.Functions {
		if f.Kind == kernels.Host {
			for _, g := range f.Calls {
				if g != f {
					called[g] = true
				}
			}
		}
	}
	var roots, sized []*kernels.Function
	for _, f := range r.Functions {
		if f.Kind != kernels.Host || f.Body == nil || called[f] {
			continue
		}
		roots = append(roots, f)
		for _, p := range f.Params {
			if _, ok := sizes[p.Name]; ok {
				sized = append(sized, f)
				break
			}
		}
	}
	if len(sized) > 0 {
		return sized
	}
	return roots
}

// host walks a host function with its parameters bound: its launches are
// recorded and the host functions of the file it calls are walked with
// their arguments, each multiplied by the trips of the loops around it.
func (w *walker) host(f *kernels.Function, bind map[string]affine.Form, mult float64, exact bool, depth int) {
	if depth > 6 || f.Body == nil {
		return
	}
	scope := w.r.Scope(f)
	if len(bind) > 0 {
		scope = scope.Bind(bind)
	}
	loops := tripcount.Analyze(scope)
	for _, st := range f.Sites {
		if st.Kind != kernels.CallSite || st.InLambda {
			continue
		}
		m, mexact := mult, exact
		for _, lp := range loops.Enclosing(st.Node) {
			if lp.Kind == tripcount.Constant {
				m *= float64(lp.Trips)
			} else {
				m *= lp.Weight
				mexact = false
			}
		}
		if l := launchAt(f, st.Node); l != nil {
			w.launch(scope, l, m, mexact)
			continue
		}
		name := launchcfg.KernelName(st.Node.ChildByFieldName("function"), w.src)
		args := st.Node.ChildByFieldName("arguments")
		for _, g := range w.r.Named(name) {
			if g == f || g.Kind != kernels.Host || g.Body == nil || args == nil || int(args.NamedChildCount()) != len(g.Params) {
				continue
			}
			gb := map[string]affine.Form{}
			for i, p := range g.Params {
				if p.Name != "" {
					gb[p.Name] = scope.Eval(args.NamedChild(i))
				}
			}
			w.host(g, gb, m, mexact, depth+1)
			break
		}
	}
}

// exec runs entry with package hostexec and records its launches; false
// when the run did not complete (nothing is recorded then).
func (w *walker) exec(e *kernels.Function, sizes map[string]int64, sms int64) bool {
	funcs := map[string]hostexec.Func{}
	fn := func(f *kernels.Function) hostexec.Func {
		hf := hostexec.Func{Node: f.Node, Body: f.Body}
		for _, p := range f.Params {
			hf.Params = append(hf.Params, p.Name)
		}
		return hf
	}
	for _, f := range w.r.Functions {
		if f.Kind == kernels.Host && f.Body != nil && f.Template == nil {
			if _, dup := funcs[f.Name]; !dup {
				funcs[f.Name] = fn(f)
			}
		}
	}
	args := map[string]int64{}
	for _, p := range e.Params {
		if p.Pointer > 0 {
			// The caller's buffers come from cudaMalloc: 256-byte
			// aligned and not null, which is all that host code asks
			// of them ((uintptr_t)x % 16 == 0 picks the float4 path).
			args[p.Name] = 1 << 40
		}
	}
	for k, v := range sizes {
		args[k] = v
	}
	res := hostexec.Run(w.r.Affine, fn(e), args, funcs, hostexec.Options{SMs: sms})
	if !res.Complete {
		return false
	}
	for _, hl := range res.Launches {
		var l *kernels.Launch
		for _, c := range w.r.Launches {
			if c.Node == hl.Node {
				l = c
			}
		}
		if l == nil || l.Kernel == nil {
			continue
		}
		in := instance{l: l, mult: float64(hl.Count), exact: true, known: hl.Known(), args: map[string]affine.Form{}}
		for i := 0; i < 3; i++ {
			in.grid[i], in.block[i] = hl.Grid[i].V, hl.Block[i].V
			if in.grid[i] < 1 || in.block[i] < 1 {
				in.known = false
			}
		}
		for i, p := range l.Kernel.Params {
			if i < len(hl.Args) && hl.Args[i].Known && p.Name != "" && p.Pointer == 0 {
				in.args[p.Name] = affine.Const(hl.Args[i].V)
			}
		}
		w.insts = append(w.insts, in)
	}
	return true
}

func launchAt(f *kernels.Function, n *syntax.Node) *kernels.Launch {
	for _, l := range f.Launches {
		if l.Node == n {
			return l
		}
	}
	return nil
}

// launch records one launch evaluated in the bound scope of its caller.
func (w *walker) launch(scope *affine.Scope, l *kernels.Launch, mult float64, exact bool) {
	if l.Kernel == nil {
		return
	}
	in := instance{l: l, mult: mult, exact: exact, known: true, args: map[string]affine.Form{}}
	cfg := launchcfg.At(scope, l.Node)
	if cfg == nil {
		in.known = false
	} else {
		for i := 0; i < 3; i++ {
			g, gok := cfg.Grid[i].Int()
			b, bok := cfg.Block[i].Int()
			if !gok || !bok || g < 1 || b < 1 {
				in.known = false
			}
			in.grid[i], in.block[i] = g, b
		}
	}
	for i, p := range l.Kernel.Params {
		if i < len(l.Args) && p.Name != "" {
			in.args[p.Name] = scope.Eval(l.Args[i])
		}
	}
	w.insts = append(w.insts, in)
}

// add adds one launch's work to wk.
func (w *walker) add(pass *analysis.Pass, df *dataflow.Result, coal map[*dataflow.Access]coalescing.Request, k *kernels.Function, in instance, wk *Work) {
	if !in.known {
		wk.Known = false
		return
	}
	wk.ShapeExact = wk.ShapeExact && in.exact
	blocks := float64(in.grid[0] * in.grid[1] * in.grid[2])
	tpb := float64(in.block[0] * in.block[1] * in.block[2])
	threads := blocks * tpb
	wk.Launches += in.mult
	wk.Blocks += in.mult * blocks
	wk.Threads += in.mult * threads

	// The kernel seen from this launch: parameters, blockDim and gridDim
	// bound, loops counted at the size.
	bind := map[string]affine.Form{}
	for name, f := range in.args {
		bind[name] = f
	}
	dims := map[string]affine.Form{}
	for i, d := range []string{"x", "y", "z"} {
		dims["blockDim."+d] = affine.Const(in.block[i])
		dims["gridDim."+d] = affine.Const(in.grid[i])
		bind["blockDim."+d] = dims["blockDim."+d]
		bind["gridDim."+d] = dims["gridDim."+d]
	}
	kscope := w.r.Scope(k).Bind(bind)
	c := newCounter(tripcount.Analyze(kscope), kscope, in)

	var flops, bytes float64
	spans := map[any]*span{}
	var order []any
	for _, call := range df.Reach(k) {
		if call.Func == k {
			flops += arith.CountWith(df, k, w.src, c.weight).Flops
		} else {
			// A device function: its own loops keep their static
			// weights (an estimate), times its call sites' weight.
			flops += call.Weight * arith.Count(df, call.Func, w.src).Flops
			c.exact = false
		}
		for _, a := range df.Accesses(call.Func) {
			if a.Space != dataflow.Global {
				continue
			}
			var execs float64
			idx := call.Index(a).Subst(in.args).Subst(dims)
			if call.Func == k {
				idx = df.IndexIn(kscope, a)
			}
			if call.Func == k {
				execs = c.weight(a.Node) * c.guard(a.Node)
			} else {
				execs = call.Weight * a.Weight
			}
			if a.Read && a.Write {
				execs *= 2 // a read-modify-write is a load and a store
			}
			bytes += execs * float64(a.Size)
			// Sector traffic per thread: a warp request of Sectors
			// 32-byte sectors serves 32 threads.
			traffic := execs * float64(a.Size)
			if req, ok := coal[a]; ok && req.Known && req.Sectors > 0 {
				traffic = execs * float64(req.Sectors)
			}
			key := any(a.Base)
			if a.Decl != nil {
				key = a.Decl
			}
			s, ok := spans[key]
			if !ok {
				s = &span{lo: math.Inf(1), hi: math.Inf(-1), blo: math.Inf(1), bhi: math.Inf(-1)}
				spans[key] = s
				order = append(order, key)
			}
			s.traffic += traffic * threads
			lo, hi, ok := c.interval(idx, call.Func == k, false)
			blo, bhi, bok := c.interval(idx, call.Func == k, true)
			if !ok || !bok {
				s.unknown = true
				continue
			}
			sz := float64(a.Size)
			s.lo, s.hi = math.Min(s.lo, lo*sz), math.Max(s.hi, (hi+1)*sz)
			s.blo, s.bhi = math.Min(s.blo, blo*sz), math.Max(s.bhi, (bhi+1)*sz)
		}
	}
	l2 := float64(pass.Device.L2Bytes)
	dram := 0.0
	for _, key := range order {
		s := spans[key]
		t := s.traffic
		if s.unknown || s.hi <= s.lo {
			dram += t // no footprint known: no reuse assumed
			continue
		}
		// Reuse: the whole span once when it fits in L2; else each
		// block's own span once (a block's threads and loop iterations
		// reuse what it fetched while it runs), at least the span.
		f := s.hi - s.lo
		x := f
		if f > l2 {
			x = math.Max(f, blocks*(s.bhi-s.blo))
		}
		dram += math.Min(t, x)
	}
	wk.CountsExact = wk.CountsExact && c.exact && in.exact
	wk.GBytes += in.mult * threads * bytes
	wk.Flops += in.mult * threads * flops
	wk.DRAMBytes += in.mult * dram
}

// span is the byte range and the sector traffic of one array's accesses,
// and the byte range of one block's (block 0's) accesses.
type span struct {
	lo, hi   float64
	blo, bhi float64
	traffic  float64
	unknown  bool
}

// counter weighs a kernel's nodes by its loops' trips at a size.
type counter struct {
	loops *tripcount.Info
	scope *affine.Scope
	in    instance
	trips map[*tripcount.Loop]float64
	vars  map[string]*tripcount.Loop
	exact bool
}

func newCounter(loops *tripcount.Info, scope *affine.Scope, in instance) *counter {
	c := &counter{loops: loops, scope: scope, in: in, trips: map[*tripcount.Loop]float64{}, vars: map[string]*tripcount.Loop{}, exact: true}
	// Outer loops come first in source order, so an inner loop's bound
	// can use an outer counter's mean.
	for _, l := range loops.Loops() {
		t, ok := l.MeanTrips(c.mean)
		switch {
		case ok && l.Kind == tripcount.Constant:
		case ok:
			c.exact = false // a mean over threads, or over an outer loop
		default:
			t = l.Weight
			c.exact = false
		}
		c.trips[l] = t
		if l.Var != "" {
			c.vars[l.Var] = l
		}
	}
	return c
}

// mean gives the mean value of a symbol over a launch's threads and
// loops: threadIdx.x averages (block.x − 1)/2, a loop counter half its
// trips.
func (c *counter) mean(sym string) (float64, bool) {
	lo, hi, ok := c.symRange(sym)
	return (lo + hi) / 2, ok
}

// symRange is the range a symbol takes.
func (c *counter) symRange(sym string) (lo, hi float64, ok bool) {
	for i, d := range []string{"x", "y", "z"} {
		switch sym {
		case "threadIdx." + d:
			return 0, float64(c.in.block[i] - 1), true
		case "blockIdx." + d:
			return 0, float64(c.in.grid[i] - 1), true
		case "blockDim." + d:
			return float64(c.in.block[i]), float64(c.in.block[i]), true
		case "gridDim." + d:
			return float64(c.in.grid[i]), float64(c.in.grid[i]), true
		}
	}
	if l, ok := c.vars[sym]; ok {
		if t, ok := c.trips[l]; ok {
			return 0, math.Max(0, math.Ceil(t)-1), true
		}
	}
	return 0, 0, false
}

// weight is the product of the trips of the loops around n.
func (c *counter) weight(n *syntax.Node) float64 {
	w := 1.0
	for _, l := range c.loops.Enclosing(n) {
		w *= c.trips[l]
	}
	return w
}

// guard is the fraction of threads that reach n past the if statements
// around it whose condition singles threads out: threadIdx.x == c lets one
// thread of a row through, another thread-dependent equality (lane == 0)
// one of a warp, threadIdx.x < c the first c.
func (c *counter) guard(n *syntax.Node) float64 {
	g := 1.0
	for p := n; p != nil && p.Parent() != nil; p = p.Parent() {
		par := p.Parent()
		if par.Type() == "function_definition" {
			break
		}
		if par.Type() != "if_statement" || par.ChildByFieldName("consequence") != p {
			continue
		}
		cond := par.ChildByFieldName("condition")
		for cond != nil && (cond.Type() == "condition_clause" || cond.Type() == "parenthesized_expression") && cond.NamedChildCount() > 0 {
			cond = cond.NamedChild(int(cond.NamedChildCount()) - 1)
		}
		if cond == nil || cond.Type() != "binary_expression" {
			continue
		}
		l, r := c.scope.Eval(cond.ChildByFieldName("left")), c.scope.Eval(cond.ChildByFieldName("right"))
		tid := affine.Sym("threadIdx.x")
		bx := float64(c.in.block[0])
		switch op := cond.Operator(); {
		case op == "==" && (l.Equal(tid) || r.Equal(tid)):
			g /= bx
		case op == "==" && (l.ThreadDependent() || r.ThreadDependent()):
			g /= 32
		case (op == "<" || op == "<=") && l.Equal(tid):
			if v, ok := r.Int(); ok && float64(v) < bx {
				if op == "<=" {
					v++
				}
				g *= math.Max(float64(v), 0) / bx
			} else {
				continue
			}
		default:
			continue
		}
		c.exact = false
	}
	return g
}

// interval is the range of an index over the launch: thread and block
// indices over their dimensions, loop counters over their trips (in the
// kernel's own body; a device function's counters are not known here).
func (c *counter) interval(f affine.Form, inKernel, oneBlock bool) (lo, hi float64, ok bool) {
	if f.Kind != affine.Affine || !inKernel {
		return 0, 0, false
	}
	lo, hi = float64(f.Const), float64(f.Const)
	for _, t := range f.Terms() {
		plo, phi := 1.0, 1.0
		for _, x := range affine.Factors(t.Mono) {
			if _, atom := affine.IsAtom(x); atom {
				return 0, 0, false
			}
			a, b, ok := c.symRange(x)
			if !ok {
				return 0, 0, false
			}
			if oneBlock && len(x) > 9 && x[:9] == "blockIdx." {
				a, b = 0, 0
			}
			cands := []float64{plo * a, plo * b, phi * a, phi * b}
			plo, phi = slices.Min(cands), slices.Max(cands)
		}
		k := float64(t.Coef)
		if k >= 0 {
			lo, hi = lo+k*plo, hi+k*phi
		} else {
			lo, hi = lo+k*phi, hi+k*plo
		}
	}
	return lo, hi, true
}

func report(pass *analysis.Pass, k *kernels.Function, wk *Work) {
	name := k.Name
	if !wk.Known {
		for _, f := range pass.Analyzer.Features {
			pass.ReportKernelUnknown(name, f.Name)
		}
		return
	}
	shape := analysis.Estimated
	if wk.ShapeExact {
		shape = analysis.Exact
	}
	counts := analysis.Estimated
	if wk.CountsExact {
		counts = analysis.Exact
	}
	pass.ReportKernelFeatureStatus(name, "launches_per_call", wk.Launches, shape)
	pass.ReportKernelFeatureStatus(name, "blocks", wk.Blocks, shape)
	pass.ReportKernelFeatureStatus(name, "threads", wk.Threads, shape)
	pass.ReportKernelFeatureStatus(name, "gbytes", wk.GBytes, counts)
	pass.ReportKernelFeatureStatus(name, "flops_call", wk.Flops, counts)
	// A model of caches: always an estimate.
	pass.ReportKernelFeatureStatus(name, "dram_bytes", wk.DRAMBytes, analysis.Estimated)
	dev := pass.Device
	tDRAM, tFlop := 0.0, 0.0
	if dev.DRAMBandwidth > 0 {
		tDRAM = wk.DRAMBytes / dev.DRAMBandwidth * 1e6
	}
	if dev.FP32Peak > 0 {
		tFlop = wk.Flops / dev.FP32Peak * 1e6
	}
	if dev.DRAMBandwidth <= 0 || dev.FP32Peak <= 0 {
		pass.ReportKernelUnknown(name, "t_dram_us")
		pass.ReportKernelUnknown(name, "t_flop_us")
		pass.ReportKernelUnknown(name, "t_lower_us")
		return
	}
	pass.ReportKernelFeatureStatus(name, "t_dram_us", tDRAM, analysis.Estimated)
	pass.ReportKernelFeatureStatus(name, "t_flop_us", tFlop, counts)
	pass.ReportKernelFeatureStatus(name, "t_lower_us", math.Max(tDRAM, tFlop), analysis.Estimated)
}
