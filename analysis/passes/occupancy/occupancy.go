package occupancy

import (
	_ "embed"
	"fmt"
	"reflect"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/device"
	occcalc "github.com/cudaperf/cudaperf/analysis/occupancy"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/ptxas"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

//go:embed doc.go
var doc string

// LowOccupancy is the occupancy at or below which a launch is reported.
const LowOccupancy = 0.25

// Analyzer computes theoretical occupancy per kernel; its result is a
// *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "occupancy",
	Doc:        analysis.MustExtractDoc(doc, "occupancy"),
	URL:        "https://cudaperf.dev/checks/occupancy",
	Requires:   []*analysis.Analyzer{kernels.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	Features: []analysis.FeatureDef{
		{Name: "occ", Unit: "fraction", Range: "[0, 1]", Level: analysis.LevelKernel,
			Doc: "theoretical occupancy: resident warps per SM over the SM's warp limit (lowest over the kernel's launches)"},
		{Name: "occ_blocks", Unit: "blocks", Range: "[0, 32]", Level: analysis.LevelKernel,
			Doc: "resident blocks per SM at the launch with the lowest occupancy"},
	},
	Severity: analysis.Warning,
}

// Source says where a resource figure came from.
type Source string

const (
	FromPtxas    Source = "ptxas"
	FromEstimate Source = "estimate"
)

// Kernel is the occupancy of one kernel.
type Kernel struct {
	Func      *kernels.Function
	Registers int    // per thread
	RegSource Source //
	Shared    int    // static shared bytes per block
	Barriers  int
	// Launches holds one entry per launch with a constant block size, or
	// one from __launch_bounds__ when there is none.
	Launches []LaunchOcc
	// Worst is the entry with the lowest occupancy; nil when there is
	// no block size to compute with.
	Worst *LaunchOcc
}

// LaunchOcc is the occupancy at one block size.
type LaunchOcc struct {
	Launch        *kernels.Launch // nil when the block size is from __launch_bounds__
	BlockSize     int
	DynamicShared int
	Result        occcalc.Result
}

// Result maps kernels to their occupancy.
type Result struct {
	Kernels []*Kernel
}

// Of returns the occupancy of kernel f, or nil.
func (r *Result) Of(f *kernels.Function) *Kernel {
	for _, k := range r.Kernels {
		if k.Func == f {
			return k
		}
	}
	return nil
}

func run(pass *analysis.Pass) (any, error) {
	kr := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	dev := pass.Device
	res := &Result{}
	for _, f := range kr.Kernels {
		k := &Kernel{Func: f}
		res.Kernels = append(res.Kernels, k)
		resources(pass, kr, f, k)
		if static := unconditionalShared(f, map[*kernels.Function]bool{}); static > dev.SharedPerBlock && f.NameNode != nil {
			// ptxas refuses the kernel ("uses too much shared data"): more
			// than a kernel may declare statically, whatever the launch.
			// Counted without the declarations under #if (the sum would
			// add branches of which one is compiled).
			pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Error, Range: analysis.NodeRange(f.NameNode), Kernel: f.Name,
				Message: fmt.Sprintf("%s declares %d B of static __shared__ memory, over the %d B a kernel may declare statically, so it does not compile (ptxas: too much shared data); make the array extern __shared__, launch with that many bytes of dynamic shared memory, and raise the kernel's limit first with cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) (up to %d B on %s)",
					f.Name, static, dev.SharedPerBlock, f.Name, dev.SharedPerBlockOptin, dev.Name)})
		}
		bounded := false
		for _, l := range f.LaunchedBy {
			tpb, exact, ok := l.Cfg.ThreadsPerBlockBound()
			if !ok || !exact && (tpb < 1 || tpb > int64(dev.MaxThreadsPerBlock)) {
				continue
			}
			// A block size known only by its upper bound (c / 2 with c
			// at most 1024) still gives an occupancy, as an estimate.
			bounded = bounded || !exact
			if tpb <= 0 || tpb > 1<<20 {
				pass.ReportKernelf(f.Name, l.Block, "block of %d threads: a block has 1 to %d threads; this launch fails", tpb, dev.MaxThreadsPerBlock)
				continue
			}
			dyn := 0
			if v, ok := l.Cfg.SharedMem.Int(); ok && v > 0 && v < 1<<31 {
				dyn = int(v)
			}
			k.add(pass, l, int(tpb), dyn)
		}
		if len(k.Launches) == 0 && f.LaunchBounds != nil && f.LaunchBounds.MaxThreads > 0 {
			k.add(pass, nil, f.LaunchBounds.MaxThreads, 0)
		}
		if k.Worst == nil {
			continue
		}
		// Exact only with ptxas's registers and a block size that is a
		// constant; a register estimate or a bound makes it an estimate.
		st := analysis.Exact
		if k.RegSource == FromEstimate || bounded || k.Worst.Launch == nil {
			st = analysis.Estimated
		}
		pass.ReportKernelFeatureStatus(f.Name, "occ", k.Worst.Result.Occupancy, st)
		pass.ReportKernelFeatureStatus(f.Name, "occ_blocks", float64(k.Worst.Result.Blocks), st)
		for i := range k.Launches {
			if l := k.Launches[i].Launch; l != nil {
				if _, exact := l.Cfg.ThreadsPerBlock(); !exact {
					continue // a bound is no ground for a finding
				}
			}
			report(pass, dev, k, &k.Launches[i])
		}
	}
	return res, nil
}

