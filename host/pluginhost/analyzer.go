package pluginhost

import (
	"cmp"
	"context"
	"fmt"
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
	// Failures names the plugins that failed the whole request (did not
	// start, crashed, hung, returned an error); their results are missing.
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

// AnalyzeWith is Analyze over the given analyzer plugins.
func (h *Host) AnalyzeWith(ctx context.Context, plugins []*Plugin, req *pluginv1.AnalyzeRequest) *Analysis {
	resps := make([]*pluginv1.AnalyzeResponse, len(plugins))
	errs := make([]error, len(plugins))
	var wg sync.WaitGroup
	for i, p := range plugins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resps[i], errs[i] = p.Analyze(ctx, req)
		}()
	}
	wg.Wait()

	a := &Analysis{Files: make([]*FileAnalysis, len(req.GetFiles()))}
	for i, f := range req.GetFiles() {
		a.Files[i] = &FileAnalysis{Path: f.GetPath()}
	}
	for i, p := range plugins {
		if errs[i] != nil {
			a.Failures = append(a.Failures, errs[i])
			continue
		}
		version := p.Version()
		for j, fr := range resps[i].GetFiles() {
			fa := a.Files[j]
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
