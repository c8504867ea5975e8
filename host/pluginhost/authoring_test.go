package pluginhost_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// installNamed adds a misbehave plugin in mode under another name.
func installNamed(t *testing.T, pluginsDir, name, mode string) {
	t.Helper()
	plugintest.WriteManifest(t, filepath.Join(pluginsDir, name), pluginhost.Manifest{
		Name: name, Kind: sdk.KindAnalyzer, Language: "go", Protocol: 1, Command: misbehave(t), Args: []string{mode},
	})
}

func features(fa *pluginhost.FileAnalysis, plugin string) map[string]float64 {
	out := map[string]float64{}
	for _, f := range fa.Features {
		if f.Plugin == plugin {
			k := f.GetName()
			if f.GetKernel() != "" {
				k = f.GetKernel() + "/" + k
			}
			out[k] = f.GetValue()
		}
	}
	return out
}

// TestParsedFilesAndOptions: a plugin that sets wants_parsed_files gets
// the host's parse of every file (its node count is the host's) and the
// option it declares; a plugin that does not ask works as before.
func TestParsedFilesAndOptions(t *testing.T) {
	dir := t.TempDir()
	installMisbehave(t, dir, "ok")
	installMisbehave(t, dir, "parsed")
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	req := exampleRequest(t)
	req.Options = map[string]string{"dup.limit": "7", "coalescing.min-ratio": "2"}
	a := h.Analyze(context.Background(), req)
	if len(a.Failures) > 0 {
		t.Fatalf("failures: %v", a.Failures)
	}
	for i, fa := range a.Files {
		pf, err := pluginhost.Parse(context.Background(), fa.Path, req.Files[i].Content)
		if err != nil {
			t.Fatal(err)
		}
		got := features(fa, "parsed")
		if got["nodes"] != float64(len(pf.GetTree().GetKind())) || got["nodes"] < 100 {
			t.Errorf("%s: the plugin saw %v nodes, the host parsed %d", fa.Path, got["nodes"], len(pf.GetTree().GetKind()))
		}
		if got["limit"] != 7 {
			t.Errorf("%s: option dup.limit reached the plugin as %v, want 7", fa.Path, got["limit"])
		}
		if len(pf.GetKernels()) == 0 || len(fa.Diagnostics) != len(pf.GetKernels()) {
			t.Errorf("%s: %d findings for %d kernels", fa.Path, len(fa.Diagnostics), len(pf.GetKernels()))
		}
		if features(fa, "ok")["bytes"] != float64(len(req.Files[i].Content)) {
			t.Errorf("%s: the plugin without parse lost its answer: %v", fa.Path, features(fa, "ok"))
		}
	}
}

// TestDuplicateCheckID: two plugins declare check "dup". The first by name
// keeps it; the other's findings for it are dropped, and one error names
// both. Their features are kept.
func TestDuplicateCheckID(t *testing.T) {
	dir := t.TempDir()
	installNamed(t, dir, "parsed-b", "parsed")
	installNamed(t, dir, "parsed-a", "parsed")
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	a := h.Analyze(context.Background(), exampleRequest(t))
	if len(a.Failures) != 1 {
		t.Fatalf("failures = %v, want one", a.Failures)
	}
	msg := a.Failures[0].Error()
	for _, want := range []string{`plugin "parsed-b"`, `"dup"`, `already declared by plugin "parsed-a"`, "dropped"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure lacks %q: %s", want, msg)
		}
	}
	for _, fa := range a.Files {
		if len(fa.Diagnostics) == 0 {
			t.Errorf("%s: no findings", fa.Path)
		}
		for _, d := range fa.Diagnostics {
			if d.Plugin != "parsed-a" {
				t.Errorf("%s: finding of %s kept: %v", fa.Path, d.Plugin, d.GetMessage())
			}
		}
		if len(features(fa, "parsed-b")) == 0 {
			t.Errorf("%s: parsed-b's features were dropped too", fa.Path)
		}
	}
}

