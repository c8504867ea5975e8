package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/analysis/driver"
	"github.com/cudaperf/cudaperf/analysis/passes"
	"github.com/cudaperf/cudaperf/analysis/preproc"
	"github.com/cudaperf/cudaperf/analysis/ptxas"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// Set by the linker, like the host's version.
var version = "dev"

const name = "cudaperf-analyzer"

func main() {
	// The live heap of an analysis is a few MB, so at the default GOGC the
	// collector ran every few milliseconds and took about a tenth of the
	// CPU of a lint batch (bench/perf/analysis.md). A user's GOGC wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	sdk.ServeAnalyzer(newServer(passes.All()))
}

type server struct {
	pluginv1.UnimplementedAnalyzerServiceServer
	analyzers []*analysis.Analyzer
	describe  *pluginv1.DescribeAnalyzerResponse
}

func newServer(as []*analysis.Analyzer) *server {
	return &server{analyzers: as, describe: describe(as)}
}

func (s *server) Describe(context.Context, *pluginv1.DescribeAnalyzerRequest) (*pluginv1.DescribeAnalyzerResponse, error) {
	return s.describe, nil
}

// driverChecks are the findings the driver reports itself.
var driverChecks = []*pluginv1.CheckInfo{
	{Id: driver.CheckSyntax, Title: "the file has syntax errors",
		Doc:             "The CUDA grammar could not parse part of the file (an ERROR or MISSING node). The rest of the file is still analyzed; findings near the error may be missing.\n\nFix the syntax, or, if the code compiles with nvcc, report the construct so the grammar can learn it (`cudaperf parse --check FILE` shows the nodes).",
		DefaultSeverity: pluginv1.Severity_SEVERITY_ERROR},
	{Id: driver.CheckInput, Title: "the file could not be analyzed",
		Doc:             "The file is missing, unreadable, binary or larger than 10 MB (an error: name CUDA source files only), or it is not valid UTF-8 (a warning: it is analysed as is, as nvcc compiles it; save it as UTF-8).",
		DefaultSeverity: pluginv1.Severity_SEVERITY_ERROR},
	{Id: driver.CheckInternal, Title: "an analysis pass failed on this file",
		Doc:             "A pass crashed or returned an error; its findings for this file are missing and the other passes still ran. This is a bug in cudaperf: please report it with the file.",
		DefaultSeverity: pluginv1.Severity_SEVERITY_ERROR},
}

func describe(as []*analysis.Analyzer) *pluginv1.DescribeAnalyzerResponse {
	resp := &pluginv1.DescribeAnalyzerResponse{
		Plugin: &pluginv1.PluginInfo{Name: name, Version: version, Url: "https://github.com/cudaperf/cudaperf",
			Description: "cudaperf's built-in structural analyses of CUDA source (tree-sitter based)"},
		Checks: append([]*pluginv1.CheckInfo(nil), driverChecks...),
	}
	for _, a := range as {
		title, _, _ := strings.Cut(a.Doc, "\n")
		resp.Passes = append(resp.Passes, &pluginv1.PassInfo{Name: a.Name, Doc: a.Doc, Url: a.URL})
		for _, f := range a.Features {
			resp.Features = append(resp.Features, &pluginv1.FeatureInfo{Name: f.Name, Unit: f.Unit, Doc: f.Doc, Range: f.Range,
				Pass: a.Name, PerKernel: f.Level != analysis.LevelFile, Version: int32(max(1, f.Version))})
		}
		// Every analyzer but the infrastructure ones (NoChecks) reports
		// diagnostics under its name; its doc is the check's explanation
		// (bad and good examples included).
		if a.NoChecks {
			continue
		}
		resp.Checks = append(resp.Checks, &pluginv1.CheckInfo{Id: a.Name, Title: title, Doc: a.Doc, Url: a.URL,
			DefaultSeverity: severity(a.Severity), Pass: a.Name})
		for _, o := range a.Options {
			resp.Options = append(resp.Options, &pluginv1.OptionInfo{Name: o.Name, Check: a.Name, Type: string(o.Type),
				DefaultValue: o.Default, Doc: o.Doc, Min: o.Min, Max: o.Max})
		}
	}
	return resp
}

