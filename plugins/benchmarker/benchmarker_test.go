package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/verdict"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// EnvPluginBinary names a prebuilt plugin executable to test instead of
// building one (for a GPU machine without Go: build the test with
// `go test -c` and the plugin with `go build` elsewhere, carry both).
const EnvPluginBinary = "CUDAPERF_BENCHMARKER_PLUGIN"

// moduleRoot is the checkout: `go test` runs in the package folder.
func moduleRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// startPlugin installs the plugin as `make build` does (building it unless
// EnvPluginBinary names one) and starts it through the host, so the test
// crosses the real process and gRPC boundary.
func startPlugin(t *testing.T) *pluginhost.Plugin {
	t.Helper()
	dir := t.TempDir()
	if bin := os.Getenv(EnvPluginBinary); bin != "" {
		dest := filepath.Join(dir, "benchmarker")
		exe, err := os.ReadFile(bin)
		if err == nil {
			err = os.MkdirAll(dest, 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dest, "benchmarker"), exe, 0o755)
		}
		if err == nil {
			var manifest []byte
			if manifest, err = os.ReadFile("plugin.yaml"); err == nil {
				err = os.WriteFile(filepath.Join(dest, "plugin.yaml"), manifest, 0o644)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	} else {
		plugintest.InstallGo(t, "plugins/benchmarker", dir)
	}
	h, err := pluginhost.New(pluginhost.Options{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	p, ok := h.Plugin("cudaperf-benchmarker")
	if !ok {
		t.Fatalf("plugin not discovered in %s", dir)
	}
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return p
}

// run collects a Run stream.
func run(t *testing.T, p *pluginhost.Plugin, req *pluginv1.RunRequest) (*pluginv1.CompileResponse, []*pluginv1.ConfigResult, *pluginv1.RunSummary) {
	t.Helper()
	var comp *pluginv1.CompileResponse
	var cfgs []*pluginv1.ConfigResult
	var done *pluginv1.RunSummary
	err := p.Run(context.Background(), req, func(ev *pluginv1.RunEvent) error {
		switch e := ev.Event.(type) {
		case *pluginv1.RunEvent_Compiled:
			comp = e.Compiled
		case *pluginv1.RunEvent_Config:
			cfgs = append(cfgs, e.Config)
		case *pluginv1.RunEvent_Done:
			done = e.Done
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if comp == nil || done == nil {
		t.Fatalf("stream without compiled or done event: %v %v", comp, done)
	}
	return comp, cfgs, done
}

// testGPURun runs an honest and a cheating candidate through the plugin.
func testGPURun(t *testing.T, p *pluginhost.Plugin, root, artifact string) {
	devs, err := p.Devices(context.Background())
	if err != nil || len(devs.Devices) == 0 || devs.Devices[0].Name == "" {
		t.Fatalf("Devices: %v %v", devs, err)
	}
	saxpy := filepath.Join(root, "bench/suites/selftest/saxpy")
	_, cfgs, done := run(t, p, &pluginv1.RunRequest{TaskKind: "c2cuda", TaskPath: saxpy, Artifact: artifact,
		Configs: []string{"odd", "large"}, Warmup: 2, Repetitions: 5})
	if len(cfgs) != 2 || done.Passed != 2 || done.Failed != 0 || done.Device == nil || done.GeomeanSpeedup <= 0 {
		t.Errorf("honest run: configs %v summary %v", cfgs, done)
	}
	for _, r := range done.Reasons {
		if !strings.HasPrefix(r, "warning ") {
			t.Errorf("honest run rejected: %s", r)
		}
	}
	for _, c := range cfgs {
		if !c.Passed || c.Timing == nil || c.Timing.Repetitions != 5 || c.Timing.MedianMs <= 0 {
			t.Errorf("config %v", c)
		}
	}
	cheat, err := os.ReadFile(filepath.Join(saxpy, "cheats", "writes_nothing.cu"))
	if err != nil {
		t.Fatal(err)
	}
	_, _, done = run(t, p, &pluginv1.RunRequest{TaskKind: "c2cuda", TaskPath: saxpy, Source: cheat, Filename: "writes_nothing.cu",
		Configs: []string{"odd", "large"}, Warmup: 2, Repetitions: 5})
	if done.Passed != 0 || !strings.Contains(strings.Join(done.Reasons, "\n"), "poison_survived") {
		t.Errorf("cheat not refused: %v", done)
	}
	t.Logf("honest: %v\ncheat: %v", cfgs, done)
}

func TestPlugin(t *testing.T) {
	nvccPath, err := nvcc.Find()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	// The plugin runs in its own folder (a temporary one here), so tell it
	// where nvcc is; installed under bin/plugins it finds the checkout's .venv.
	t.Setenv(nvcc.EnvNVCC, nvccPath)
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the plugin inherits it: a private compile cache
	p := startPlugin(t)
	ctx := context.Background()

	d, err := p.DescribeBenchmarker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.TaskKinds, []string{"c2cuda", "torch2cuda"}) || !strings.HasPrefix(d.Compiler, "nvcc ") || d.DefaultArch == "" {
		t.Errorf("Describe = %v", d)
	}

	root := moduleRoot(t)
	src, err := os.ReadFile(filepath.Join(root, "bench/suites/selftest/saxpy/variants/naive.cu"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.Compile(ctx, &pluginv1.CompileRequest{Source: src, Filename: "naive.cu", TaskKind: "c2cuda"})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Ok || len(c.Kernels) != 1 || c.Kernels[0].Demangled != "saxpy_kernel" || c.Kernels[0].Registers == 0 || c.Artifact == "" {
		t.Errorf("Compile = ok %v kernels %v artifact %q\n%s", c.Ok, c.Kernels, c.Artifact, c.Log)
	}
	again, err := p.Compile(ctx, &pluginv1.CompileRequest{Source: src, Filename: "naive.cu"})
	if err != nil || !again.Cached || again.Artifact != c.Artifact {
		t.Errorf("second Compile: %v cached=%v artifact %q", err, again.GetCached(), again.GetArtifact())
	}
	bad, err := p.Compile(ctx, &pluginv1.CompileRequest{Source: []byte("extern \"C\" void saxpy() { nope(); }\n"), Filename: "bad.cu"})
	if err != nil || bad.Ok || !strings.Contains(bad.Log, "nope") {
		t.Errorf("broken Compile: %v ok=%v log %q", err, bad.GetOk(), bad.GetLog())
	}
	if _, err := p.Compile(ctx, &pluginv1.CompileRequest{Source: src, TaskKind: "torch2cuda"}); err == nil || !strings.Contains(err.Error(), "InvalidArgument") {
		t.Errorf("torch2cuda Compile: %v, want InvalidArgument", err)
	}

	testTorchKind(t, p, root)

	if s, err := device.Open(); err == nil {
		s.Close()
		testGPURun(t, p, root, c.Artifact)
		return
	}
	devs, err := p.Devices(ctx)
	if err != nil || len(devs.Devices) != 0 {
		t.Errorf("Devices without a GPU: %v %v", devs, err)
	}
	if bench.DeviceNodesPresent() {
		return
	}
	err = p.Run(ctx, &pluginv1.RunRequest{TaskKind: "c2cuda", TaskPath: filepath.Join(root, "bench/suites/selftest/saxpy"), Artifact: c.Artifact},
		func(*pluginv1.RunEvent) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "no CUDA device found") {
		t.Errorf("Run without a GPU: %v, want no CUDA device found", err)
	}
}

// testTorchKind checks that a torch2cuda request reaches bench/torch2cuda
// through the plugin: a request without a problem is refused as invalid,
// and a candidate without ModelNew is judged invalid_candidate (both
// decided before any python3 or GPU work).
func testTorchKind(t *testing.T, p *pluginhost.Plugin, root string) {
	t.Helper()
	relu := filepath.Join(root, "bench/suites/torch2cuda/relu")
	err := p.Run(context.Background(), &pluginv1.RunRequest{TaskKind: "torch2cuda", TaskPath: filepath.Join(relu, "variants"), Source: []byte("x")},
		func(*pluginv1.RunEvent) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "InvalidArgument") || !strings.Contains(err.Error(), "has no problem.py") {
		t.Errorf("torch2cuda Run without a problem: %v, want InvalidArgument naming problem.py", err)
	}
	_, _, done := run(t, p, &pluginv1.RunRequest{TaskKind: "torch2cuda", TaskPath: relu, Filename: "model_new.py",
		Source: []byte("import torch\nclass Model(torch.nn.Module):\n    pass\n")})
	var r bench.Result
	if err := json.Unmarshal([]byte(done.GetRecord()), &r); err != nil {
		t.Fatal(err)
	}
	if r.Task != "relu" || r.Suite != "torch2cuda" || r.Verdict == nil || !r.Verdict.Has(verdict.InvalidCandidate) {
		t.Errorf("torch2cuda Run of a candidate without ModelNew: %+v", r)
	}
}

// TestProfileCPU: the profile is written when stopped (or when its window
// ends), and a bad window is refused with the variable's name.
func TestProfileCPU(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	stop, err := profileCPU(path, "30")
	if err != nil {
		t.Fatal(err)
	}
	for x, i := 0.0, 0; i < 5_000_000; i++ { // some work to sample
		x += float64(i)
	}
	stop()
	stop() // harmless twice, as the window's timer may call it too
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Errorf("no profile written: %v", err)
	}
	if _, err := profileCPU(filepath.Join(t.TempDir(), "x"), "soon"); err == nil || !strings.Contains(err.Error(), EnvCPUProfileSeconds) {
		t.Errorf("bad window: %v", err)
	}
}
