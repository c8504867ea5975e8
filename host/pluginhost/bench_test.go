package pluginhost_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// The numbers of these benchmarks are recorded in bench/perf/plugins.md
// (make bench-plugins).

// benchStart measures plugin start to first answer: process start, the
// go-plugin handshake, the gRPC connection and the first Describe.
func benchStart(b *testing.B, dir, name string) {
	b.Helper()
	for b.Loop() {
		h, err := pluginhost.New(pluginhost.Options{Dirs: []string{dir}})
		if err != nil {
			b.Fatal(err)
		}
		p, _ := h.Plugin(name)
		if err := p.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		h.Close()
		b.StartTimer()
	}
}

func BenchmarkStartGoPlugin(b *testing.B) {
	dir := b.TempDir()
	plugintest.InstallGo(b, "plugins/examples/textcount", dir)
	benchStart(b, dir, "textcount")
}

func BenchmarkStartPythonPlugin(b *testing.B) {
	dir := b.TempDir()
	plugintest.InstallPython(b, "plugins/python/examples/synccount", dir)
	benchStart(b, dir, "synccount-py")
}

// tenKB is a 10 KB CUDA file (the example saxpy repeated).
func tenKB(b *testing.B) []byte {
	src, err := readExample(b, "saxpy.cu")
	if err != nil {
		b.Fatal(err)
	}
	return bytes.Repeat(src, 10240/len(src)+1)[:10240]
}

func readExample(b *testing.B, name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(plugintest.ModuleRoot(b), "examples", "kernels", name))
}

// benchAnalyze measures one Analyze round trip of a 10 KB file.
func benchAnalyze(b *testing.B, dir, name string) {
	h, err := pluginhost.New(pluginhost.Options{Dirs: []string{dir}})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	p, _ := h.Plugin(name)
	req := &pluginv1.AnalyzeRequest{Files: []*pluginv1.SourceFile{{Path: "k.cu", Content: tenKB(b)}}}
	if _, err := p.Analyze(context.Background(), req); err != nil { // start outside the timing
		b.Fatal(err)
	}
	b.SetBytes(int64(len(req.Files[0].Content)))
	for b.Loop() {
		if _, err := p.Analyze(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalyzeRoundTrip10KB is the transport overhead: the misbehave
// plugin in mode ok only takes the length of the file, so the time is the
// host's marshalling, gRPC over loopback and the plugin's unmarshalling.
func BenchmarkAnalyzeRoundTrip10KB(b *testing.B) {
	dir := b.TempDir()
	installMisbehave(b, dir, "ok")
	benchAnalyze(b, dir, "ok")
}

// BenchmarkAnalyzeTextcount10KB and BenchmarkAnalyzeSynccountPython10KB
// include the example plugins' own work, for comparison.
func BenchmarkAnalyzeTextcount10KB(b *testing.B) {
	dir := b.TempDir()
	plugintest.InstallGo(b, "plugins/examples/textcount", dir)
	benchAnalyze(b, dir, "textcount")
}

func BenchmarkAnalyzeSynccountPython10KB(b *testing.B) {
	dir := b.TempDir()
	plugintest.InstallPython(b, "plugins/python/examples/synccount", dir)
	benchAnalyze(b, dir, "synccount-py")
}