// TestLostFileMidBatchRestarts: in the middle of a batch of several
// chunks, the plugin's process exits on kill-me.cu (crashon), or never
// answers a request holding hang-me.cu and is stopped at the request
// timeout (hangon). It is restarted; every other file gets its answer, and
// the lost file's error names it and says what the plugin did.
func TestLostFileMidBatchRestarts(t *testing.T) {
	for _, c := range []struct{ mode, file, says string }{
		{"crashon", "kill-me.cu", "died analyzing this file"},
		{"hangon", "hang-me.cu", "hung analyzing this file"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			dir := t.TempDir()
			installMisbehave(t, dir, c.mode)
			log := filepath.Join(t.TempDir(), "requests")
			t.Setenv("MISBEHAVE_REQUEST_LOG", log)
			h := newHost(t, pluginhost.Options{Dirs: []string{dir}, RequestTimeout: time.Second})
			req := bigRequest(60)
			req.Files[30].Path = c.file
			a := h.Analyze(context.Background(), req)
			if len(a.Failures) > 0 {
				t.Errorf("failures = %v, want none: only %s is lost", a.Failures, c.file)
			}
			for _, fa := range a.Files {
				if fa.Path == c.file {
					if len(fa.Errors) != 1 || !strings.Contains(fa.Errors[0].Error(), c.says) || !strings.Contains(fa.Errors[0].Error(), c.file) {
						t.Errorf("%s errors = %v", c.file, fa.Errors)
					}
					continue
				}
				if len(fa.Errors) > 0 || len(fa.Features) != 1 {
					t.Errorf("%s: errors %v, features %v", fa.Path, fa.Errors, fa.Features)
				}
			}
			p, _ := h.Plugin(c.mode)
			if p.Pid() == 0 {
				t.Error("the plugin is not running after the batch")
			}
			if c.mode == "hangon" {
				// Its chunk, then the file alone (its chunk's other files one
				// by one too: sent whole, the chunk would hang again).
				b, _ := os.ReadFile(log)
				if n := strings.Count(string(b), c.file); n != 2 {
					t.Errorf("%s was sent %d times, want 2:\n%s", c.file, n, b)
				}
			}
		})
	}
}

// TestOneFileHangIsNotSentAgain: a batch of one file that the plugin hangs
// on (the nvcc launcher lints one file per compile) costs one request
// timeout, not two: the file is not sent again, and the plugin's failure
// says it hung. The next batch restarts the plugin, which answers it.
func TestOneFileHangIsNotSentAgain(t *testing.T) {
	dir := t.TempDir()
	installMisbehave(t, dir, "hangon")
	log := filepath.Join(t.TempDir(), "requests")
	t.Setenv("MISBEHAVE_REQUEST_LOG", log)
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}, RequestTimeout: time.Second})
	one := func(path string) *pluginv1.AnalyzeRequest {
		return &pluginv1.AnalyzeRequest{Files: []*pluginv1.SourceFile{{Path: path, Content: []byte("__global__ void k() {}\n")}}}
	}
	a := h.Analyze(context.Background(), one("hang-me.cu"))
	if len(a.Failures) != 1 || !strings.Contains(a.Failures[0].Error(), "no answer within 1s") {
		t.Errorf("failures = %v, want the plugin's hang", a.Failures)
	}
	requests := func() []string {
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	if r := requests(); len(r) != 1 {
		t.Errorf("requests = %q, want hang-me.cu sent once", r)
	}
	b := h.Analyze(context.Background(), one("fine.cu"))
	if len(b.Failures) > 0 || len(features(b.Files[0], "hangon")) == 0 {
		t.Errorf("the next batch: failures %v, features %v; want the restarted plugin's answer", b.Failures, b.Files[0].Features)
	}
	if r := requests(); len(r) != 2 || r[1] != "fine.cu" {
		t.Errorf("requests = %q, want hang-me.cu then fine.cu", r)
	}
}

