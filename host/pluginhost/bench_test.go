package pluginhost_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

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

// benchAnalyze measures one Analyze round trip of a 10 KB file: the
// host's AnalyzeWith, so a plugin that wants parsed files gets (and the
// timing includes) the host's parse of the file.
func benchAnalyze(b *testing.B, dir, name string) {
	h, err := pluginhost.New(pluginhost.Options{Dirs: []string{dir}})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	p, _ := h.Plugin(name)
	req := &pluginv1.AnalyzeRequest{Files: []*pluginv1.SourceFile{{Path: "k.cu", Content: tenKB(b)}}}
	one := func() {
		a := h.AnalyzeWith(context.Background(), []*pluginhost.Plugin{p}, req)
		if len(a.Failures) > 0 || len(a.Files[0].Errors) > 0 {
			b.Fatal(a.Failures, a.Files[0].Errors)
		}
	}
	one() // start outside the timing
	b.SetBytes(int64(len(req.Files[0].Content)))
	for b.Loop() {
		one()
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

// corpus is the lint batch of bench/perf/lint.md: every .cu file of
// grammar/testdata/corpus and bench/suites.
func corpus(b *testing.B) *pluginv1.AnalyzeRequest {
	b.Helper()
	root := plugintest.ModuleRoot(b)
	req := &pluginv1.AnalyzeRequest{}
	for _, d := range []string{"grammar/testdata/corpus", "bench/suites"} {
		err := filepath.WalkDir(filepath.Join(root, d), func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || filepath.Ext(p) != ".cu" {
				return err
			}
			src, err := os.ReadFile(p)
			req.Files = append(req.Files, &pluginv1.SourceFile{Path: p, Content: src})
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return req
}

func size(req *pluginv1.AnalyzeRequest) int64 {
	n := 0
	for _, f := range req.GetFiles() {
		n += len(f.GetContent())
	}
	return int64(n)
}

// cpuTime is the CPU time of this process and of its reaped children
// (the plugins, once Close has waited for them).
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

// benchLintCorpus is a cold batch lint of the corpus as the CLI does it:
// start the plugins of dirs, analyze every file, stop them. It reports
// the CPU time of host and plugins together (cpu-ms/op) beside the wall
// time; BenchmarkLintCorpusTreePlugin minus BenchmarkLintCorpusBuiltin is
// what a plugin that consumes the parse adds (bench/perf/plugins.md).
func benchLintCorpus(b *testing.B, dirs []string) {
	req := corpus(b)
	b.SetBytes(size(req))
	var cpu time.Duration
	for b.Loop() {
		c0 := cpuTime()
		h, err := pluginhost.New(pluginhost.Options{Dirs: dirs})
		if err != nil {
			b.Fatal(err)
		}
		a := h.Analyze(context.Background(), req)
		h.Close()
		if len(a.Failures) > 0 {
			b.Fatal(a.Failures)
		}
		cpu += cpuTime() - c0
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

func BenchmarkLintCorpusBuiltin(b *testing.B) {
	dir := b.TempDir()
	plugintest.InstallGo(b, "plugins/analyzer", dir)
	benchLintCorpus(b, []string{dir})
}

func BenchmarkLintCorpusTreePlugin(b *testing.B) {
	dir, ex := b.TempDir(), b.TempDir()
	plugintest.InstallGo(b, "plugins/analyzer", dir)
	plugintest.InstallGo(b, "plugins/examples/textcount", ex)
	benchLintCorpus(b, []string{dir, ex})
}

// BenchmarkParseForPlugins is the host's side of the added cost: parse,
// kernel discovery and encoding of the corpus (what wants_parsed_files
// costs before anything is sent).
func BenchmarkParseForPlugins(b *testing.B) {
	req := corpus(b)
	b.SetBytes(size(req))
	wire := 0
	c0 := cpuTime()
	for b.Loop() {
		wire = 0
		for _, f := range req.GetFiles() {
			p, err := pluginhost.Parse(context.Background(), f.GetPath(), f.GetContent())
			if err != nil {
				b.Fatal(err)
			}
			wire += proto.Size(p)
		}
	}
	b.ReportMetric(float64((cpuTime()-c0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(wire)/float64(size(req)), "wire-bytes/source-byte")
}
