package pluginhost_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// bigRequest is n files of distinct sizes, together several chunks.
func bigRequest(n int) *pluginv1.AnalyzeRequest {
	req := &pluginv1.AnalyzeRequest{}
	for i := range n {
		size := 5000 + 97*i
		req.Files = append(req.Files, &pluginv1.SourceFile{Path: fmt.Sprintf("f%03d.cu", i), Content: bytes.Repeat([]byte("x"), size)})
	}
	return req
}

// TestChunkedBatchKeepsOrder sends a batch of several chunks: every file
// gets its own answer (the misbehave plugin's "bytes" feature is the
// file's size), in request order, from every plugin.
func TestChunkedBatchKeepsOrder(t *testing.T) {
	dir := t.TempDir()
	installMisbehave(t, dir, "ok")
	plugintest.InstallGo(t, "plugins/examples/textcount", dir)
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	req := bigRequest(60)
	total := 0
	for _, f := range req.Files {
		total += len(f.Content)
	}
	if total < 4*pluginhost.ChunkBytes {
		t.Fatalf("the batch is %d bytes, want at least 4 chunks of %d", total, pluginhost.ChunkBytes)
	}
	done, calls := 0, 0 // WithAnalyzeProgress promises calls that never overlap: -race checks
	ctx := pluginhost.WithAnalyzeProgress(context.Background(), func(n int) { done += n; calls++ })
	a := h.Analyze(ctx, req)
	if len(a.Failures) > 0 {
		t.Fatalf("failures: %v", a.Failures)
	}
	if done != 2*len(req.Files) || calls < 8 {
		t.Errorf("progress: %d files in %d calls, want %d files (two plugins) in one call per chunk and plugin", done, calls, 2*len(req.Files))
	}
	for i, fa := range a.Files {
		if fa.Path != req.Files[i].Path {
			t.Fatalf("file %d is %s, want %s", i, fa.Path, req.Files[i].Path)
		}
		from := map[string]bool{}
		for _, f := range fa.Features {
			from[f.Plugin] = true
			if f.Plugin == "ok" && f.GetName() == "bytes" && int(f.GetValue()) != len(req.Files[i].Content) {
				t.Errorf("%s: bytes = %v, want %d (another file's answer)", fa.Path, f.GetValue(), len(req.Files[i].Content))
			}
			if f.PluginVersion == "" {
				t.Errorf("%s: feature %s from %s has no plugin version", fa.Path, f.GetName(), f.Plugin)
			}
		}
		if !from["ok"] || !from["textcount"] {
			t.Errorf("%s: features from %v, want ok and textcount", fa.Path, from)
		}
	}
}

// TestFailedChunkLosesOnlyItsFiles: the plugin refuses the request that
// holds fail-me.cu. Only that chunk's files lack its results, the others
// keep them, and the failure is reported once, with the count.
func TestFailedChunkLosesOnlyItsFiles(t *testing.T) {
	dir := t.TempDir()
	installMisbehave(t, dir, "failon")
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	req := bigRequest(60)
	req.Files[30].Path = "fail-me.cu"
	done := 0
	a := h.Analyze(pluginhost.WithAnalyzeProgress(context.Background(), func(n int) { done += n }), req)
	if done != len(req.Files) {
		t.Errorf("progress counted %d files, want all %d (the failed chunk's too)", done, len(req.Files))
	}
	if len(a.Failures) != 1 {
		t.Fatalf("failures = %v, want one", a.Failures)
	}
	without := 0
	for _, fa := range a.Files {
		if len(fa.Features) == 0 {
			without++
		} else if fa.Path == "fail-me.cu" {
			t.Errorf("fail-me.cu has results")
		}
	}
	if without == 0 || without == len(a.Files) {
		t.Fatalf("%d of %d files without results, want only fail-me.cu's chunk", without, len(a.Files))
	}
	msg := a.Failures[0].Error()
	for _, want := range []string{`plugin "failon"`, "refusing fail-me.cu", fmt.Sprintf("(%d of %d files have no results from it)", without, len(a.Files))} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure lacks %q:\n%s", want, msg)
		}
	}
}
