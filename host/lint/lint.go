package lint

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/cudaperf/cudaperf/host/config"
	"github.com/cudaperf/cudaperf/host/report"
	"github.com/cudaperf/cudaperf/host/suppress"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// Analyzer is what lint needs of an analyzer plugin: its name (for errors)
// and its Analyze RPC. The plugin host's clients satisfy it.
type Analyzer interface {
	Name() string
	Analyze(ctx context.Context, req *pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error)
}

// PluginError is a plugin that failed the whole request.
type PluginError struct {
	Plugin string
	Err    error
}

func (e *PluginError) Error() string {
	return fmt.Sprintf("analyzer plugin %q failed: %v", e.Plugin, e.Err)
}

// FileError is a file one plugin could not analyze (an internal error of the
// plugin, not a finding about the code).
type FileError struct {
	Plugin, Path, Err string
}

func (e *FileError) Error() string {
	return fmt.Sprintf("%s: analyzer plugin %q could not analyze this file: %s", e.Path, e.Plugin, e.Err)
}

// Options configure a run.
type Options struct {
	Config *config.File     // nil means config.Default()
	Target *pluginv1.Device // nil lets each plugin use its default device
	// Ptxas maps a file path to the `nvcc -Xptxas -v` output for it, when
	// the caller compiled it (the launcher does).
	Ptxas map[string]string
	// CompileFlags are passed to plugins with every file.
	CompileFlags []string
}

// Result is everything a run produced.
type Result struct {
	Diagnostics  []report.Diagnostic
	Features     []report.KernelFeatures
	PluginErrors []*PluginError
	FileErrors   []*FileError
}

// Run analyzes the inputs with every analyzer, in parallel.
func Run(ctx context.Context, inputs []Input, analyzers []Analyzer, opt Options) *Result {
	cfg := opt.Config
	if cfg == nil {
		cfg = config.Default()
	}
	req := &pluginv1.AnalyzeRequest{Target: opt.Target, Options: flattenSettings(cfg)}
	for _, in := range inputs {
		req.Files = append(req.Files, &pluginv1.SourceFile{
			Path: in.Path, Content: in.Content, PtxasReport: opt.Ptxas[in.Path], CompileFlags: opt.CompileFlags,
		})
	}
	// Plugins are merged in name order so feature-name collisions resolve
	// the same way every run.
	analyzers = slices.Clone(analyzers)
	sort.Slice(analyzers, func(i, j int) bool { return analyzers[i].Name() < analyzers[j].Name() })
	resps := make([]*pluginv1.AnalyzeResponse, len(analyzers))
	errs := make([]error, len(analyzers))
	var wg sync.WaitGroup
	for i, a := range analyzers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resps[i], errs[i] = a.Analyze(ctx, req)
		}()
	}
	wg.Wait()

	res := &Result{}
	m := newMerger()
	for i, a := range analyzers {
		if errs[i] != nil {
			res.PluginErrors = append(res.PluginErrors, &PluginError{Plugin: a.Name(), Err: errs[i]})
			continue
		}
		for _, fr := range resps[i].GetFiles() {
			if fr.GetError() != "" {
				res.FileErrors = append(res.FileErrors, &FileError{Plugin: a.Name(), Path: fr.GetPath(), Err: fr.GetError()})
			}
			for _, d := range fr.GetDiagnostics() {
				if cfg.Enabled(d.GetCheck()) || d.GetCheck() == "syntax" {
					res.Diagnostics = append(res.Diagnostics, convert(a.Name(), fr.GetPath(), d))
				}
			}
			m.add(a.Name(), fr.GetPath(), fr.GetFeatures())
		}
	}
	res.Diagnostics = applySuppressions(inputs, res.Diagnostics)
	report.Sort(res.Diagnostics)
	res.Features = m.rows(inputs)
	return res
}

// flattenSettings turns per-check settings into the options map plugins
// receive: "<check>.<key>" = value.
func flattenSettings(cfg *config.File) map[string]string {
	out := map[string]string{}
	for check, kv := range cfg.Lint.Settings {
		for k, v := range kv {
			out[check+"."+k] = v
		}
	}
	return out
}

