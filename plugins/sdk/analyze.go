package sdk

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// FileAnalyzer analyzes one file. An error (or a panic) becomes that file's
// FileResult.error; it never fails the other files of the batch.
type FileAnalyzer func(ctx context.Context, req *pluginv1.AnalyzeRequest, file *pluginv1.SourceFile) (*pluginv1.FileResult, error)

// AnalyzeEach runs fn on every file of req in order and collects one
// FileResult per file, as AnalyzerService.Analyze must return. It stops
// early only when ctx is cancelled, marking the remaining files.
func AnalyzeEach(ctx context.Context, req *pluginv1.AnalyzeRequest, fn FileAnalyzer) *pluginv1.AnalyzeResponse {
	return AnalyzeParallel(ctx, req, 1, fn)
}

// AnalyzeParallel is AnalyzeEach with up to jobs files analyzed at once
// (jobs < 1: one per CPU, GOMAXPROCS), for analyzers whose fn is safe for
// concurrent use. A batch lint sends up to 64 KiB of files per request, so a plugin
// that analyzes them one by one leaves all but one core idle. The results
// keep the request's order.
func AnalyzeParallel(ctx context.Context, req *pluginv1.AnalyzeRequest, jobs int, fn FileAnalyzer) *pluginv1.AnalyzeResponse {
	files := req.GetFiles()
	out := make([]*pluginv1.FileResult, len(files))
	one := func(i int) {
		f := files[i]
		var res *pluginv1.FileResult
		if err := ctx.Err(); err != nil {
			res = &pluginv1.FileResult{Error: fmt.Sprintf("not analyzed: %v", err)}
		} else {
			res = analyzeOne(ctx, req, f, fn)
		}
		res.Path = f.GetPath()
		out[i] = res
	}
	if jobs < 1 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = min(jobs, len(files))
	if jobs <= 1 {
		for i := range files {
			one(i)
		}
		return &pluginv1.AnalyzeResponse{Files: out}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				one(i)
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return &pluginv1.AnalyzeResponse{Files: out}
}

func analyzeOne(ctx context.Context, req *pluginv1.AnalyzeRequest, f *pluginv1.SourceFile, fn FileAnalyzer) (res *pluginv1.FileResult) {
	defer func() {
		if r := recover(); r != nil {
			// The stack only at debug level: a bug that hits every file
			// would otherwise print one stack per file at every level.
			Logger().Debug("panic analyzing file", "file", f.GetPath(), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			res = &pluginv1.FileResult{Error: fmt.Sprintf("analyzer panicked on this file: %v (a bug in the plugin; --log-level debug shows its stack)", r)}
		}
	}()
	res, err := fn(ctx, req, f)
	if err != nil {
		return &pluginv1.FileResult{Error: err.Error()}
	}
	if res == nil {
		res = &pluginv1.FileResult{}
	}
	return res
}

// LineIndex converts byte offsets of one file into 1-based line and column
// positions (columns count bytes), as pluginv1.Range wants them.
type LineIndex struct {
	starts []int // byte offset of the start of each line
	size   int
}

// NewLineIndex indexes content.
func NewLineIndex(content []byte) *LineIndex {
	starts := []int{0}
	for i, b := range content {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &LineIndex{starts: starts, size: len(content)}
}

// Position returns the 1-based line and column of byte offset off, clamped
// to the file.
func (x *LineIndex) Position(off int) (line, col int) {
	off = max(0, min(off, x.size))
	i := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	return i + 1, off - x.starts[i] + 1
}

// Range returns the pluginv1.Range of bytes [start, end) of file.
func (x *LineIndex) Range(file string, start, end int) *pluginv1.Range {
	sl, sc := x.Position(start)
	el, ec := x.Position(end)
	return &pluginv1.Range{
		File:      file,
		StartByte: int64(start), EndByte: int64(end),
		StartLine: int32(sl), StartColumn: int32(sc),
		EndLine: int32(el), EndColumn: int32(ec),
	}
}