// unconditionalShared is the static __shared__ memory of f and the
// functions it calls that no preprocessor conditional inside a function
// body selects: what every compilation declares. (A conditional around the
// whole function, an include guard, is compiled or not as a whole.)
func unconditionalShared(f *kernels.Function, seen map[*kernels.Function]bool) int {
	if seen[f] {
		return 0
	}
	seen[f] = true
	sum := 0
	for _, s := range f.Shared {
		conditional := false
		for p := s.Node; p != nil && (f.Body == nil || p != f.Body); p = p.Parent() {
			conditional = conditional || strings.HasPrefix(p.Type(), "preproc_if") || strings.HasPrefix(p.Type(), "preproc_el")
		}
		if !conditional && !s.Extern && s.Bytes > 0 {
			sum += s.Bytes
		}
	}
	for _, g := range f.Calls {
		sum += unconditionalShared(g, seen)
	}
	return sum
}

func (k *Kernel) add(pass *analysis.Pass, l *kernels.Launch, tpb, dyn int) {
	in := occcalc.Kernel{Registers: k.Registers, StaticShared: k.Shared, Barriers: k.Barriers}
	// A kernel that needs more than 48 KB of dynamic shared memory must opt
	// in with cudaFuncSetAttribute to launch at all; assume it does.
	if k.Shared+dyn > pass.Device.SharedPerBlock {
		in.OptIn, in.MaxDynamicShared = true, dyn
	}
	r, err := occcalc.Compute(pass.Device, in, occcalc.Launch{BlockSize: tpb, DynamicShared: dyn, Carveout: -1})
	if err != nil {
		return // inputs are validated above; an error here means nothing to report
	}
	k.Launches = append(k.Launches, LaunchOcc{Launch: l, BlockSize: tpb, DynamicShared: dyn, Result: r})
	// Pointers into the slice move when it grows: find the worst again.
	k.Worst = &k.Launches[0]
	for i := range k.Launches {
		if k.Launches[i].Result.Occupancy < k.Worst.Result.Occupancy {
			k.Worst = &k.Launches[i]
		}
	}
}

// resources fills registers, shared memory and barriers from ptxas or the
// source.
func resources(pass *analysis.Pass, kr *kernels.Result, f *kernels.Function, k *Kernel) {
	if p := ptxasFor(pass, f); p != nil {
		k.Registers, k.Shared, k.Barriers, k.RegSource = p.Registers, p.SharedBytes, p.Barriers, FromPtxas
		return
	}
	k.RegSource = FromEstimate
	k.Registers = EstimateRegisters(kr, f, pass.Device)
	k.Shared, _ = kr.StaticShared(f)
	if callsSync(kr, f) {
		k.Barriers = 1
	}
}

func ptxasFor(pass *analysis.Pass, f *kernels.Function) *ptxas.Function {
	if pass.Ptxas == nil {
		return nil
	}
	for _, name := range []string{f.Qualified, f.Name} {
		if p := pass.Ptxas.Kernel(name, pass.Device.Arch()); p != nil {
			return p
		}
	}
	// A report for another architecture is still better than a guess.
	for _, name := range []string{f.Qualified, f.Name} {
		if p := pass.Ptxas.Kernel(name, ""); p != nil {
			return p
		}
	}
	return nil
}

