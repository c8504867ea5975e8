// Package sdktest tests an analyzer plugin against testdata files, as
// golang.org/x/tools/go/analysis/analysistest tests an analyzer:
//
//	func TestPlugin(t *testing.T) {
//		sdktest.Run(t, "testdata", plugin)
//	}
//
// Every .cu and .cuh file of the folder is sent to the plugin's Analyze
// in-process, with what the host would send: the file's parse when
// Describe sets wants_parsed_files (the host's own parser and kernel
// discovery), and every declared option at its default unless RunOptions
// sets it. The results are checked against the files' `// want` comments:
//
//	__syncthreads();          // want "inside an if"
//	__global__ void k(...) {  // want kernel=k syncthreads:"2" shared_decls:"1"
//
// A quoted regular expression expects a diagnostic on that line;
// kernel=NAME name:"value" expects the plugin's feature name (its own
// name, without the "<plugin>." prefix users see) for that kernel, with a
// tolerance of 1e-3 ("value±tol" sets one, "none" expects no value). Every
// diagnostic must be expected; only the features named are checked. The
// syntax is analysistest's (package analysis/analysistest), so built-in
// passes and plugins are tested alike.
//
// Run also checks the plugin's hygiene: every check id and feature it
// reports is declared in Describe, and no file gets an error.
package sdktest

import (
	"context"
	"os"
	"sort"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/driver"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// Testing is the part of *testing.T that Run uses.
type Testing interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Run runs plugin on the .cu and .cuh files of dir with the options'
// defaults and checks their want comments. It returns the plugin's answer.
func Run(t Testing, dir string, plugin pluginv1.AnalyzerServiceServer) *pluginv1.AnalyzeResponse {
	t.Helper()
	return RunOptions(t, dir, plugin, nil)
}

// RunOptions is Run with options set as lint.settings would set them:
// keys "<check>.<name>".
func RunOptions(t Testing, dir string, plugin pluginv1.AnalyzerServiceServer, options map[string]string) *pluginv1.AnalyzeResponse {
	t.Helper()
	ctx := context.Background()
	d, err := plugin.Describe(ctx, &pluginv1.DescribeAnalyzerRequest{})
	if err != nil {
		t.Fatalf("sdktest: Describe: %v", err)
	}
	declared := map[string]bool{}
	for _, o := range d.GetOptions() {
		declared[pluginhost.OptionKey(d, o)] = true
	}
	for k := range options {
		if !declared[k] {
			t.Fatalf("sdktest: option %s is not declared in Describe (declared: %s)", k, strings.Join(sortedKeys(declared), ", "))
		}
	}
	paths, err := analysistest.Sources(dir)
	if err != nil {
		t.Fatalf("sdktest: %v", err)
	}
	req := &pluginv1.AnalyzeRequest{Options: options}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("sdktest: %v", err)
		}
		sf := &pluginv1.SourceFile{Path: p, Content: src}
		if d.GetWantsParsedFiles() {
			if sf.Parsed, err = pluginhost.Parse(ctx, p, src); err != nil {
				t.Fatalf("sdktest: %v", err)
			}
		}
		req.Files = append(req.Files, sf)
	}
	resp, err := plugin.Analyze(ctx, pluginhost.PluginRequest(req, d))
	if err != nil {
		t.Fatalf("sdktest: Analyze: %v", err)
	}
	if len(resp.GetFiles()) != len(req.Files) {
		t.Fatalf("sdktest: Analyze answered %d files for %d (one FileResult per file, in order)", len(resp.GetFiles()), len(req.Files))
	}
	checks, features := map[string]bool{}, map[string]bool{}
	for _, c := range d.GetChecks() {
		checks[c.GetId()] = true
	}
	for _, f := range d.GetFeatures() {
		features[f.GetName()] = true
	}
	for i, fr := range resp.GetFiles() {
		path := req.Files[i].GetPath()
		if fr.GetError() != "" {
			t.Errorf("%s: the plugin failed on this file: %s", path, fr.GetError())
			continue
		}
		exp, errs := analysistest.Expectations(path, req.Files[i].GetContent())
		for _, e := range errs {
			t.Errorf("%v", e)
		}
		for _, dg := range fr.GetDiagnostics() {
			if !checks[dg.GetCheck()] {
				t.Errorf("%s: diagnostic with undeclared check %q (declare it in Describe's checks)", path, dg.GetCheck())
			}
		}
		for _, f := range fr.GetFeatures() {
			if !features[f.GetName()] {
				t.Errorf("%s: undeclared feature %q (declare it in Describe's features)", path, f.GetName())
			}
		}
		analysistest.Check(t, path, toDriver(path, fr), exp)
	}
	return resp
}

// toDriver converts a plugin's answer to the driver's form that
// analysistest checks. Unknown feature values are left out, as the host
// leaves them out of feature vectors.
func toDriver(path string, fr *pluginv1.FileResult) *driver.FileResult {
	out := &driver.FileResult{Path: path}
	for _, d := range fr.GetDiagnostics() {
		r := d.GetRange()
		out.Diagnostics = append(out.Diagnostics, analysis.Diagnostic{Check: d.GetCheck(), Message: d.GetMessage(), Kernel: d.GetKernel(),
			Range: analysis.Range{StartByte: uint32(r.GetStartByte()), EndByte: uint32(r.GetEndByte()), StartLine: int(r.GetStartLine()),
				StartCol: int(r.GetStartColumn()), EndLine: int(r.GetEndLine()), EndCol: int(r.GetEndColumn())}})
	}
	for _, f := range fr.GetFeatures() {
		if !f.GetUnknown() {
			out.Features = append(out.Features, analysis.Feature{Name: f.GetName(), Kernel: f.GetKernel(), Value: f.GetValue(), Unit: f.GetUnit()})
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
