package arith

import (
	_ "embed"
	"reflect"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

//go:embed doc.go
var doc string

// Analyzer reports the ops and flops features; its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "arith",
	NoChecks:   true, // infrastructure: results and features only
	Doc:        analysis.MustExtractDoc(doc, "arith"),
	URL:        "https://cudaperf.dev/checks/arith",
	Requires:   []*analysis.Analyzer{dataflow.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	Features: []analysis.FeatureDef{
		{Name: "ops", Unit: "ops", Doc: "arithmetic operations and math calls per thread, weighted by the trip counts of the loops around them", Range: "[0, +inf)", Level: analysis.LevelKernel},
		{Name: "flops", Unit: "FLOPs", Doc: "floating-point operations per thread (FMA = 2), weighted by the trip counts of the loops around them", Range: "[0, +inf)", Level: analysis.LevelKernel},
	},
	Severity: analysis.Info,
}

// Counts are the weighted operation counts of a kernel.
type Counts struct {
	Ops, Flops float64
}

// Result maps kernel names to their counts.
type Result struct {
	ByKernel map[*kernels.Function]Counts
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	res := &Result{ByKernel: map[*kernels.Function]Counts{}}
	per := map[*kernels.Function]Counts{}
	for _, k := range df.Kernels.Kernels {
		var total Counts
		for _, c := range df.Reach(k) {
			fc, ok := per[c.Func]
			if !ok {
				fc = Count(df, c.Func, pass.File.Src)
				per[c.Func] = fc
			}
			total.Ops += c.Weight * fc.Ops
			total.Flops += c.Weight * fc.Flops
		}
		res.ByKernel[k] = total
		st := df.Kernels.WeightStatus(k)
		pass.ReportKernelFeatureStatus(k.Name, "ops", total.Ops, st)
		pass.ReportKernelFeatureStatus(k.Name, "flops", total.Flops, st)
	}
	return res, nil
}

// Count returns the loop-weighted operations written in f's body (calls
// to other functions of the file not included).
func Count(df *dataflow.Result, f *kernels.Function, src []byte) Counts {
	return CountWith(df, f, src, df.Kernels.Loops(f).Weight)
}

// CountWith is Count with another loop weighting: the workload pass
// weighs each operation by the trip counts at a problem size.
func CountWith(df *dataflow.Result, f *kernels.Function, src []byte, weight func(*syntax.Node) float64) Counts {
	var c Counts
	if f.Body == nil {
		return c
	}
	t := typer{s: df.Kernels.Scope(f), src: src, memo: map[*syntax.Node]bool{}, depth: new(int)}
	f.WalkExprs(func(n *syntax.Node, kind string) bool {
		ops, fl := 0.0, 0.0
		switch kind {
		case "lambda_expression":
			return false
		case "binary_expression":
			switch n.Operator() {
			case "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>":
				ops = 1
				if t.isFloat(n) {
					fl = 1
				}
			case "<", "<=", ">", ">=", "==", "!=":
				ops = 1
			}
		case "assignment_expression":
			if op := n.Operator(); op != "=" && op != "" {
				ops = 1
				if t.isFloat(n.ChildByFieldName("left")) {
					fl = 1
				}
			}
		case "update_expression":
			ops = 1
		case "unary_expression":
			if n.Operator() == "-" {
				ops = 1
				if t.isFloat(n) {
					fl = 1
				}
			}
		case "call_expression":
			name := calleeName(n, src)
			if w, ok := fmaCalls[name]; ok {
				ops, fl = w, w
			} else if mathCalls[name] {
				ops, fl = 1, 1
			} else if strings.HasSuffix(name, "mma_sync") {
				ops, fl = 256, 256
			} else if intCalls[name] {
				ops = 1
			}
		}
		if ops > 0 {
			w := weight(n)
			c.Ops += w * ops
			c.Flops += w * fl
		}
		return true
	})
	return c
}

func calleeName(n *syntax.Node, src []byte) string {
	fn := n.ChildByFieldName("function")
	if fn == nil {
		return ""
	}
	name := fn.Content(src)
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	if i := strings.IndexByte(name, '<'); i >= 0 {
		name = name[:i]
	}
	return name
}

var fmaCalls = map[string]float64{"fmaf": 2, "fma": 2, "__fmaf_rn": 2, "__fmaf_rz": 2, "__fmaf_ru": 2, "__fmaf_rd": 2, "__fma_rn": 2, "__hfma": 2, "__hfma2": 4, "__fmaf_ieee_rn": 2}

var mathCalls = map[string]bool{}

func init() {
	for _, f := range strings.Fields(`sqrt sqrtf rsqrt rsqrtf cbrt cbrtf exp expf exp2 exp2f exp10f expm1f __expf __exp10f
		log logf log2 log2f log10 log10f log1pf __logf __log2f __log10f pow powf __powf sin sinf cos cosf tan tanf
		__sinf __cosf __tanf sincosf asinf acosf atanf atan2f sinh sinhf cosh coshf tanh tanhf erff erfcf
		fabs fabsf fmax fmaxf fmin fminf floor floorf ceil ceilf round roundf rintf truncf fmodf remainderf
		__fdividef __fdiv_rn __frcp_rn __fsqrt_rn __fadd_rn __fmul_rn __fsub_rn __dadd_rn __dmul_rn __drcp_rn
		__hadd __hmul __hsub __hdiv __hadd2 __hmul2 __hsub2 hexp hlog hsqrt h2exp h2sqrt __saturatef normf
		norm3df rnorm3df hypotf copysignf`) {
		mathCalls[f] = true
	}
}

var intCalls = map[string]bool{"__popc": true, "__popcll": true, "__clz": true, "__clzll": true, "__ffs": true, "__brev": true,
	"__mul24": true, "__umul24": true, "__mulhi": true, "__umulhi": true, "__sad": true, "__usad": true, "min": true, "max": true,
	"abs": true, "__funnelshift_l": true, "__funnelshift_r": true, "__byte_perm": true}

// floatTypes are the floating-point scalar and vector types.
func floatType(t string) bool {
	t = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(t, "const ", ""), "volatile ", ""))
	for _, p := range []string{"float", "double", "half", "__half", "__nv_bfloat16", "nv_bfloat16", "__nv_fp8"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// typer infers whether an expression has a floating-point type.
type typer struct {
	s     *affine.Scope
	src   []byte
	memo  map[*syntax.Node]bool // every operator asks about its operands: without it long chains are quadratic
	depth *int
}

// maxTypeDepth bounds the recursion on pathological nesting; deeper
// operands count as not floating-point.
const maxTypeDepth = 256

func (t typer) isFloat(n *syntax.Node) bool {
	if n == nil || *t.depth > maxTypeDepth {
		return false
	}
	switch n.Type() {
	case "number_literal", "identifier", "subscript_expression", "cast_expression":
		// No operands to ask about: cheaper to answer again than to memoize.
		return t.floatType(n)
	}
	if v, ok := t.memo[n]; ok {
		return v
	}
	*t.depth++
	v := t.floatType(n)
	*t.depth--
	t.memo[n] = v
	return v
}

func (t typer) floatType(n *syntax.Node) bool {
	switch n.Type() {
	case "number_literal":
		lit := strings.ToLower(n.Content(t.src))
		if strings.HasPrefix(lit, "0x") {
			return strings.Contains(lit, "p")
		}
		return strings.ContainsAny(lit, ".ef")
	case "identifier":
		d := t.s.Lookup(n.Content(t.src), n.StartByte())
		return d != nil && d.Pointer == 0 && len(d.Dims) == 0 && floatType(d.Type)
	case "subscript_expression":
		base := n.ChildByFieldName("argument")
		for base != nil && base.Type() == "subscript_expression" {
			base = base.ChildByFieldName("argument")
		}
		if base != nil && base.Type() == "identifier" {
			d := t.s.Lookup(base.Content(t.src), n.StartByte())
			return d != nil && floatType(d.Type)
		}
		return false
	case "field_expression":
		// v.x of a float4, a[i].y of a float2 array
		return t.isFloat(n.ChildByFieldName("argument")) || t.isFloatElem(n.ChildByFieldName("argument"))
	case "pointer_expression":
		if op := n.ChildByFieldName("operator"); op != nil && op.Type() == "*" {
			return t.isFloatElem(n.ChildByFieldName("argument"))
		}
		return false
	case "cast_expression":
		if ty := n.ChildByFieldName("type"); ty != nil {
			return floatType(ty.Content(t.src)) && !strings.Contains(ty.Content(t.src), "*")
		}
	case "call_expression":
		name := calleeName(n, t.src)
		_, fma := fmaCalls[name]
		return fma || mathCalls[name] || strings.HasPrefix(name, "make_float") || strings.HasPrefix(name, "make_double") ||
			strings.HasPrefix(name, "__int2float") || strings.HasPrefix(name, "__float") || strings.HasPrefix(name, "__half2float") ||
			strings.HasPrefix(name, "__shfl") && t.anyArgFloat(n)
	case "binary_expression":
		switch n.Operator() {
		case "+", "-", "*", "/":
			return t.isFloat(n.ChildByFieldName("left")) || t.isFloat(n.ChildByFieldName("right"))
		}
		return false
	case "unary_expression":
		return n.Operator() == "-" && t.isFloat(n.ChildByFieldName("argument"))
	case "parenthesized_expression":
		return n.NamedChildCount() > 0 && t.isFloat(n.NamedChild(0))
	case "conditional_expression":
		return t.isFloat(n.ChildByFieldName("consequence")) || t.isFloat(n.ChildByFieldName("alternative"))
	case "assignment_expression":
		return t.isFloat(n.ChildByFieldName("left"))
	}
	return false
}

// isFloatElem reports whether a pointer or array expression has
// floating-point elements.
func (t typer) isFloatElem(n *syntax.Node) bool {
	for n != nil && n.Type() == "parenthesized_expression" && n.NamedChildCount() > 0 {
		n = n.NamedChild(0)
	}
	if n == nil {
		return false
	}
	switch n.Type() {
	case "identifier":
		d := t.s.Lookup(n.Content(t.src), n.StartByte())
		return d != nil && (d.Pointer > 0 || len(d.Dims) > 0) && floatType(d.Type)
	case "subscript_expression":
		return t.isFloat(n)
	case "binary_expression":
		return t.isFloatElem(n.ChildByFieldName("left"))
	}
	return false
}

func (t typer) anyArgFloat(n *syntax.Node) bool {
	args := n.ChildByFieldName("arguments")
	if args == nil {
		return false
	}
	for i := 0; i < int(args.NamedChildCount()); i++ {
		if t.isFloat(args.NamedChild(i)) {
			return true
		}
	}
	return false
}