// callsSync reports whether f or a function it calls synchronizes the block.
func callsSync(kr *kernels.Result, f *kernels.Function) bool {
	seen := map[*kernels.Function]bool{}
	var visit func(g *kernels.Function) bool
	visit = func(g *kernels.Function) bool {
		if g == nil || seen[g] || g.Body == nil {
			return false
		}
		seen[g] = true
		for _, st := range g.Sites {
			if st.Kind != kernels.CallSite {
				continue
			}
			if fn := st.Node.ChildByFieldName("function"); fn != nil {
				name := fn.Content(kr.Affine.Source())
				if strings.HasPrefix(name, "__syncthreads") || strings.HasSuffix(name, ".sync") || name == "__barrier_sync" {
					return true
				}
			}
		}
		for _, c := range g.Calls {
			if visit(c) {
				return true
			}
		}
		return false
	}
	return visit(f)
}

// report emits the diagnostics of one launch.
func report(pass *analysis.Pass, dev *device.Device, k *Kernel, lo *LaunchOcc) {
	r := lo.Result
	var at *syntax.Node
	if lo.Launch != nil {
		at = lo.Launch.Block
		if at == nil {
			at = lo.Launch.Node
		}
	} else if k.Func.LaunchBounds != nil {
		at = k.Func.LaunchBounds.Node
	} else {
		at = k.Func.NameNode
	}
	src := "from ptxas"
	if k.RegSource == FromEstimate {
		src = "estimated"
	}
	switch {
	case r.Blocks == 0:
		// An error, not the analyzer's default warning: the launch fails.
		pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Error, Range: analysis.NodeRange(at), Kernel: k.Func.Name,
			Message: fmt.Sprintf("kernel %s cannot launch with %d threads per block on %s: %s; %s",
				k.Func.Name, lo.BlockSize, dev.Arch(), zeroReason(dev, k, lo, src), advice(r.Limiting))})
	case r.Occupancy <= LowOccupancy:
		pass.ReportKernelf(k.Func.Name, at, "theoretical occupancy of %s is %.0f%% (%d of %d warps per SM, %d blocks of %d threads), limited by %s (%d registers per thread %s, %d bytes of shared memory per block); %s",
			k.Func.Name, 100*r.Occupancy, r.ActiveWarps, r.MaxWarps, r.Blocks, lo.BlockSize, r.Limiting, k.Registers, src, r.SharedPerBlock, advice(r.Limiting))
	}
}

// zeroReason says which limit leaves no room for one block.
func zeroReason(dev *device.Device, k *Kernel, lo *LaunchOcc, src string) string {
	r := lo.Result
	switch {
	case r.ByWarps == 0:
		return fmt.Sprintf("a block has at most %d threads", dev.MaxThreadsPerBlock)
	case r.ByRegisters == 0:
		return fmt.Sprintf("%d registers per thread (%s) need %d registers per block, over the %d available", k.Registers, src, r.RegistersPerBlock, dev.RegsPerBlock)
	case r.BySharedMemory == 0:
		return fmt.Sprintf("%d bytes of shared memory per block (reserve included) are over the %d a block may use", r.SharedPerBlock, dev.SharedPerBlockOptin+dev.ReservedSharedPerBlock)
	}
	return "no block fits on a multiprocessor"
}

// advice says what to change for the limiting resources.
func advice(l occcalc.Limit) string {
	var out []string
	if l&occcalc.LimitRegisters != 0 {
		out = append(out, "use fewer registers per thread (__launch_bounds__(threads, minBlocks) or -maxrregcount, fewer live values) or fewer threads per block")
	}
	if l&occcalc.LimitSharedMemory != 0 {
		out = append(out, "use less shared memory per block (smaller tiles, or fewer threads per block sharing one tile)")
	}
	if l&occcalc.LimitWarps != 0 {
		out = append(out, "use at most 1024 threads per block")
	}
	if l&occcalc.LimitBlocks != 0 {
		out = append(out, "use larger blocks (at least 64 threads) so the blocks-per-SM cap does not bind")
	}
	if l&occcalc.LimitBarriers != 0 {
		out = append(out, "use fewer named barriers per block")
	}
	if len(out) == 0 {
		return "check the launch configuration"
	}
	return strings.Join(out, "; ")
}
