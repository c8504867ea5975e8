package occupancy

import (
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
)

// Constants of the register estimate (see the package doc), fitted on the
// c2cuda suite against ptxas for sm_90 (bench/perf/analysis.md).
const (
	baseRegisters    = 12  // indices, addresses, loop counters, temporaries
	ptrRegisters     = 1   // per pointer parameter (a 64-bit address, often folded into addressing)
	scalarWeight     = 0.5 // per 32-bit word of local scalars: ptxas reuses registers between short-lived values
	maxRegisterWords = 128 // local arrays up to this many words are assumed to stay in registers (indexed by constants after unrolling), one register a word
)

// EstimateRegisters guesses the registers per thread ptxas would give
// kernel f, for when no ptxas report is available.
func EstimateRegisters(kr *kernels.Result, f *kernels.Function, dev *device.Device) int {
	regs := baseRegisters
	for _, p := range f.Params {
		if p.Pointer > 0 {
			regs += ptrRegisters
		}
	}
	seen := map[*kernels.Function]bool{}
	scalars, arrays := 0, 0
	var locals func(g *kernels.Function, depth int)
	locals = func(g *kernels.Function, depth int) {
		if g == nil || g.Body == nil || seen[g] || depth > 8 {
			return
		}
		seen[g] = true
		for _, d := range kr.Scope(g).Decls() {
			if d.Param || d.Has("__shared__") || d.Has("static") || d.Has("extern") {
				continue // a callee's parameters are the caller's values
			}
			if len(d.Dims) > 0 {
				arrays += words(kr.Scope(g), d)
			} else {
				scalars += words(kr.Scope(g), d)
			}
		}
		for _, c := range g.Calls {
			locals(c, depth+1)
		}
	}
	locals(f, 0)
	regs += int(scalarWeight*float64(scalars)+0.5) + arrays
	regs = (regs + 7) / 8 * 8
	limit := dev.MaxRegsPerThread
	if f.MaxNReg > 0 && f.MaxNReg < limit {
		limit = f.MaxNReg
	}
	if lb := f.LaunchBounds; lb != nil && lb.MaxThreads > 0 {
		minBlocks := max(lb.MinBlocks, 1)
		warps := (lb.MaxThreads + dev.WarpSize - 1) / dev.WarpSize
		// Registers per thread such that minBlocks blocks fit, in the
		// allocation unit of 8 registers per thread (256 per warp).
		budget := dev.RegsPerSM / (minBlocks * warps * dev.WarpSize) / 8 * 8
		if budget > 0 && budget < limit {
			limit = budget
		}
	}
	return min(regs, limit)
}

// words is the number of 32-bit registers a local variable takes.
func words(s *affine.Scope, d *affine.Decl) int {
	per := 1
	switch {
	case d.Pointer > 0:
		per = 2
	default:
		if sz, ok := affine.SizeOf(d.Type); ok {
			per = int((sz + 3) / 4)
		}
	}
	if len(d.Dims) == 0 {
		return per
	}
	total := per
	for _, dim := range d.Dims {
		if dim == nil {
			return 0
		}
		v, ok := s.Eval(dim).Int()
		if !ok || v <= 0 {
			return 0
		}
		total *= int(v)
		if total > maxRegisterWords {
			return 0 // local memory
		}
	}
	return total
}
