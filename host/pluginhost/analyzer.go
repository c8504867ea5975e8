package pluginhost

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/cudaperf/cudaperf/analysis/options"
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
// answers. A plugin that fails is listed in Analysis.Failures, and so is
// one whose manifest cannot be used (Broken); the others' results are
// complete.
func (h *Host) Analyze(ctx context.Context, req *pluginv1.AnalyzeRequest) *Analysis {
	a := h.AnalyzeWith(ctx, h.OfKind(sdk.KindAnalyzer), req)
	// A plugin whose manifest cannot be used has no kind, so it was not
	// asked; its findings and features are missing all the same, which
	// every caller must learn (lint, the nvcc launcher, GRPO's
	// structural score, where a ranker may need its features).
	for _, p := range h.Broken(sdk.KindAnalyzer) {
		a.Failures = append(a.Failures, p.Err())
	}
	return a
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
//
// Each plugin gets the options it declares in Describe (req.Options keys
// "<check>.<name>"), and, when it sets wants_parsed_files, every file with
// the host's parse (Parse), made once per file whatever the number of
// plugins that want it. A plugin that crashes or hangs is restarted for the
// files it had not answered (see retryAfterCrash). When two plugins declare
// the same check id, the first in Ordered order keeps it: the other's
// findings for it are dropped and Failures says so.
func (h *Host) AnalyzeWith(ctx context.Context, plugins []*Plugin, req *pluginv1.AnalyzeRequest) *Analysis {
	plugins = Ordered(plugins)
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
	parses := newParseCache(req.GetFiles())
	chunks := splitFiles(req.GetFiles(), ChunkBytes)
	errs := make([][]error, len(plugins)) // by plugin, by chunk
	var wg sync.WaitGroup
	for i, p := range plugins {
		errs[i] = make([]error, len(chunks))
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Describe is cached from the start; a plugin that cannot
			// start fails every chunk below with the same error.
			d, _ := p.DescribeAnalyzer(ctx)
			preq := PluginRequest(req, d)
			// A crash or hang of an earlier request, which each chunk below
			// gets at once: not something this batch's files did.
			stale := p.Err()
			var cwg sync.WaitGroup
			slots := make(chan struct{}, chunksInFlight())
			for c, ch := range chunks {
				cwg.Add(1)
				go func() {
					defer cwg.Done()
					slots <- struct{}{}
					resp, err := p.Analyze(ctx, parses.request(ctx, preq, ch, d.GetWantsParsedFiles()))
					<-slots
					mu.Lock()
					defer mu.Unlock()
					progress(ch.end - ch.start)
					if err != nil {
						errs[i][c] = err
						return
					}
					a.record(p, ch.start, resp)
				}()
			}
			cwg.Wait()
			if crashed(errs[i]) {
				h.retryAfterCrash(ctx, p, preq, d.GetWantsParsedFiles(), parses, chunks, errs[i], stale, a, &mu)
			}
		}()
	}
	wg.Wait()
	for i := range plugins {
		if err := firstFailure(errs[i], chunks, len(req.GetFiles())); err != nil {
			a.Failures = append(a.Failures, err)
		}
	}
	a.Failures = append(a.Failures, dropDuplicateChecks(ctx, plugins, a)...)
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

// record adds a plugin's answer for the files from start on; the caller
// holds the lock.
func (a *Analysis) record(p *Plugin, start int, resp *pluginv1.AnalyzeResponse) {
	version := p.Version() // known once the plugin has started
	for j, fr := range resp.GetFiles() {
		fa := a.Files[start+j]
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

// BuiltinAnalyzer is the name of cudaperf's own analyzer plugin: its
// features keep their plain names, and it comes first in Ordered.
const BuiltinAnalyzer = "cudaperf-analyzer"

// Ordered returns plugins with the built-in analyzer first and the others
// by name: the order in which check ids are claimed.
func Ordered(plugins []*Plugin) []*Plugin {
	out := slices.Clone(plugins)
	slices.SortStableFunc(out, func(x, y *Plugin) int {
		return cmp.Or(-cmp.Compare(boolInt(x.name == BuiltinAnalyzer), boolInt(y.name == BuiltinAnalyzer)), cmp.Compare(x.name, y.name))
	})
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dropDuplicateChecks enforces one owner per check id: the first plugin
// (in Ordered order) that declares an id keeps it; a later one's findings
// under that id are dropped and reported as an error naming both.
func dropDuplicateChecks(ctx context.Context, plugins []*Plugin, a *Analysis) []error {
	owner := map[string]string{}
	dropped := map[[2]string]bool{} // plugin, check
	var errs []error
	for _, p := range plugins {
		d, err := p.DescribeAnalyzer(ctx)
		if err != nil {
			continue
		}
		for _, c := range d.GetChecks() {
			id := c.GetId()
			if o, ok := owner[id]; ok && o != p.name {
				dropped[[2]string{p.name, id}] = true
				errs = append(errs, &PluginError{Plugin: p.name, Kind: string(p.Kind()), Manifest: p.manifestPath, Op: "Describe",
					Err:  fmt.Errorf("check id %q is already declared by plugin %q; this plugin's findings for %s are dropped", id, o, id),
					Hint: fmt.Sprintf("rename the check in one of the plugins, or disable one of them (--no-plugins %s)", p.name)})
				continue
			}
			owner[id] = p.name
		}
	}
	if len(dropped) == 0 {
		return nil
	}
	for _, fa := range a.Files {
		fa.Diagnostics = slices.DeleteFunc(fa.Diagnostics, func(d Diagnostic) bool { return dropped[[2]string{d.Plugin, d.GetCheck()}] })
	}
	return errs
}

// PluginRequest is req as plugin d receives it: exactly the options it
// declares (keys "<check>.<name>", see OptionKey), each with the value
// req.Options gives it or else its declared default. The values were
// checked against the declared types before (package options).
func PluginRequest(req *pluginv1.AnalyzeRequest, d *pluginv1.DescribeAnalyzerResponse) *pluginv1.AnalyzeRequest {
	out := chunkRequest(req, span{0, len(req.GetFiles())}) // every field, in one place
	out.Options = nil
	if len(d.GetOptions()) == 0 {
		return out
	}
	out.Options = map[string]string{}
	for _, o := range d.GetOptions() {
		k := OptionKey(d, o)
		v, ok := req.GetOptions()[k]
		if !ok {
			v = o.GetDefaultValue()
		}
		out.Options[k] = v
	}
	return out
}

// OptionKey is the key of option o in AnalyzeRequest.options and the
// lint.settings path it is set at: "<check>.<name>", where an option
// without a check belongs to its plugin's name.
func OptionKey(d *pluginv1.DescribeAnalyzerResponse, o *pluginv1.OptionInfo) string {
	return optionCheck(d, o) + "." + o.GetName()
}

func optionCheck(d *pluginv1.DescribeAnalyzerResponse, o *pluginv1.OptionInfo) string {
	if c := o.GetCheck(); c != "" {
		return c
	}
	return d.GetPlugin().GetName()
}

// DeclaredOptions converts the options an analyzer declares in Describe
// into the host's declarations (package options), which lint.settings are
// validated against.
func DeclaredOptions(d *pluginv1.DescribeAnalyzerResponse) []options.Decl {
	var out []options.Decl
	for _, o := range d.GetOptions() {
		out = append(out, options.Decl{Plugin: d.GetPlugin().GetName(), Check: optionCheck(d, o),
			Def: options.Def{Name: o.GetName(), Type: options.Type(o.GetType()), Default: o.GetDefaultValue(), Doc: o.GetDoc(),
				Min: o.GetMin(), Max: o.GetMax()}})
	}
	return out
}

// MaxRestarts bounds how often one Analyze restarts a plugin that keeps
// crashing: finding one killing file inside a chunk costs three.
const MaxRestarts = 5

// maxHangs bounds the hung requests one Analyze retries after: each cost
// the request timeout. Two find one hanging file (its chunk, then the file
// alone); a second such file keeps its chunk's error.
const maxHangs = 2

// crashed reports whether some chunk failed because the plugin died or
// hung (and was stopped).
func crashed(errs []error) bool {
	return slices.ContainsFunc(errs, isCrash)
}

// isCrash reports whether err is a request the plugin did not survive: it
// died, or it hung and was stopped. A restart brings it back.
func isCrash(err error) bool {
	var pe *PluginError
	return errors.As(err, &pe) && (pe.Crash || pe.Hang)
}

func isHang(err error) bool {
	var pe *PluginError
	return errors.As(err, &pe) && pe.Hang
}

// retryAfterCrash restarts a plugin that died (or hung and was stopped:
// in lease 7 the analyzer held a GRPO step on some candidate for two whole
// device calls) in the middle of a batch and sends it again the chunks it
// had not answered. A chunk that kills
// it again is split into single files; a single file that kills it is
// named in that file's errors ("the plugin died analyzing this file") and
// the plugin restarted for the rest. After MaxRestarts the remaining
// chunks keep their errors. When no request succeeds after a restart, the
// plugin is broken rather than some file: the chunks keep the crash as
// the plugin's failure and no file is blamed. A batch of one file that
// hung is not sent again. stale is the plugin's failure from before the
// batch, which its requests got at once. errs (by chunk) is updated:
// nil for a chunk answered in full (a killing file aside), so firstFailure
// reports only what is missing.
func (h *Host) retryAfterCrash(ctx context.Context, p *Plugin, req *pluginv1.AnalyzeRequest, wantsParsed bool, parses *parseCache,
	chunks []span, errs []error, stale error, a *Analysis, mu *sync.Mutex) {
	type item struct {
		chunk int
		sp    span
	}
	var queue []item
	for c, err := range errs {
		switch {
		case isHang(err) && err != stale && len(chunks) == 1 && chunks[0].end-chunks[0].start == 1:
			// A batch of one file, which the plugin hung on: sent again,
			// it would cost another timeout to learn nothing (the plugin
			// or the file: one request cannot tell). The nvcc launcher
			// lints one file per compile. (A hang of an earlier batch,
			// stale, is retried: the plugin is restarted for this file.)
		case isHang(err):
			// Sent whole again, a hanging chunk would cost another
			// timeout before it is split: its files go one by one.
			for f := chunks[c].start; f < chunks[c].end; f++ {
				queue = append(queue, item{c, span{f, f + 1}})
			}
		case isCrash(err):
			queue = append(queue, item{c, chunks[c]})
		}
	}
	restarts, answered, hangs := 0, 0, 0
	if slices.ContainsFunc(errs, isHang) {
		// One hang, whatever the chunks that failed with it: the chunks
		// in flight or sent after it got the stopped plugin's error.
		hangs = 1
	}
	type blame struct {
		file int
		err  error
	}
	var killers []blame
	missing := map[int]int{} // chunk → files still without results
	for _, it := range queue {
		missing[it.chunk] = chunks[it.chunk].end - chunks[it.chunk].start
	}
	for len(queue) > 0 && ctx.Err() == nil && hangs <= maxHangs {
		if p.Pid() == 0 {
			if restarts == MaxRestarts {
				break
			}
			restarts++
			if err := p.Restart(ctx); err != nil {
				break
			}
			h.log.Warn("plugin restarted after a crash or a hang", "plugin", p.name, "restart", restarts)
		}
		it := queue[0]
		queue = queue[1:]
		resp, err := p.Analyze(ctx, parses.request(ctx, req, it.sp, wantsParsed))
		if isHang(err) {
			hangs++
		}
		switch {
		case err == nil:
			mu.Lock()
			a.record(p, it.sp.start, resp)
			mu.Unlock()
			answered++
			missing[it.chunk] -= it.sp.end - it.sp.start
		case !isCrash(err):
			errs[it.chunk] = err
		case it.sp.end-it.sp.start > 1:
			var split []item
			for f := it.sp.start; f < it.sp.end; f++ {
				split = append(split, item{it.chunk, span{f, f + 1}})
			}
			queue = append(split, queue...)
		default:
			killers = append(killers, blame{it.sp.start, err})
			missing[it.chunk]--
		}
	}
	if answered == 0 {
		return
	}
	mu.Lock()
	for _, k := range killers {
		// This file kills the plugin: it is the one result lost.
		fa := a.Files[k.file]
		what := "died"
		if isHang(k.err) {
			what = "hung"
		}
		fa.Errors = append(fa.Errors, &PluginError{Plugin: p.name, Kind: string(p.Kind()), Manifest: p.manifestPath,
			Op: "Analyze " + fa.Path, Err: fmt.Errorf("the plugin %s analyzing this file (%v); it was restarted for the other files", what, errors.Unwrap(k.err)),
			Hint: "this is a bug in the plugin: report it with this file, or exclude the file", Stderr: stderrOf(k.err)})
	}
	mu.Unlock()
	for c, n := range missing {
		if n == 0 && isCrash(errs[c]) {
			errs[c] = nil
		}
	}
}

func stderrOf(err error) string {
	var pe *PluginError
	if errors.As(err, &pe) {
		return pe.Stderr
	}
	return ""
}

// parseCache parses each file of a batch at most once, when a plugin
// that wants parsed files first asks for it.
type parseCache struct {
	files []*pluginv1.SourceFile
	once  []sync.Once
	out   []*pluginv1.SourceFile
}

func newParseCache(files []*pluginv1.SourceFile) *parseCache {
	return &parseCache{files: files, once: make([]sync.Once, len(files)), out: make([]*pluginv1.SourceFile, len(files))}
}

// request is the chunk's request; with parsed, its files carry their
// parse (a file that cannot be parsed, which only a cancelled context
// causes, goes without, and the plugin's SDK says so).
func (c *parseCache) request(ctx context.Context, req *pluginv1.AnalyzeRequest, ch span, parsed bool) *pluginv1.AnalyzeRequest {
	r := chunkRequest(req, ch)
	if !parsed {
		return r
	}
	r.Files = make([]*pluginv1.SourceFile, 0, ch.end-ch.start)
	for i := ch.start; i < ch.end; i++ {
		c.once[i].Do(func() {
			f := c.files[i]
			cp := proto.CloneOf(f) // every field; copying the content costs little next to the parse
			if pf, err := Parse(ctx, f.GetPath(), f.GetContent()); err == nil {
				cp.Parsed = pf
			}
			c.out[i] = cp
		})
		r.Files = append(r.Files, c.out[i])
	}
	return r
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