func severity(s pluginv1.Severity) report.Severity {
	switch s {
	case pluginv1.Severity_SEVERITY_ERROR:
		return report.Error
	case pluginv1.Severity_SEVERITY_NOTE:
		return report.Note
	}
	return report.Warning
}

func convert(plugin, path string, d *pluginv1.Diagnostic) report.Diagnostic {
	r := d.GetRange()
	file := r.GetFile()
	if file == "" {
		file = path
	}
	out := report.Diagnostic{
		File: file, Line: int(r.GetStartLine()), Column: int(r.GetStartColumn()),
		EndLine: int(r.GetEndLine()), EndColumn: int(r.GetEndColumn()),
		Severity: severity(d.GetSeverity()), Check: d.GetCheck(), Message: d.GetMessage(),
		Kernel: d.GetKernel(), URL: d.GetUrl(), Plugin: plugin,
	}
	if out.Line < 1 {
		out.Line = 1
	}
	if out.Column < 1 {
		out.Column = 1
	}
	for _, f := range d.GetFixes() {
		for _, e := range f.GetEdits() {
			out.Fixes = append(out.Fixes, report.Fix{Message: f.GetMessage(), Start: int(e.GetRange().GetStartByte()), End: int(e.GetRange().GetEndByte()), NewText: e.GetNewText()})
		}
	}
	return out
}

// applySuppressions drops findings silenced by `cudaperf:ignore` comments
// and adds findings about malformed or unused directives.
func applySuppressions(inputs []Input, ds []report.Diagnostic) []report.Diagnostic {
	byFile := map[string][]report.Diagnostic{}
	for _, d := range ds {
		byFile[d.File] = append(byFile[d.File], d)
	}
	var out []report.Diagnostic
	for _, in := range inputs {
		kept, problems := suppress.Apply(in.Path, byFile[in.Path], suppress.Parse(in.Path, in.Content))
		out = append(append(out, kept...), problems...)
		delete(byFile, in.Path)
	}
	for _, rest := range byFile { // diagnostics about files lint was not given (headers)
		out = append(out, rest...)
	}
	return out
}

// merger builds one feature vector per kernel from all plugins' features.
type merger struct {
	owner   map[string]string                        // feature name → plugin that first reported it
	kernels map[string][]string                      // file → kernels in first-seen order
	perK    map[string]map[string]map[string]float64 // file → kernel → features
	perFile map[string]map[string]float64            // file → file-level features
}

func newMerger() *merger {
	return &merger{owner: map[string]string{}, kernels: map[string][]string{},
		perK: map[string]map[string]map[string]float64{}, perFile: map[string]map[string]float64{}}
}

func (m *merger) add(plugin, file string, fs []*pluginv1.Feature) {
	for _, f := range fs {
		if f.GetUnknown() {
			continue // unknown is not a value; leaving it out keeps it from reading as 0
		}
		name := f.GetName()
		if o, ok := m.owner[name]; !ok {
			m.owner[name] = plugin
		} else if o != plugin {
			name = plugin + "." + name // a second plugin's feature of the same name keeps its own key
		}
		if f.GetKernel() == "" {
			if m.perFile[file] == nil {
				m.perFile[file] = map[string]float64{}
			}
			m.perFile[file][name] = f.GetValue()
			continue
		}
		if m.perK[file] == nil {
			m.perK[file] = map[string]map[string]float64{}
		}
		if m.perK[file][f.GetKernel()] == nil {
			m.perK[file][f.GetKernel()] = map[string]float64{}
			m.kernels[file] = append(m.kernels[file], f.GetKernel())
		}
		m.perK[file][f.GetKernel()][name] = f.GetValue()
	}
}

func (m *merger) rows(inputs []Input) []report.KernelFeatures {
	var out []report.KernelFeatures
	for _, in := range inputs {
		for _, k := range m.kernels[in.Path] {
			fs := map[string]float64{}
			for n, v := range m.perFile[in.Path] {
				fs[n] = v
			}
			for n, v := range m.perK[in.Path][k] {
				fs[n] = v
			}
			out = append(out, report.KernelFeatures{File: in.Path, Kernel: k, Features: fs})
		}
	}
	return out
}
