package pluginhost

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// DescribeAnalyzer returns the analyzer's Describe answer (cached from
// start).
func (p *Plugin) DescribeAnalyzer(ctx context.Context) (*pluginv1.DescribeAnalyzerResponse, error) {
	if _, err := p.rawClient(ctx, sdk.KindAnalyzer); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.describe.(*pluginv1.DescribeAnalyzerResponse), nil
}

// Analyze sends one Analyze request to the plugin. The response is checked
// to hold one result per file, in order.
func (p *Plugin) Analyze(ctx context.Context, req *pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error) {
	var resp *pluginv1.AnalyzeResponse
	err := p.call(ctx, sdk.KindAnalyzer, "Analyze", func(ctx context.Context, raw any) error {
		var err error
		resp, err = raw.(pluginv1.AnalyzerServiceClient).Analyze(ctx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(resp.GetFiles()) != len(req.GetFiles()) {
		return nil, p.newError("Analyze", fmt.Errorf("answered with %d file results for %d files", len(resp.GetFiles()), len(req.GetFiles())),
			"this is a bug in the plugin: Analyze must return one FileResult per file, in order")
	}
	return resp, nil
}

// Analysis is the merged answer of every analyzer plugin to one request.
type Analysis struct {
	// Files has one entry per request file, in request order.
	Files []*FileAnalysis
	// Failures names the plugins that failed (did not start, crashed,
	// hung, returned an error), one error each; their results are missing,
	// for every file or, when only some chunks of a large batch failed, for
	// the number of files the error states.
	Failures []error
}

// FileAnalysis is everything the analyzers reported about one file.
type FileAnalysis struct {
	Path string
	// Features sorted by kernel, name and plugin.
	Features []Feature
	// Diagnostics sorted by position, check and plugin.
	Diagnostics []Diagnostic
	// Errors are per-file failures reported by plugins (FileResult.error),
	// each naming the plugin.
	Errors []error
}

// Feature is a feature with the analyzer that computed it; feature vectors
// are keyed by feature name and analyzer name and version.
type Feature struct {
	Plugin        string
	PluginVersion string
	*pluginv1.Feature
}

// Diagnostic is a diagnostic with the analyzer that reported it.
type Diagnostic struct {
	Plugin string
	*pluginv1.Diagnostic
}

// Analyze sends req to every analyzer plugin in parallel and merges the
// answers. A plugin that fails is listed in Analysis.Failures; the others'
// results are complete.
func (h *Host) Analyze(ctx context.Context, req *pluginv1.AnalyzeRequest) *Analysis {
	return h.AnalyzeWith(ctx, h.OfKind(sdk.KindAnalyzer), req)
}

// ChunkBytes is the source size of one Analyze request when a batch is
// split (see AnalyzeWith).
const ChunkBytes = 64 << 10

// chunksInFlight is how many chunk requests a plugin has at once: enough
// to keep every core of the plugin busy across the end of one chunk and
// the round trip of another: two, and one more per four cores beyond
// eight. On the 16-core GPU machine four rather than two came with 1.8 MB
// batches at 6.6–7.4 instead of 5.9–7.0 MB/s, in an A/B that also moved
// the NVML probe (bench/perf/lint.md); the two were not measured apart.
func chunksInFlight() int { return max(2, runtime.GOMAXPROCS(0)/4) }

// AnalyzeWith is Analyze over the given analyzer plugins.
//
// A large batch goes to each plugin as consecutive chunks of about
// ChunkBytes of source, a few at a time, instead of one request: the host
// then decodes and sorts one chunk's answer while the plugin analyzes the
// next, where one request left that work until after the last file: on
// the 2-core dev VM that tail was 22 ms (answer transfer and decoding 12,
// sorting 3, merging 7) of a 235 ms lint of 454 kB, an estimated quarter
// of the 16-core wall time. A chunk that
// fails leaves its files without that plugin's results and the plugin in
// Failures (once); the other chunks' results are kept.
func (h *Host) AnalyzeWith(ctx context.Context, plugins []*Plugin, req *pluginv1.AnalyzeRequest) *Analysis {
	a := &Analysis{Files: make([]*FileAnalysis, len(req.GetFiles()))}
	for i, f := range req.GetFiles() {
		a.Files[i] = &FileAnalysis{Path: f.GetPath()}
	}
	// Results of different plugins for the same file are appended under
	// this lock; the sort at the end makes the order independent of timing.
	var mu sync.Mutex
	progress, _ := ctx.Value(progressKey{}).(func(int))
	if progress == nil {
		progress = func(int) {}
	}
	chunks := splitFiles(req.GetFiles(), ChunkBytes)
	errs := make([][]error, len(plugins)) // by plugin, by chunk
	var wg sync.WaitGroup
	for i, p := range plugins {
		errs[i] = make([]error, len(chunks))
		slots := make(chan struct{}, chunksInFlight())
		for c, ch := range chunks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				slots <- struct{}{}
				resp, err := p.Analyze(ctx, chunkRequest(req, ch))
				<-slots
				mu.Lock()
				defer mu.Unlock()
				progress(ch.end - ch.start)
				if err != nil {
					errs[i][c] = err
					return
				}
				version := p.Version() // known once the plugin has started
				for j, fr := range resp.GetFiles() {
					fa := a.Files[ch.start+j]
					if fr.GetError() != "" {
						fa.Errors = append(fa.Errors, &PluginError{Plugin: p.name, Kind: string(p.Kind()), Manifest: p.manifestPath,
							Op: "Analyze " + fa.Path, Err: fmt.Errorf("%s", fr.GetError())})
					}
					for _, f := range fr.GetFeatures() {
						fa.Features = append(fa.Features, Feature{Plugin: p.name, PluginVersion: version, Feature: f})
					}
					for _, d := range fr.GetDiagnostics() {
						fa.Diagnostics = append(fa.Diagnostics, Diagnostic{Plugin: p.name, Diagnostic: d})
					}
				}
			}()
		}
	}
	wg.Wait()
	for i := range plugins {
		if err := firstFailure(errs[i], chunks, len(req.GetFiles())); err != nil {
			a.Failures = append(a.Failures, err)
		}
	}
	for _, fa := range a.Files {
		slices.SortStableFunc(fa.Features, func(x, y Feature) int {
			return cmp.Or(cmp.Compare(x.GetKernel(), y.GetKernel()), cmp.Compare(x.GetName(), y.GetName()), cmp.Compare(x.Plugin, y.Plugin))
		})
		slices.SortStableFunc(fa.Diagnostics, func(x, y Diagnostic) int {
			rx, ry := x.GetRange(), y.GetRange()
			return cmp.Or(cmp.Compare(rx.GetStartLine(), ry.GetStartLine()), cmp.Compare(rx.GetStartColumn(), ry.GetStartColumn()),
				cmp.Compare(x.GetCheck(), y.GetCheck()), cmp.Compare(x.Plugin, y.Plugin))
		})
	}
	return a
}

// span is a chunk of a request: files[start:end].
type span struct{ start, end int }

// splitFiles cuts files into consecutive chunks of at most limit bytes of
// content (a larger file is a chunk of its own). No files: one empty
// chunk, so that every plugin still gets a request (and a failing plugin
// is still reported).
func splitFiles(files []*pluginv1.SourceFile, limit int) []span {
	var out []span
	start, size := 0, 0
	for i, f := range files {
		n := len(f.GetContent())
		if i > start && size+n > limit {
			out = append(out, span{start, i})
			start, size = i, 0
		}
		size += n
	}
	return append(out, span{start, len(files)})
}

// progressKey carries the callback of WithAnalyzeProgress.
type progressKey struct{}

// WithAnalyzeProgress returns a context under which Analyze and
// AnalyzeWith call fn each time a plugin has answered (or failed) for some
// files, with their number: the calls add up to the number of files times
// the number of plugins. Calls never overlap, so fn can drive a progress
// bar directly.
func WithAnalyzeProgress(ctx context.Context, fn func(files int)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// chunkRequest is req with only the chunk's files. It shares everything
// with req (nothing is copied); TestChunkRequestKeepsEveryField fails when
// the contract grows a field that is not carried over here.
func chunkRequest(req *pluginv1.AnalyzeRequest, ch span) *pluginv1.AnalyzeRequest {
	return &pluginv1.AnalyzeRequest{Files: req.GetFiles()[ch.start:ch.end], Options: req.GetOptions(), Target: req.GetTarget(), Passes: req.GetPasses(), Sizes: req.GetSizes()}
}

// firstFailure is the plugin's failure over all chunks: the first chunk's
// error (a crash fails every later request with the same error), with the
// number of files left without results when that is not all of them.
func firstFailure(errs []error, chunks []span, total int) error {
	var first error
	missing := 0
	for c, err := range errs {
		if err == nil {
			continue
		}
		if first == nil {
			first = err
		}
		missing += chunks[c].end - chunks[c].start
	}
	if first == nil || missing == total {
		return first
	}
	return fmt.Errorf("%w (%d of %d files have no results from it)", first, missing, total)
}
