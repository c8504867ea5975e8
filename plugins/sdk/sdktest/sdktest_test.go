package sdktest_test

import (
	"fmt"
	"strings"
	"testing"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
	"github.com/cudaperf/cudaperf/plugins/sdk/sdktest"
)

// recorder is a Testing that keeps the messages.
type recorder struct{ msgs []string }

func (r *recorder) Helper()                      {}
func (r *recorder) Errorf(f string, args ...any) { r.msgs = append(r.msgs, fmt.Sprintf(f, args...)) }
func (r *recorder) Fatalf(f string, args ...any) {
	r.msgs = append(r.msgs, "FATAL "+fmt.Sprintf(f, args...))
}

// TestRunReportsMismatches: a wrong feature value, a missing finding, an
// unexpected one and an undeclared check are all reported.
func TestRunReportsMismatches(t *testing.T) {
	p := &sdk.Plugin{Name: "p",
		Features: []*pluginv1.FeatureInfo{{Name: "params", PerKernel: true}},
		Run: func(pass *sdk.Pass) error {
			for _, k := range pass.File.Kernels() {
				pass.KernelFeature(k.Name, "params", float64(len(k.Params)))
				pass.Reportf("undeclared", k.Name, k.NameNode, "unexpected finding")
			}
			return nil
		}}
	r := &recorder{}
	sdktest.Run(r, "testdata", p)
	all := strings.Join(r.msgs, "\n")
	for _, want := range []string{"params of kernel k = 1, want 2", `no diagnostic matching "no such finding"`, "unexpected diagnostic: unexpected finding", `undeclared check "undeclared"`} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
}

func TestRunRejectsUndeclaredOption(t *testing.T) {
	r := &recorder{}
	sdktest.RunOptions(r, "testdata", &sdk.Plugin{Name: "p", Run: func(*sdk.Pass) error { return nil }}, map[string]string{"p.x": "1"})
	if len(r.msgs) == 0 || !strings.Contains(r.msgs[0], "option p.x is not declared") {
		t.Errorf("messages = %v", r.msgs)
	}
}
