package coalescing

import (
	_ "embed"
	"reflect"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
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
		{Name: "coal", Unit: "fraction", Doc: "mean ideal/actual 32-byte sectors per warp request over global accesses with a known index, loop-weighted", Range: "(0, 1]", Level: analysis.LevelKernel},
		{Name: "coal_unknown", Unit: "fraction", Doc: "loop-weighted fraction of global accesses whose index is not affine in threadIdx.x", Range: "[0, 1]", Level: analysis.LevelKernel},
	},
	Severity: analysis.Warning,
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
	if size <= 0 {
		size = 4
	}
	ideal := int(ceilDiv(32*size, 32))
	lanes, symbolic, ok := index.WarpShape(0, blockX)
	if !ok {
		return Request{Ideal: ideal}
	}
	seen := map[int64]bool{}
	for _, e := range lanes {
		first := e * size
		for b := floorDiv(first, 32); b <= floorDiv(first+size-1, 32); b++ {
			seen[b] = true
		}
	}
	req := Request{Known: true, Sectors: len(seen), Ideal: ideal, Symbolic: strings.Join(symbolic, " + ")}
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
	return req
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	out := map[*dataflow.Access]Request{}
	reported := map[[2]uint32]bool{}
	for _, k := range df.Kernels.Kernels {
		var eff, known, unknown, total float64
		for _, c := range df.Reach(k) {
			for _, a := range df.Accesses(c.Func) {
				if a.Space != dataflow.Global {
					continue
				}
				w := a.Weight * c.Weight
				req := Analyze(c.Index(a), a.Size, df.BlockX(k))
				out[a] = req
				total += w
				if !req.Known {
					unknown += w
					continue
				}
				known += w
				eff += w * req.Efficiency()
				key := [2]uint32{a.Node.StartByte(), a.Node.EndByte()}
				if req.Sectors >= 2*req.Ideal && !reported[key] {
					reported[key] = true
					report(pass, k.Name, a, req)
				}
			}
		}
		coal := 1.0
		switch {
		case known > 0:
			coal = eff / known
		case total > 0:
			coal = 0
		}
		frac := 0.0
		if total > 0 {
			frac = unknown / total
		}
		pass.ReportKernelFeature(k.Name, "coal", coal)
		pass.ReportKernelFeature(k.Name, "coal_unknown", frac)
	}
	return out, nil
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
