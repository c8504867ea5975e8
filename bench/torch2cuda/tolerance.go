package torch2cuda

import (
	"fmt"
	"maps"
	"regexp"
	"sort"
	"strings"
)

// Tolerance is the per-element criterion |got - ref| <= ATol + RTol*|ref|
// for outputs of one dtype.
type Tolerance struct {
	RTol float64 `json:"rtol"`
	ATol float64 `json:"atol"`
}

// DefaultTolerances are the per-dtype tolerances (torch dtype names). The
// float32 bound admits a different summation order over a few thousand
// terms; half types get what their 11 and 8 mantissa bits allow; integers
// and bool compare exactly.
var DefaultTolerances = map[string]Tolerance{
	"float64":  {RTol: 1e-7, ATol: 1e-7},
	"float32":  {RTol: 1e-4, ATol: 1e-4},
	"float16":  {RTol: 1e-2, ATol: 1e-2},
	"bfloat16": {RTol: 2e-2, ATol: 2e-2},
	"int64":    {}, "int32": {}, "int16": {}, "int8": {}, "uint8": {}, "bool": {},
}

// KernelBenchTolerance is the single bound KernelBench's own evaluation
// applies to every output (atol = rtol = 1e-2); --kernelbench uses it so
// that a candidate KernelBench accepts is not refused here for precision
// (KernelBench's references run cuDNN in TF32, for one).
var KernelBenchTolerance = Tolerance{RTol: 1e-2, ATol: 1e-2}

// EnvTolerance set to "kernelbench" makes an Evaluator built without
// explicit Tolerances use KernelBench's bound for every float dtype:
// `cudaperf bench --kernelbench` sets it for the benchmarker plugin it
// starts.
const EnvTolerance = "CUDAPERF_TORCH_TOLERANCE"

// Tolerances returns the table a run uses: the defaults, or every float
// dtype at KernelBench's bound, with overrides ("float32=1e-3,1e-5") applied.
func Tolerances(kernelBench bool, overrides []string) (map[string]Tolerance, error) {
	t := map[string]Tolerance{}
	for k, v := range DefaultTolerances {
		if kernelBench && (v.RTol > 0 || v.ATol > 0) {
			v = KernelBenchTolerance
		}
		t[k] = v
	}
	return withOverrides(t, overrides)
}

// problemToleranceRE is a problem file's own tolerance, a comment line
// (so the file stays a KernelBench problem): the suite's author states it
// where a dtype's default does not fit the problem, e.g. a float32 sum of
// 16384 terms, whose order alone moves near-zero results by 1e-3.
//
//	# cudaperf: tolerance float32=1e-4,5e-3
var problemToleranceRE = regexp.MustCompile(`(?m)^#\s*cudaperf:\s*tolerance\s+(\S+)\s*$`)

// ProblemTolerances returns the table for one problem: base with the
// problem file's own tolerance lines applied.
func ProblemTolerances(base map[string]Tolerance, path string, src []byte) (map[string]Tolerance, error) {
	var overrides []string
	for _, m := range problemToleranceRE.FindAllSubmatch(src, -1) {
		overrides = append(overrides, string(m[1]))
	}
	if len(overrides) == 0 {
		return base, nil
	}
	t, err := withOverrides(maps.Clone(base), overrides)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (in a line `# cudaperf: tolerance DTYPE=RTOL,ATOL`)", path, err)
	}
	return t, nil
}

// withOverrides applies "dtype=rtol,atol" overrides to t.
func withOverrides(t map[string]Tolerance, overrides []string) (map[string]Tolerance, error) {
	for _, o := range overrides {
		name, vals, ok := strings.Cut(o, "=")
		var tol Tolerance
		if ok {
			_, err := fmt.Sscanf(vals, "%g,%g", &tol.RTol, &tol.ATol)
			ok = err == nil && tol.RTol >= 0 && tol.ATol >= 0
		}
		if !ok {
			return nil, fmt.Errorf("tolerance %q: write DTYPE=RTOL,ATOL, for example float32=1e-3,1e-5", o)
		}
		if _, known := t[name]; !known {
			return nil, fmt.Errorf("tolerance %q: unknown dtype %q (known: %s)", o, name, strings.Join(dtypeNames(t), ", "))
		}
		t[name] = tol
	}
	return t, nil
}

func dtypeNames(t map[string]Tolerance) []string {
	var out []string
	for k := range t {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// runnerArg is the table as runner.py's --tolerance takes it.
func runnerArg(t map[string]Tolerance) string {
	var b strings.Builder
	b.WriteString("{")
	for i, k := range dtypeNames(t) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: [%g, %g]", k, t[k].RTol, t[k].ATol)
	}
	b.WriteString("}")
	return b.String()
}
