package lint

import (
	"context"
	"errors"
	"path/filepath"
	"slices"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/analysis/options"
	"github.com/cudaperf/cudaperf/analysis/pysource"
	"github.com/cudaperf/cudaperf/host/config"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/report"
	"github.com/cudaperf/cudaperf/host/suppress"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// Analyzers is what lint needs of the plugin host: one merged answer of
// every analyzer plugin to a request (pluginhost.Host satisfies it).
type Analyzers interface {
	Analyze(ctx context.Context, req *pluginv1.AnalyzeRequest) *pluginhost.Analysis
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
	// FileFlags, when set, gives a file's own flags (its
	// compile_commands.json entry), sent after CompileFlags.
	FileFlags func(path string) []string
	// Sizes binds problem-size names (n, k, …) to values for the
	// problem-size-aware features; nil analyzes without a size.
	Sizes map[string]int64
}

// Result is everything a run produced.
type Result struct {
	Diagnostics []report.Diagnostic
	Features    []report.KernelFeatures
	// PluginErrors are plugins that failed the whole request; FileErrors
	// are files one plugin could not analyze. Both name the plugin.
	PluginErrors []error
	FileErrors   []error
	// Failures are the same failures for machine-readable reports (JSON
	// and SARIF), each with its plugin and, for a file error, its file.
	Failures []report.Failure
}

// Run analyzes the inputs with every analyzer plugin of the host.
func Run(ctx context.Context, host Analyzers, inputs []Input, opt Options) *Result {
	// The suppression comments need only the sources: read them while the
	// plugins analyze instead of after (a few ms of a batch's serial tail).
	dirs := make(chan [][]*suppress.Directive, 1)
	go func() { dirs <- directives(inputs) }()
	a := host.Analyze(ctx, Request(inputs, opt))
	return merge(inputs, a, opt.Config, <-dirs)
}

// directives parses the suppression comments of every input.
func directives(inputs []Input) [][]*suppress.Directive {
	out := make([][]*suppress.Directive, len(inputs))
	for i, in := range inputs {
		out[i] = suppress.Parse(in.Path, in.Content)
	}
	return out
}

// Request builds the Analyze request for a batch of inputs.
func Request(inputs []Input, opt Options) *pluginv1.AnalyzeRequest {
	cfg := opt.Config
	if cfg == nil {
		cfg = config.Default()
	}
	req := &pluginv1.AnalyzeRequest{Target: opt.Target, Options: options.Flatten(cfg.Lint.Settings), Sizes: opt.Sizes}
	for _, in := range inputs {
		flags := opt.CompileFlags
		if opt.FileFlags != nil {
			if own := opt.FileFlags(in.Path); len(own) > 0 {
				flags = append(append([]string(nil), own...), opt.CompileFlags...) // the command line's win
			}
		}
		// The compiler searches "..." includes next to the file first; the
		// plugin runs in its own folder, so it is told where that is.
		if dir, err := filepath.Abs(filepath.Dir(in.Path)); err == nil {
			flags = append([]string{"-iquote" + dir}, flags...)
		}
		req.Files = append(req.Files, &pluginv1.SourceFile{
			Path: in.Path, Content: in.Content, PtxasReport: opt.Ptxas[in.Path], CompileFlags: flags,
		})
	}
	return req
}

// Merge turns the plugins' merged answer into the user's view: diagnostics
// of enabled checks that no directive suppresses, sorted, and one feature
// vector per kernel.
func Merge(inputs []Input, a *pluginhost.Analysis, cfg *config.File) *Result {
	return merge(inputs, a, cfg, directives(inputs))
}

// merge is Merge with the inputs' suppression directives already parsed
// (dirs[i] are those of inputs[i]).
func merge(inputs []Input, a *pluginhost.Analysis, cfg *config.File, dirs [][]*suppress.Directive) *Result {
	if cfg == nil {
		cfg = config.Default()
	}
	res := &Result{PluginErrors: a.Failures}
	for _, err := range a.Failures {
		res.Failures = append(res.Failures, failure(err, ""))
	}
	m := newMerger()
	for _, fa := range a.Files {
		res.FileErrors = append(res.FileErrors, fa.Errors...)
		for _, err := range fa.Errors {
			res.Failures = append(res.Failures, failure(err, fa.Path))
		}
		for _, d := range fa.Diagnostics {
			if cfg.Enabled(d.GetCheck()) || d.GetCheck() == "syntax" {
				res.Diagnostics = append(res.Diagnostics, convert(d.Plugin, fa.Path, d.Diagnostic))
			}
		}
		m.add(fa.Path, fa.Features)
	}
	res.Diagnostics = applySuppressions(inputs, dirs, res.Diagnostics)
	if !cfg.Enabled(suppress.Check) {
		// lint's own check, configured as the plugins' are: unusable or
		// unneeded ignore comments (in #if branches, say) can be silenced.
		res.Diagnostics = slices.DeleteFunc(res.Diagnostics, func(d report.Diagnostic) bool { return d.Check == suppress.Check })
	}
	mapEmbedded(inputs, res.Diagnostics)
	report.Sort(res.Diagnostics)
	res.Features = m.rows(inputs)
	return res
}

// failure describes a plugin's failure for the reports.
func failure(err error, file string) report.Failure {
	f := report.Failure{File: file, Message: err.Error()}
	var pe *pluginhost.PluginError
	if errors.As(err, &pe) {
		f.Plugin = pe.Plugin
	}
	return f
}

// Severity maps the contract's severity to the report's (unset reads as a
// warning, the analyzers' default).
func Severity(s pluginv1.Severity) report.Severity {
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
		Severity: Severity(d.GetSeverity()), Check: d.GetCheck(), Message: d.GetMessage(),
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

// mapEmbedded moves the findings in Python files from the virtual CUDA
// file the analyzers saw to the Python lines and columns. Their fixes are
// dropped: an edit inside a Python string literal would need the
// literal's escaping, which a CUDA fix does not know.
func mapEmbedded(inputs []Input, ds []report.Diagnostic) {
	emb := map[string]*pysource.Source{}
	for _, in := range inputs {
		if in.Embedded != nil {
			emb[in.Path] = in.Embedded
		}
	}
	if len(emb) == 0 {
		return
	}
	for i := range ds {
		d := &ds[i]
		s := emb[d.File]
		if s == nil {
			continue
		}
		d.Line, d.Column = s.Position(d.Line, d.Column)
		if d.EndLine > 0 {
			d.EndLine, d.EndColumn = s.Position(d.EndLine, d.EndColumn)
		}
		d.Fixes = nil
	}
}

// applySuppressions drops findings silenced by `cudaperf:ignore` comments
// and adds findings about malformed or unused directives.
func applySuppressions(inputs []Input, dirs [][]*suppress.Directive, ds []report.Diagnostic) []report.Diagnostic {
	byFile := map[string][]report.Diagnostic{}
	for _, d := range ds {
		byFile[d.File] = append(byFile[d.File], d)
	}
	var out []report.Diagnostic
	for i, in := range inputs {
		kept, problems := suppress.Apply(in.Path, byFile[in.Path], dirs[i])
		out = append(append(out, kept...), problems...)
		delete(byFile, in.Path)
	}
	for _, rest := range byFile { // diagnostics about files lint was not given (headers)
		out = append(out, rest...)
	}
	return out
}

// merger builds one feature vector per kernel from all plugins' features.
// The built-in analyzer's features keep their names; every other plugin's
// are "<plugin>.<name>", whatever else is installed, so a dataset's
// columns never change with the set of plugins and a third-party plugin
// never merges into (or overwrites) a built-in feature.
type merger struct {
	kernels map[string][]string                      // file → kernels in first-seen order
	perK    map[string]map[string]map[string]float64 // file → kernel → features
	perFile map[string]map[string]float64            // file → file-level features
	statK   map[string]map[string]map[string]string  // file → kernel → feature → report.Status*
	statF   map[string]map[string]string             // file → file-level feature → status
}

func newMerger() *merger {
	return &merger{kernels: map[string][]string{},
		perK: map[string]map[string]map[string]float64{}, perFile: map[string]map[string]float64{},
		statK: map[string]map[string]map[string]string{}, statF: map[string]map[string]string{}}
}

// FeatureName is the name a plugin's feature has in feature vectors.
func FeatureName(plugin, feature string) string {
	if plugin == pluginhost.BuiltinAnalyzer {
		return feature
	}
	return plugin + "." + feature
}

func (m *merger) add(file string, fs []pluginhost.Feature) {
	for _, f := range fs {
		name := FeatureName(f.Plugin, f.GetName())
		st := report.StatusExact
		switch {
		case f.GetUnknown():
			st = report.StatusUnknown
		case f.GetEstimated():
			st = report.StatusEstimated
		}
		if f.GetKernel() == "" {
			if m.perFile[file] == nil {
				m.perFile[file], m.statF[file] = map[string]float64{}, map[string]string{}
			}
			m.statF[file][name] = st
			if st != report.StatusUnknown { // unknown is not a value; leaving it out keeps it from reading as 0
				m.perFile[file][name] = f.GetValue()
			}
			continue
		}
		if m.perK[file] == nil {
			m.perK[file], m.statK[file] = map[string]map[string]float64{}, map[string]map[string]string{}
		}
		if m.perK[file][f.GetKernel()] == nil {
			m.perK[file][f.GetKernel()], m.statK[file][f.GetKernel()] = map[string]float64{}, map[string]string{}
			m.kernels[file] = append(m.kernels[file], f.GetKernel())
		}
		m.statK[file][f.GetKernel()][name] = st
		if st != report.StatusUnknown {
			m.perK[file][f.GetKernel()][name] = f.GetValue()
		}
	}
}

func (m *merger) rows(inputs []Input) []report.KernelFeatures {
	var out []report.KernelFeatures
	for _, in := range inputs {
		for _, k := range m.kernels[in.Path] {
			fs, st := map[string]float64{}, map[string]string{}
			for n, v := range m.perFile[in.Path] {
				fs[n] = v
			}
			for n, s := range m.statF[in.Path] {
				st[n] = s
			}
			for n, v := range m.perK[in.Path][k] {
				fs[n] = v
			}
			for n, s := range m.statK[in.Path][k] {
				st[n] = s
			}
			out = append(out, report.KernelFeatures{File: in.Path, Kernel: k, Features: fs, Status: st})
		}
	}
	return out
}

// Target describes a device model to analyzer plugins.
func Target(d *device.Device) *pluginv1.Device {
	return &pluginv1.Device{
		Name: d.Name, ComputeCapability: d.CC.String(), SmCount: int32(d.SMs),
		WarpSize: int32(d.WarpSize), MaxThreadsPerBlock: int32(d.MaxThreadsPerBlock), MaxThreadsPerSm: int32(d.MaxThreadsPerSM),
		MaxBlocksPerSm: int32(d.MaxBlocksPerSM), RegistersPerSm: int32(d.RegsPerSM), MaxRegistersPerThread: int32(d.MaxRegsPerThread),
		SharedMemoryPerSmBytes: int64(d.SharedPerSM), SharedMemoryPerBlockBytes: int64(d.SharedPerBlock),
		SharedMemoryPerBlockOptinBytes: int64(d.SharedPerBlockOptin), L2CacheBytes: int64(d.L2Bytes),
	}
}
