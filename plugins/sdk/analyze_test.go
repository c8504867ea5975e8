package sdk

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

func TestAnalyzeEachIsolatesBadFiles(t *testing.T) {
	req := &pluginv1.AnalyzeRequest{Files: []*pluginv1.SourceFile{
		{Path: "ok.cu", Content: []byte("x")},
		{Path: "err.cu"},
		{Path: "panic.cu"},
		{Path: "nil.cu"},
	}}
	fn := func(_ context.Context, _ *pluginv1.AnalyzeRequest, f *pluginv1.SourceFile) (*pluginv1.FileResult, error) {
		switch f.GetPath() {
		case "err.cu":
			return nil, errors.New("cannot read it")
		case "panic.cu":
			panic("boom")
		case "nil.cu":
			return nil, nil
		}
		return &pluginv1.FileResult{Features: []*pluginv1.Feature{{Name: "bytes", Value: float64(len(f.GetContent()))}}}, nil
	}
	got := AnalyzeEach(context.Background(), req, fn)
	if len(got.Files) != 4 {
		t.Fatalf("got %d results, want 4", len(got.Files))
	}
	want := &pluginv1.FileResult{Path: "ok.cu", Features: []*pluginv1.Feature{{Name: "bytes", Value: 1}}}
	if d := cmp.Diff(want, got.Files[0], protocmp.Transform()); d != "" {
		t.Errorf("ok.cu (-want +got):\n%s", d)
	}
	if got.Files[1].Path != "err.cu" || got.Files[1].Error != "cannot read it" {
		t.Errorf("err.cu = %v", got.Files[1])
	}
	if got.Files[2].Path != "panic.cu" || !strings.Contains(got.Files[2].Error, "panicked") || !strings.Contains(got.Files[2].Error, "boom") {
		t.Errorf("panic.cu = %v", got.Files[2])
	}
	if got.Files[3].Path != "nil.cu" || got.Files[3].Error != "" {
		t.Errorf("nil.cu = %v", got.Files[3])
	}
}

func TestAnalyzeEachCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := &pluginv1.AnalyzeRequest{Files: []*pluginv1.SourceFile{{Path: "a.cu"}}}
	got := AnalyzeEach(ctx, req, func(context.Context, *pluginv1.AnalyzeRequest, *pluginv1.SourceFile) (*pluginv1.FileResult, error) {
		t.Error("analyzer called after cancellation")
		return nil, nil
	})
	if got.Files[0].Path != "a.cu" || !strings.Contains(got.Files[0].Error, "canceled") {
		t.Errorf("got %v", got.Files[0])
	}
}

// TestAnalyzeParallel checks that files are analyzed at the same time, in
// the request's order, with bad files isolated as in AnalyzeEach.
func TestAnalyzeParallel(t *testing.T) {
	req := &pluginv1.AnalyzeRequest{}
	for i := range 40 {
		req.Files = append(req.Files, &pluginv1.SourceFile{Path: fmt.Sprintf("f%02d.cu", i), Content: make([]byte, i)})
	}
	req.Files[7].Path = "panic.cu"
	// The first two calls wait for each other: with one worker this
	// would never finish, so the guard fails the test instead of hanging.
	started := make(chan struct{}, 2)
	both := make(chan struct{})
	var once sync.Once
	var calls atomic.Int32
	fn := func(_ context.Context, _ *pluginv1.AnalyzeRequest, f *pluginv1.SourceFile) (*pluginv1.FileResult, error) {
		if calls.Add(1) <= 2 {
			started <- struct{}{}
			if len(started) == 2 {
				once.Do(func() { close(both) })
			}
			select {
			case <-both:
			case <-time.After(10 * time.Second):
				return nil, errors.New("the other worker never started")
			}
		}
		if f.GetPath() == "panic.cu" {
			panic("boom")
		}
		return &pluginv1.FileResult{Features: []*pluginv1.Feature{{Name: "bytes", Value: float64(len(f.GetContent()))}}}, nil
	}
	got := AnalyzeParallel(context.Background(), req, 2, fn)
	if len(got.Files) != len(req.Files) {
		t.Fatalf("got %d results, want %d", len(got.Files), len(req.Files))
	}
	for i, r := range got.Files {
		if r.Path != req.Files[i].Path {
			t.Errorf("result %d is for %s, want %s", i, r.Path, req.Files[i].Path)
		}
		switch {
		case r.Path == "panic.cu":
			if !strings.Contains(r.Error, "boom") {
				t.Errorf("panic.cu = %v", r)
			}
		case r.Error != "":
			t.Errorf("%s: %s", r.Path, r.Error)
		case len(r.Features) != 1 || r.Features[0].Value != float64(i):
			t.Errorf("%s: features %v, want bytes=%d", r.Path, r.Features, i)
		}
	}
}

func TestLineIndex(t *testing.T) {
	content := []byte("ab\n\ncdé\nx")
	x := NewLineIndex(content)
	for _, tc := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {4, 3, 1}, {7, 3, 4}, {9, 4, 1}, {10, 4, 2}, {99, 4, 2}, {-5, 1, 1},
	} {
		l, c := x.Position(tc.off)
		if l != tc.line || c != tc.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
	r := x.Range("f.cu", 4, 6)
	want := &pluginv1.Range{File: "f.cu", StartByte: 4, EndByte: 6, StartLine: 3, StartColumn: 1, EndLine: 3, EndColumn: 3}
	if d := cmp.Diff(want, r, protocmp.Transform()); d != "" {
		t.Errorf("Range (-want +got):\n%s", d)
	}
}

func TestKinds(t *testing.T) {
	set := ClientPluginSet()
	for _, k := range Kinds {
		if !k.Valid() {
			t.Errorf("%s not valid", k)
		}
		if _, ok := set[string(k)]; !ok {
			t.Errorf("ClientPluginSet lacks %s", k)
		}
	}
	if Kind("linter").Valid() {
		t.Error("unknown kind reported valid")
	}
}
