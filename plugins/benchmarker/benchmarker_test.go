package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/nvml"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// startPlugin builds and installs the plugin as `make build` does and
// starts it through the host, so the test crosses the real process and gRPC
// boundary.
func startPlugin(t *testing.T) *pluginhost.Plugin {
	t.Helper()
	dir := t.TempDir()
	plugintest.InstallGo(t, "plugins/benchmarker", dir)
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
	if len(d.TaskKinds) != 1 || d.TaskKinds[0] != "c2cuda" || !strings.HasPrefix(d.Compiler, "nvcc ") || d.DefaultArch == "" {
		t.Errorf("Describe = %v", d)
	}

	root := plugintest.ModuleRoot(t)
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

	if s, err := nvml.Open(); err == nil {
		s.Close()
		t.Log("a GPU is present: Run is exercised by bench/gpu-selftest.sh")
		return
	}
	devs, err := p.Devices(ctx)
	if err != nil || len(devs.Devices) != 0 {
		t.Errorf("Devices without a GPU: %v %v", devs, err)
	}
	if nvml.DeviceNodesPresent() {
		return
	}
	err = p.Run(ctx, &pluginv1.RunRequest{TaskKind: "c2cuda", TaskPath: filepath.Join(root, "bench/suites/selftest/saxpy"), Artifact: c.Artifact},
		func(*pluginv1.RunEvent) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "no CUDA device found") {
		t.Errorf("Run without a GPU: %v, want no CUDA device found", err)
	}
}