// TestSelectDoesNotStart: a plugin left out by Select is never started;
// a name that is not installed is an error naming the installed ones;
// LeftOut tells a left-out plugin from one not installed.
func TestSelectDoesNotStart(t *testing.T) {
	dir := t.TempDir()
	installMisbehave(t, dir, "ok")
	installMisbehave(t, dir, "parsed")
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	off, _ := h.Plugin("parsed")
	if err := h.Select(nil, []string{"parsed"}); err != nil {
		t.Fatal(err)
	}
	a := h.Analyze(context.Background(), exampleRequest(t))
	if len(a.Failures) > 0 || len(features(a.Files[0], "ok")) == 0 || len(features(a.Files[0], "parsed")) > 0 {
		t.Fatalf("failures %v, features %v", a.Failures, a.Files[0].Features)
	}
	if off.Pid() != 0 || off.Version() != "" {
		t.Error("the disabled plugin was started")
	}
	if !h.LeftOut("parsed") || h.LeftOut("ok") || h.LeftOut("textcount") {
		t.Errorf("LeftOut: parsed %v, ok %v, textcount %v; want only parsed", h.LeftOut("parsed"), h.LeftOut("ok"), h.LeftOut("textcount"))
	}
	err := h.Select([]string{"textcount"}, nil)
	if err == nil || !strings.Contains(err.Error(), `no plugin named "textcount"`) || !strings.Contains(err.Error(), "ok") {
		t.Errorf("unknown plugin: err = %v", err)
	}
}

// TestPluginDirIsPluginFolder: --plugin-dir naming a plugin's own folder
// (plugin.yaml and a lib/ beside it, as a Python plugin has) finds that
// plugin alone.
func TestPluginDirIsPluginFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mine")
	installNamed(t, filepath.Dir(dir), "mine", "ok")
	if err := os.MkdirAll(filepath.Join(dir, "lib", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	ps := h.Plugins()
	if len(ps) != 1 || ps[0].Name() != "mine" || ps[0].Err() != nil {
		t.Fatalf("plugins = %v", ps)
	}
	if errs := h.Start(context.Background()); len(errs) > 0 {
		t.Fatal(errs)
	}
}

// TestOptionKey: an option without a check lives under its plugin's name.
func TestOptionKey(t *testing.T) {
	d := &pluginv1.DescribeAnalyzerResponse{Plugin: &pluginv1.PluginInfo{Name: "p"}}
	if k := pluginhost.OptionKey(d, &pluginv1.OptionInfo{Name: "x", Check: "c"}); k != "c.x" {
		t.Errorf("key = %s", k)
	}
	if k := pluginhost.OptionKey(d, &pluginv1.OptionInfo{Name: "x"}); k != "p.x" {
		t.Errorf("key = %s", k)
	}
}

// TestShadowedPluginIsNamed: of two manifests with one name, the first
// found is used and the other is named by Shadowed (it was a log line at
// warn level, which no listing showed).
func TestShadowedPluginIsNamed(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	installNamed(t, a, "same", "ok")
	installNamed(t, b, "same", "ok")
	h := newHost(t, pluginhost.Options{Dirs: []string{a, b}})
	if len(h.Plugins()) != 1 {
		t.Fatalf("plugins = %v, want one", h.Plugins())
	}
	s := h.Shadowed()
	if len(s) != 1 || !strings.Contains(s[0], filepath.Join(a, "same")) || !strings.Contains(s[0], filepath.Join(b, "same")) || !strings.HasPrefix(s[0], "same: ") {
		t.Errorf("Shadowed = %q", s)
	}
}

// TestSourceFolderHint: --plugin-dir at a Go plugin's source folder (as a
// developer tries) is told to build it there; "make build" was the hint,
// which never puts a binary in that folder.
func TestSourceFolderHint(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mine")
	plugintest.WriteManifest(t, dir, pluginhost.Manifest{Name: "mine", Kind: sdk.KindAnalyzer, Language: "go", Protocol: 1, Command: "mine"})
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	errs := h.Start(context.Background())
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "this is the plugin's source folder: build it there (go build -o mine .)") {
		t.Errorf("start errors = %v", errs)
	}
}
