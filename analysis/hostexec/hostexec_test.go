package hostexec_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/hostexec"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// load parses testdata/host.cu and returns its affine file and host
// functions by name.
func load(t *testing.T) (*affine.File, map[string]hostexec.Func, []byte) {
	t.Helper()
	src, err := os.ReadFile("testdata/host.cu")
	if err != nil {
		t.Fatal(err)
	}
	f, err := analysis.ParseFile(context.Background(), "host.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	root := analysistest.SyntaxRoot(t, f)
	funcs := map[string]hostexec.Func{}
	syntax.Inspect(root, func(n *syntax.Node) bool {
		if n.Type() != "function_definition" || strings.HasPrefix(n.Content(src), "__global__") {
			return n.Type() == "translation_unit"
		}
		d := n.ChildByFieldName("declarator")
		name := d.ChildByFieldName("declarator").Content(src)
		fn := hostexec.Func{Node: n, Body: n.ChildByFieldName("body")}
		params := d.ChildByFieldName("parameters")
		for i := 0; i < int(params.NamedChildCount()); i++ {
			p := params.NamedChild(i).ChildByFieldName("declarator")
			for p != nil && p.Type() != "identifier" {
				p = p.ChildByFieldName("declarator")
			}
			fn.Params = append(fn.Params, p.Content(src))
		}
		funcs[name] = fn
		return false
	})
	return affine.NewFile(root, src), funcs, src
}

// launches renders a run's launches as "kernel grid block xcount", the
// counts of launches that differ only in their arguments summed.
func launches(res *hostexec.Result, src []byte) []string {
	var out []string
	count := map[string]int64{}
	for _, l := range res.Launches {
		name, _, _ := strings.Cut(l.Node.Content(src), "<<<")
		dim := func(d [3]hostexec.Value) string {
			var s []string
			for _, v := range d {
				if v.Known {
					s = append(s, fmt.Sprint(v.V))
				} else {
					s = append(s, "?")
				}
			}
			return strings.Join(s, "x")
		}
		k := fmt.Sprintf("%s %s %s", strings.TrimSpace(name), dim(l.Grid), dim(l.Block))
		if _, ok := count[k]; !ok {
			out = append(out, k)
		}
		count[k] += l.Count
	}
	for i, k := range out {
		out[i] = fmt.Sprintf("%s x%d", k, count[k])
	}
	return out
}

func TestRun(t *testing.T) {
	file, funcs, src := load(t)
	for _, tc := range []struct {
		entry    string
		args     map[string]int64
		want     []string
		complete bool
	}{
		// m = 1024 for n = 1000: 10·11/2 = 55 bitonic steps, one shape.
		{"sort", map[string]int64{"n": 1000}, []string{"fill 1x1x1 256x1x1 x1", "step 4x1x1 256x1x1 x55"}, true},
		// 1,000,000 → 1954 → 4 → 1 blocks: three launches.
		{"sum", map[string]int64{"n": 1000000}, []string{"reduce 1954x1x1 256x1x1 x1", "reduce 4x1x1 256x1x1 x1", "reduce 1x1x1 256x1x1 x1"}, true},
		{"grid", map[string]int64{"n": 1 << 24}, []string{"wide 528x1x1 256x1x1 x1"}, true},
		{"grid", map[string]int64{"n": 10000}, []string{"wide 40x1x1 256x1x1 x1"}, true},
		// Without n the loop condition is unknown: the run stops.
		{"sort", nil, []string{}, false},
		{"data", map[string]int64{"n": 10}, []string{}, false},
	} {
		res := hostexec.Run(file, funcs[tc.entry], tc.args, funcs, hostexec.Options{SMs: 132})
		got := launches(res, src)
		if res.Complete != tc.complete || (tc.complete && strings.Join(got, "; ") != strings.Join(tc.want, "; ")) {
			t.Errorf("%s %v: complete %v (%s), launches %q; want complete %v, %q", tc.entry, tc.args, res.Complete, res.Reason, got, tc.complete, tc.want)
		}
	}
}

func TestStepLimit(t *testing.T) {
	file, funcs, _ := load(t)
	res := hostexec.Run(file, funcs["sort"], map[string]int64{"n": 1 << 40}, funcs, hostexec.Options{MaxSteps: 100})
	if res.Complete || !strings.Contains(res.Reason, "step limit") {
		t.Errorf("complete %v (%s), want stopped by the step limit", res.Complete, res.Reason)
	}
}
