package analysistest_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// probe is a test analyzer: a diagnostic per call to bad(), and per kernel
// its parameter count and number of calls to bad; file-level, the number of
// kernels and the target's SM count; per kernel, registers from ptxas.
var probe = &analysis.Analyzer{
	Name: "probe", Doc: "test probe", Requires: []*analysis.Analyzer{kernels.Analyzer},
	Features: []analysis.FeatureDef{
		{Name: "params", Unit: "count", Doc: "d", Level: analysis.LevelKernel},
		{Name: "calls", Unit: "count", Doc: "d", Level: analysis.LevelKernel},
		{Name: "depth", Unit: "count", Doc: "d", Level: analysis.LevelKernel},
		{Name: "regs", Unit: "registers", Doc: "d", Level: analysis.LevelKernel},
		{Name: "nkernels", Unit: "count", Doc: "d", Level: analysis.LevelFile},
		{Name: "sms", Unit: "count", Doc: "d", Level: analysis.LevelFile},
	},
	Run: func(p *analysis.Pass) (any, error) {
		r := p.ResultOf[kernels.Analyzer].(*kernels.Result)
		for _, k := range r.Kernels {
			calls := 0
			syntax.Inspect(k.Body, func(n *syntax.Node) bool {
				if n.Type() == "call_expression" && p.File.Text(n.ChildByFieldName("function")) == "bad" {
					calls++
					p.Reportf(n, "call to bad")
				}
				return true
			})
			p.ReportKernelFeature(k.Name, "params", float64(len(k.Params)))
			p.ReportKernelFeature(k.Name, "calls", float64(calls))
			if f := p.Ptxas.Kernel(k.Name, ""); f != nil {
				p.ReportKernelFeature(k.Name, "regs", float64(f.Registers))
			}
		}
		p.ReportFileFeature("nkernels", float64(len(r.Kernels)))
		p.ReportFileFeature("sms", float64(p.Device.SMs))
		return nil, nil
	},
}

// recorder collects failures instead of failing the test.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestMatchingCase(t *testing.T) {
	res := analysistest.Run(t, analysistest.TestData(), probe, "ok", "config")
	if len(res) != 2 || len(res[0].Files) != 1 {
		t.Fatalf("results = %+v", res)
	}
}

func TestFailures(t *testing.T) {
	rec := &recorder{}
	analysistest.Run(rec, analysistest.TestData(), probe, "fail", "no-such-case")
	got := strings.Join(rec.errs, "\n")
	for _, want := range []string{
		`a.cu:5: feature params of kernel one = 1, want 3`,
		`a.cu:5: feature missing of kernel one was not reported; reported: one/params=1`,
		`a.cu:5: feature calls of kernel one was reported (1), want none`,
		`a.cu:6: no diagnostic matching "call to good" was reported on this line (reported there: "call to bad")`,
		`a.cu:6:5: unexpected diagnostic: call to bad [probe]`,
		`a.cu:10:5: unexpected diagnostic: call to bad [probe]`,
		`a.cu:13: no diagnostic matching "nothing here" was reported`,
		`a.cu:14: bad want comment: feature params: value "x" is not a number`,
		"a.cu:15: bad want comment: unterminated string",
		"case no-such-case:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing failure %q", want)
		}
	}
	if len(rec.errs) != 10 {
		sort.Strings(rec.errs)
		t.Errorf("%d failures, want 10:\n%s", len(rec.errs), strings.Join(rec.errs, "\n"))
	}
}

func TestExpectationsSyntax(t *testing.T) {
	src := []byte("int x; // want \"a\" `b` kernel=ns::k f:\"1.5±0.25\" g:\"2+-1\" h:\"none\" kernel:\"z\" i:\"1000\"\n" +
		"const char *s = \"// want \\\"not a comment\\\"\";\n/* want \"block comments are not expectations\" */\n")
	exp, errs := analysistest.Expectations("x.cu", src)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if len(exp.Diags) != 2 || exp.Diags[0].Pattern.String() != "a" || exp.Diags[1].Pattern.String() != "b" {
		t.Errorf("diags = %+v", exp.Diags)
	}
	want := []analysistest.FeatureExpectation{
		{Line: 1, Kernel: "ns::k", Name: "f", Value: 1.5, Tol: 0.25},
		{Line: 1, Kernel: "ns::k", Name: "g", Value: 2, Tol: 1},
		{Line: 1, Kernel: "ns::k", Name: "h", Absent: true},
		{Line: 1, Kernel: "z", Name: "i", Value: 1000, Tol: 1},
	}
	if fmt.Sprint(exp.Features) != fmt.Sprint(want) {
		t.Errorf("features = %+v\nwant       %+v", exp.Features, want)
	}
	for _, bad := range []string{"// want\n", "// want kernel=\n", "// want x:1\n", `// want "(" ` + "\n", `// want f:"1±-2"` + "\n"} {
		if _, errs := analysistest.Expectations("x.cu", []byte(bad)); len(errs) != 1 {
			t.Errorf("%q: errors %v, want one", bad, errs)
		}
	}
}