func (s *server) Analyze(ctx context.Context, req *pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error) {
	as, err := s.selected(req.GetPasses())
	if err != nil {
		return nil, err
	}
	dev, err := targetDevice(req.GetTarget())
	if err != nil {
		return nil, err
	}
	reports := map[string]*ptxas.Report{}
	for _, f := range req.GetFiles() {
		if t := f.GetPtxasReport(); t != "" {
			if r, err := ptxas.ParseBytes([]byte(t)); err == nil {
				reports[f.GetPath()] = r
			} else {
				sdk.Logger().Warn("ignoring unreadable ptxas report", "file", f.GetPath(), "err", err)
			}
		}
	}
	flags := map[string][]string{}
	for _, f := range req.GetFiles() {
		if fl := f.GetCompileFlags(); len(fl) > 0 {
			flags[f.GetPath()] = fl
		}
	}
	d, err := driver.New(as, driver.Options{Device: dev, Ptxas: func(p string) *ptxas.Report { return reports[p] },
		Settings: req.GetOptions(), Sizes: req.GetSizes(),
		// The build's -D/-I flags: its macros and the #defines of the
		// headers a file includes decide #if branches and macro values.
		Defines: func(p string, src []byte) map[string]string { return preproc.Defines(p, src, flags[p]) }})
	if err != nil {
		return nil, err
	}
	// A driver is safe for concurrent use: analyze the files on every core.
	return sdk.AnalyzeParallel(ctx, req, 0, func(ctx context.Context, _ *pluginv1.AnalyzeRequest, f *pluginv1.SourceFile) (*pluginv1.FileResult, error) {
		return convert(d.RunSource(ctx, f.GetPath(), f.GetContent())), nil
	}), nil
}

// selected returns the analyzers named in a request (all when none are).
func (s *server) selected(names []string) ([]*analysis.Analyzer, error) {
	if len(names) == 0 {
		return s.analyzers, nil
	}
	var out []*analysis.Analyzer
	for _, n := range names {
		found := false
		for _, a := range s.analyzers {
			if a.Name == n {
				out, found = append(out, a), true
			}
		}
		if !found {
			return nil, fmt.Errorf("%s: no pass named %q (Describe lists the passes)", name, n)
		}
	}
	return out, nil
}

// targetDevice starts from the table entry of the requested compute
// capability and overrides what the host measured.
func targetDevice(t *pluginv1.Device) (*device.Device, error) {
	if t == nil || t.GetComputeCapability() == "" {
		return device.Default(), nil
	}
	var cc device.CC
	if err := cc.UnmarshalText([]byte(t.GetComputeCapability())); err != nil {
		return nil, fmt.Errorf("%s: target compute capability %q is not of the form 9.0", name, t.GetComputeCapability())
	}
	d, err := device.ForCC(cc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cp := *d
	if t.GetName() != "" {
		cp.Name = t.GetName()
		device.WithName(&cp, cp.Name)
	}
	if t.GetSmCount() > 0 {
		cp.SMs = int(t.GetSmCount())
	}
	if t.GetL2CacheBytes() > 0 {
		cp.L2Bytes = int(t.GetL2CacheBytes())
	}
	return &cp, nil
}

func severity(s analysis.Severity) pluginv1.Severity {
	switch s {
	case analysis.Error:
		return pluginv1.Severity_SEVERITY_ERROR
	case analysis.Info:
		return pluginv1.Severity_SEVERITY_NOTE
	}
	return pluginv1.Severity_SEVERITY_WARNING
}

func convert(r *driver.FileResult) *pluginv1.FileResult {
	out := &pluginv1.FileResult{Path: r.Path}
	for _, d := range r.Diagnostics {
		pd := &pluginv1.Diagnostic{Check: d.Check, Severity: severity(d.Severity), Message: d.Message, Kernel: d.Kernel,
			Range: rng(r.Path, d.Range)}
		for _, f := range d.Fixes {
			sf := &pluginv1.SuggestedFix{Message: f.Message}
			for _, e := range f.Edits {
				sf.Edits = append(sf.Edits, &pluginv1.TextEdit{Range: &pluginv1.Range{File: r.Path, StartByte: int64(e.Start), EndByte: int64(e.End)}, NewText: e.NewText})
			}
			pd.Fixes = append(pd.Fixes, sf)
		}
		out.Diagnostics = append(out.Diagnostics, pd)
	}
	for _, f := range r.Features {
		out.Features = append(out.Features, &pluginv1.Feature{Kernel: f.Kernel, Name: f.Name, Value: f.Value, Unit: f.Unit,
			Unknown: f.Status == analysis.Unknown, Estimated: f.Status == analysis.Estimated})
	}
	return out
}

func rng(file string, r analysis.Range) *pluginv1.Range {
	return &pluginv1.Range{File: file, StartByte: int64(r.StartByte), EndByte: int64(r.EndByte),
		StartLine: int32(r.StartLine), StartColumn: int32(r.StartCol), EndLine: int32(r.EndLine), EndColumn: int32(r.EndCol)}
}
