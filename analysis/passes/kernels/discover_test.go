package kernels

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func discoverFile(t *testing.T, path string) (*analysis.File, *Result) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := analysis.ParseFile(context.Background(), path, src)
	if err != nil {
		t.Fatal(err)
	}
	return f, Discover(analysistest.SyntaxRoot(t, f), f.Src)
}

func TestDiscover(t *testing.T) {
	f, r := discoverFile(t, "testdata/src/discovery/a.cu")
	var kernels []string
	for _, k := range r.Kernels {
		kernels = append(kernels, k.Qualified)
	}
	if d := cmp.Diff([]string{"scale", "transpose", "axpy", "ops::relu", "saxpy_c", "capped"}, kernels); d != "" {
		t.Errorf("kernels (-want +got):\n%s", d)
	}
	var dev []string
	for _, k := range r.DeviceFuncs {
		dev = append(dev, k.Name+":"+k.Kind.String())
	}
	if d := cmp.Diff([]string{"sq:device", "clampi:host device"}, dev); d != "" {
		t.Errorf("device functions (-want +got):\n%s", d)
	}
	if len(r.Prototypes) != 1 || r.Prototypes[0].Name != "proto_only" || r.Prototypes[0].Kind != Kernel {
		t.Errorf("prototypes = %+v", r.Prototypes)
	}

	scale := r.Kernel("scale")
	if scale.LaunchBounds == nil || scale.LaunchBounds.MaxThreads != 256 || scale.LaunchBounds.MinBlocks != 2 {
		t.Errorf("scale launch bounds = %+v", scale.LaunchBounds)
	}
	wantParams := []Param{{Name: "x", Type: "float", Pointer: 1, Restrict: true}, {Name: "a", Type: "float"}, {Name: "n", Type: "int"}}
	if d := cmp.Diff(wantParams, scale.Params, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Node" }, cmp.Ignore())); d != "" {
		t.Errorf("scale params (-want +got):\n%s", d)
	}
	if len(scale.Calls) != 1 || scale.Calls[0].Name != "sq" {
		t.Errorf("scale calls = %v", scale.Calls)
	}
	if k := r.Kernel("capped"); k.MaxNReg != 64 {
		t.Errorf("capped maxnreg = %d", k.MaxNReg)
	}
	if k := r.Kernel("saxpy_c"); !k.ExternC {
		t.Error("saxpy_c not extern C")
	}
	axpy := r.Kernel("axpy")
	if axpy.Template == nil || !cmp.Equal(axpy.TemplateParams, []string{"T", "N"}) {
		t.Errorf("axpy template params = %v", axpy.TemplateParams)
	}
	if params := r.Kernel("transpose").Params; !params[1].Const || params[0].Const {
		t.Errorf("transpose const params = %+v", params)
	}

	// Launches: callee resolution, config fields, template arguments.
	type launch struct {
		Callee, Kernel, Grid, Block, Shared, Stream string
		TArgs                                       []string
		Threads                                     int64
	}
	var got []launch
	for _, l := range r.Launches {
		k := ""
		if l.Kernel != nil {
			k = l.Kernel.Qualified
		}
		tpb, _ := l.Cfg.ThreadsPerBlock()
		got = append(got, launch{l.Callee, k, f.Text(l.Grid), f.Text(l.Block), f.Text(l.SharedMem), f.Text(l.Stream), l.TemplateArgs, tpb})
		if l.Caller == nil || l.Caller.Name != "launch" {
			t.Errorf("launch %s: caller %v", l.Callee, l.Caller)
		}
	}
	want := []launch{
		{"scale", "scale", "grid", "block", "", "", nil, 256},
		{"transpose", "transpose", "dim3(n / TILE, n / TILE)", "dim3(TILE, TILE)", "128", "s", nil, 1024},
		{"axpy", "axpy", "n / 128", "128", "", "", []string{"float", "128"}, 128},
		{"ops::relu", "ops::relu", "1", "32", "", "", nil, 32},
		{"unknown_kernel", "", "1", "1", "", "", nil, 1},
		{"relu", "ops::relu", "dim3(2)", "dim3(64)", "256", "s", nil, 64},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("launches (-want +got):\n%s", d)
	}
	if len(scale.LaunchedBy) != 1 {
		t.Errorf("scale launched by %d sites", len(scale.LaunchedBy))
	}

	// Shared memory: sizes through #define and constexpr, extern, template.
	type shared struct {
		Name   string
		Dims   []int
		Bytes  int
		Extern bool
		Func   string
	}
	var sh []shared
	for _, s := range r.Shared {
		fn := ""
		if s.Func != nil {
			fn = s.Func.Name
		}
		sh = append(sh, shared{s.Name, s.Dims, s.Bytes, s.Extern, fn})
	}
	wantShared := []shared{
		{"file_scope_buf", []int{64}, 256, false, ""},
		{"tile", []int{32, 33}, 32 * 33 * 4, false, "transpose"},
		{"partial", []int{8}, 64, false, "transpose"},
		{"dyn", []int{-1}, 0, true, "transpose"},
		{"buf", []int{-1}, -1, false, "axpy"},
	}
	if d := cmp.Diff(wantShared, sh); d != "" {
		t.Errorf("shared (-want +got):\n%s", d)
	}
	if b, known := r.StaticShared(r.Kernel("transpose")); b != 4288 || !known {
		t.Errorf("transpose static shared = %d %v, want 4288 true", b, known)
	}
	if !r.UsesDynamicShared(r.Kernel("transpose")) || r.UsesDynamicShared(scale) {
		t.Error("UsesDynamicShared")
	}
	if _, known := r.StaticShared(axpy); known {
		t.Error("axpy shared size should be unknown (template N)")
	}
	// Enclosing finds the function around a launch.
	if e := r.Enclosing(r.Launches[0].Node); e == nil || e.Name != "launch" {
		t.Errorf("Enclosing = %v", e)
	}
}

func TestStaticSharedThroughCalls(t *testing.T) {
	_, r := discoverFile(t, "testdata/src/shared_calls/a.cu")
	k := r.Kernel("k")
	if b, known := r.StaticShared(k); b != 1024+512+128 || !known {
		t.Errorf("StaticShared(k) = %d %v, want %d", b, known, 1024+512+128)
	}
	if b, _ := r.StaticShared(r.Kernel("other")); b != 512 {
		t.Errorf("StaticShared(other) = %d, want 512 (helper only)", b)
	}
}
