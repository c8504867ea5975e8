package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/analysis/options"
	"github.com/cudaperf/cudaperf/host/buildctx"
	"github.com/cudaperf/cudaperf/host/config"
	"github.com/cudaperf/cudaperf/host/gitdiff"
	"github.com/cudaperf/cudaperf/host/lint"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/report"
	"github.com/cudaperf/cudaperf/host/suppress"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// paperFeatures is the CudaPerf paper's feature vector, in its order; CSV
// columns start with these.
var paperFeatures = []string{"coal", "ai", "occ", "div", "xfer", "atomics", "sync", "kernels", "tpb", "gmem", "ops"}

const configHelp = `Configuration (.cudaperf.yaml, found by walking up from the working directory, or --config):

   version: 1
   lint:
     enable: [all]                # or a list of check ids
     disable: [gridsize]          # checks to turn off (cudaperf explain lists them)
     fail-on: error               # error | warning | note | never
     exclude: ["third_party"]     # globs relative to the file; a folder's files are all left out
     settings:                    # per-check options; ` + "`cudaperf plugins describe NAME`" + ` lists them
       coalescing: {min-ratio: 4}
   plugins:                       # which plugins to use (also --plugins, --no-plugins)
     disable: [synccount-py]

Suppress one finding with a reason:   x = a[i*s];  // cudaperf:ignore coalescing s is 1 here`

func analysisFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Usage: "read `FILE` instead of the nearest .cudaperf.yaml"},
		&cli.StringFlag{Name: "arch", Usage: "analyze for `ARCH` (e.g. sm_80, sm_90); default: the local GPU via NVML, else sm_90 (H200)"},
		&cli.StringSliceFlag{Name: "define", Aliases: []string{"D"}, Usage: "define `NAME[=VALUE]` as the build does (-D WARP_SIZE=32): it decides #if branches and macro values"},
		&cli.StringSliceFlag{Name: "include", Aliases: []string{"I"}, Usage: "read the #defines of included headers from `DIR` too, as the compiler's -I"},
		&cli.StringFlag{Name: "compile-commands", Usage: "take each file's -D/-I from the compilation database `FILE`; default: the nearest compile_commands.json in a parent folder of the first input (or in its build/), as clang-tidy finds it; \"none\" turns it off"},
		pluginsFlag(), noPluginsFlag(),
	}
}

// buildFlags gathers the preprocessor context of a lint: -D and -I from the
// command line, and each file's entry of the compilation database.
func buildFlags(c *cli.Context, args []string) (common []string, perFile func(string) []string, err error) {
	for _, d := range c.StringSlice("define") {
		common = append(common, "-D"+d)
	}
	for _, i := range c.StringSlice("include") {
		if abs, err := filepath.Abs(i); err == nil {
			i = abs
		}
		common = append(common, "-I"+i)
	}
	path := c.String("compile-commands")
	if path == "none" {
		return common, nil, nil
	}
	if path == "" {
		start := "."
		if len(args) > 0 {
			start = args[0]
			if st, err := os.Stat(start); err == nil && !st.IsDir() {
				start = filepath.Dir(start)
			}
		}
		path = buildctx.Find(start)
		if path == "" {
			return common, nil, nil
		}
	}
	db, err := buildctx.Load(path)
	if err != nil {
		return nil, nil, usageErrorf("--compile-commands: %v; fix the file or pass --compile-commands none", err)
	}
	return common, db.Flags, nil
}

func lintCommand() *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "report performance problems in CUDA source",
		ArgsUsage: "[FILE|DIR]...",
		Description: "Runs every analyzer plugin (the built-in passes and any installed third-party\n" +
			"analyzer) over the files and folders given (default: the current folder) and\n" +
			"prints one line per finding, as GCC does:\n\n" +
			"   kernels/transpose.cu:12:5: warning: global store ... [coalescing]\n\n" +
			"then, in text format, each file's structural score from the built-in ranker\n" +
			"with the ranker's held-out ρ (how much to trust it; --no-score leaves it out):\n\n" +
			"   kernels/transpose.cu:1:1: note: structural score +0.42 (ranker test ρ ...) [score]\n\n" +
			"Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 for bad\n" +
			"arguments or configuration, 3 when a plugin failed. Machine formats (json,\n" +
			"sarif, checkstyle) exit 0 on findings unless --fail-on or the config's fail-on\n" +
			"is given.\n" +
			"`cudaperf explain CHECK` prints what a check means and how to fix it.\n\n" + configHelp,
		Flags: append(analysisFlags(),
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text, json, sarif or checkstyle"},
			&cli.StringFlag{Name: "fail-on", Usage: "exit 1 when a finding of `SEVERITY` or worse is reported: error, warning, note or never (default: the config's, else error)"},
			&cli.StringFlag{Name: "new-from-rev", Usage: "report only findings on lines added or changed since git revision `REV` (e.g. main, HEAD~1), and in files git does not track: adopt the linter on an old code base one change at a time"},
			&cli.BoolFlag{Name: "ptxas", Usage: "compile each file with nvcc -Xptxas -v (about a second a file, cached) so occupancy and spills use real register counts instead of an estimate"},
			&cli.BoolFlag{Name: "no-score", Usage: "do not print each file's structural score (text format; see cudaperf rank --help)"},
		),
		Action: runLint,
	}
}

func featuresCommand() *cli.Command {
	return &cli.Command{
		Name:      "features",
		Usage:     "print the structural feature vector of every kernel",
		ArgsUsage: "[FILE|DIR]...",
		Description: "Prints one row per kernel with every feature the analyzer plugins compute: the\n" +
			"CudaPerf paper's vector (coal, ai, occ, div, xfer, atomics, sync, kernels, tpb,\n" +
			"gmem, ops) and the built-in extras (bank conflicts, vectorized access, ...).\n" +
			"File-level features (xfer, kernels) repeat on each kernel of the file. A value\n" +
			"the analysis could not determine is left out, never guessed: the JSON's \"status\"\n" +
			"says for every feature whether it is exact, estimated or unknown, and the CSV\n" +
			"leaves unknown cells empty.\n\n" +
			"Problem-size-aware features (blocks, threads, launches, bytes and FLOPs per call,\n" +
			"DRAM traffic, time lower bounds) need a size: --set n=33554432 binds a host\n" +
			"function's parameter; --task T binds a c2cuda task's primary configuration (or\n" +
			"--task-config NAME) and analyzes its variants when no file is named:\n\n" +
			"   cudaperf features --task conv1d --format csv\n" +
			"   cudaperf features --set n=1048576 --set k=15 kernels/conv1d.cu\n\n" +
			"When nvcc is found, each file is compiled once with -Xptxas -v (bench's compile\n" +
			"cache) so occ, occ_blocks and spills use ptxas's registers (status exact); without\n" +
			"it they are estimated from the source (status estimated).\n\n" +
			"`cudaperf explain FEATURE` documents a feature's unit, range and formula.",
		Flags: append(append(analysisFlags(), sizeFlags()...),
			&cli.StringFlag{Name: "format", Value: "json", Usage: "output `FORMAT`: json or csv"},
			&cli.StringFlag{Name: "ptxas", Value: "auto", Usage: "`WHEN` to compile each file with nvcc -Xptxas -v for real registers, shared memory and spills: auto (when nvcc is found; bench's compile cache), always, never (registers estimated)"},
		),
		Action: runFeatures,
	}
}

func explainCommand() *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "explain a check or a feature",
		ArgsUsage: "CHECK|FEATURE",
		Description: "Prints the documentation of a check (what it finds, why it matters, a bad and\n" +
			"a good example) or of a feature (definition, unit, range), as the analyzer\n" +
			"plugin that provides it describes it. Without an argument, lists them all.",
		Action: runExplain,
	}
}

// analysisSession is what lint, features and the launcher share: the
// configuration, the target device and the started analyzer plugins.
type analysisSession struct {
	cfg *config.File
	// target is the device to analyze for. Without --arch it waits for the
	// NVML probe, which runs while the plugins start and the inputs are
	// read: on an H200 machine the probe alone took 21 ms of a 40 ms cold
	// lint (bench/perf/lint.md).
	target func() *pluginv1.Device
	host   *pluginhost.Host
	// flags are the -D/-I of the command line; fileFlags a file's own
	// (its compile_commands.json entry), nil without a database.
	flags     []string
	fileFlags func(string) []string
	// sizes are the problem-size bindings (features --set/--task).
	sizes map[string]int64
	// setNames are the names the user bound with --set, which analyze
	// checks the files for (a misspelled name would bind nothing, silently).
	setNames []string
	// ptxas asks for nvcc's ptxas report of every input: "" never,
	// "auto" when nvcc is found, "always" (an error without nvcc).
	ptxas string
}

func loadConfig(explicit, searchFrom string) (*config.File, error) {
	path := explicit
	if path == "" {
		path = config.Find(searchFrom)
	}
	if path == "" {
		return config.Default(), nil
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return cfg, nil
}

// targetDevice picks the device to analyze for: --arch, else the local GPU,
// else the H200 table entry.
func targetDevice(arch string) (*pluginv1.Device, error) {
	if arch != "" {
		d, err := device.ForArch(arch)
		if err != nil {
			return nil, usageErrorf("--arch %q: %v", arch, err)
		}
		// --arch sm_90 is the default's architecture: analyze for the
		// default device itself (the H200 the help names), so findings
		// name the same GPU with or without the flag.
		if def := device.Default(); def.Major == d.Major && def.Minor == d.Minor {
			d = def
		}
		return lint.Target(d), nil
	}
	if d, err := device.Detect(0); err == nil {
		return lint.Target(d), nil
	}
	return lint.Target(device.Default()), nil
}

func openAnalysis(c *cli.Context) (*analysisSession, error) {
	cfg, err := loadConfig(c.String("config"), ".")
	if err != nil {
		return nil, err
	}
	flags, fileFlags, err := buildFlags(c, c.Args().Slice())
	if err != nil {
		return nil, err
	}
	var target func() *pluginv1.Device
	if arch := c.String("arch"); arch != "" {
		t, err := targetDevice(arch) // a bad --arch is an error before anything starts
		if err != nil {
			return nil, err
		}
		target = func() *pluginv1.Device { return t }
	} else {
		probe := make(chan *pluginv1.Device, 1)
		go func() {
			t, _ := targetDevice("") // cannot fail without --arch
			probe <- t
		}()
		target = sync.OnceValue(func() *pluginv1.Device { return <-probe })
	}
	h, err := openHost(c)
	if err != nil {
		return nil, err
	}
	s := &analysisSession{cfg: cfg, target: target, host: h, flags: flags, fileFlags: fileFlags}
	if err := s.ready(c); err != nil {
		h.Close()
		return nil, err
	}
	return s, nil
}

// ready checks that analyzers exist and that the configuration names only
// checks they know.
func (s *analysisSession) ready(c *cli.Context) error {
	analyzers := s.host.OfKind(sdk.KindAnalyzer)
	if len(analyzers) == 0 {
		if off := s.host.LeftOutOfKind(sdk.KindAnalyzer); len(off) > 0 {
			return usageErrorf("every analyzer plugin (%s) is left out by --plugins/--no-plugins or plugins: in .cudaperf.yaml; choose at least one", strings.Join(off, ", "))
		}
		if broken := brokenAnalyzers(s.host); len(broken) > 0 {
			return failuref("no usable analyzer plugin: %v", errors.Join(broken...))
		}
		return failuref("no analyzer plugins found: build them with `make build`, or point --plugin-dir or $%s at them", pluginhost.PathEnv)
	}
	if err := checkConfig(c.Context, analyzers, s.cfg, s.host.LeftOutOfKind(sdk.KindAnalyzer)); err != nil {
		return usageErrorf("%v", err)
	}
	return nil
}

// checkConfig checks that the configuration names only checks the
// analyzers (or lint itself: suppression) know, and options they declare
// with values they accept. Shared by lint, features and the nvcc launcher.
//
// An analyzer that cannot be asked (it does not start) is not a
// configuration mistake: the analysis reports it as that plugin's failure,
// and the others' results still count. The names are then not checked,
// since one the configuration uses may be that analyzer's (it had ended the
// whole run with no result from any analyzer), but the values of the
// options the other analyzers declare still are.
//
// The settings of declared options are then rewritten in their canonical
// form (options.Canonicalize), which every plugin SDK reads.
//
// leftOut names the analyzers --plugins/--no-plugins left out: a check or
// setting that only one of them knows is still an error (a typo must not
// pass), whose message names them and the fix.
func checkConfig(ctx context.Context, analyzers []*pluginhost.Plugin, cfg *config.File, leftOut []string) error {
	if len(cfg.Lint.Enable)+len(cfg.Lint.Disable)+len(cfg.Lint.Settings) == 1 && cfg.Lint.Enable[0] == "all" {
		return nil // nothing to validate: skip the Describe round trips
	}
	known := []string{suppress.Check}
	var decls []options.Decl
	asked := true
	for _, p := range analyzers {
		d, err := p.DescribeAnalyzer(ctx)
		if err != nil {
			asked = false
			continue
		}
		for _, ch := range d.GetChecks() {
			known = append(known, ch.GetId())
		}
		decls = append(decls, pluginhost.DeclaredOptions(d)...)
	}
	defer options.Canonicalize(decls, cfg.Lint.Settings)
	where := cfg.Path
	if where == "" {
		where = "defaults"
	}
	if !asked {
		// The names may be the silent analyzer's; the values of the
		// checks that answered can still be checked.
		answered := map[string]map[string]string{}
		for _, d := range decls {
			if v, ok := cfg.Lint.Settings[d.Check]; ok {
				answered[d.Check] = v
			}
		}
		return options.Validate(decls, answered, where)
	}
	var owners []string
	for _, d := range decls {
		owners = append(owners, d.Check) // a check, or a plugin for its check-less options
	}
	if err := cfg.Validate(known, owners...); err != nil {
		// A name no analyzer in use knows: perhaps a left-out plugin's.
		// (Only here: a bad value of a check in use is not about that.)
		if len(leftOut) == 0 {
			return err
		}
		return fmt.Errorf("%w; if it belongs to %s, left out by --plugins/--no-plugins or plugins: in the configuration, remove it while that plugin is left out", err, strings.Join(leftOut, ", "))
	}
	return options.Validate(decls, cfg.Lint.Settings, where)
}

// analyze collects the inputs and runs the analyzers. Input errors are
// printed and returned so the caller can set the exit code after printing
// everything else. A nil result (with an error) means that nothing was
// analysed: ptxas was asked for and could not run.
func (s *analysisSession) analyze(c *cli.Context, args []string) (*lint.Result, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	// Start the plugins (about 15 ms: exec, handshake) while the inputs are
	// read; a start failure is reported by the analysis itself.
	started := make(chan struct{})
	go func() {
		if as := s.host.OfKind(sdk.KindAnalyzer); len(as) > 0 { // none: Start would start every plugin
			s.host.Start(c.Context, as...)
		}
		close(started)
	}()
	inputs, inErrs := lint.Collect(args, s.cfg)
	for _, name := range unusedSets(s.setNames, inputs) {
		fmt.Fprintf(c.App.ErrWriter, "cudaperf: warning: --set %s: no file analysed has a name %s, so it binds nothing; --set names a host function's parameter (e.g. n of vector_add(a, b, c, n))\n", name, name)
	}
	var reports map[string]string
	if s.ptxas != "" {
		arch := s.arch()
		if arch == "" {
			arch = "sm_90"
		}
		var err error
		if reports, err = ptxasReports(c.Context, inputs, arch, s.ptxas == "always", c.App.ErrWriter); err != nil {
			<-started
			return nil, err
		}
	}
	<-started
	// A bar on a terminal's stderr while the plugins work (a large tree
	// takes seconds); cleared before the report is printed.
	bar := newBar(len(inputs)*len(s.host.OfKind(sdk.KindAnalyzer)), c.Command.Name, true)
	ctx := pluginhost.WithAnalyzeProgress(c.Context, bar.addN)
	res := lint.Run(ctx, s.host, inputs, lint.Options{Config: s.cfg, Target: s.target(), CompileFlags: s.flags, FileFlags: s.fileFlags, Sizes: s.sizes, Ptxas: reports})
	bar.finish()
	var problems error
	for _, e := range inErrs {
		fmt.Fprintf(c.App.ErrWriter, "cudaperf: %v\n", e)
	}
	for _, e := range append(res.PluginErrors, res.FileErrors...) {
		fmt.Fprintf(c.App.ErrWriter, "cudaperf: %v\n", e)
	}
	switch {
	case len(res.PluginErrors)+len(res.FileErrors) > 0:
		problems = failuref("%d plugin failure(s); the results above are incomplete", len(res.PluginErrors)+len(res.FileErrors))
	case len(inErrs) > 0:
		problems = usageErrorf("%d input(s) could not be read (see above)", len(inErrs))
	}
	return res, problems
}

func runLint(c *cli.Context) error {
	format := c.String("format")
	if !slices.Contains([]string{"text", "json", "sarif", "checkstyle"}, format) {
		return usageErrorf("--format %q: use text, json, sarif or checkstyle", format)
	}
	s, err := openAnalysis(c)
	if err != nil {
		return err
	}
	defer s.host.Close()
	if c.Bool("ptxas") {
		s.ptxas = "always"
	}
	failOn := c.String("fail-on")
	if failOn == "" {
		failOn = s.cfg.Lint.FailOn
		if format != "text" && !s.cfg.Lint.FailOnSet {
			// Machine formats report; they fail a pipeline only when asked
			// (--fail-on, or fail-on in the config: an explicit error was
			// read as the default, so error passed where warning failed).
			failOn = "never"
		}
	}
	threshold, ok := report.ParseSeverity(failOn)
	if !ok && failOn != "never" {
		return usageErrorf("--fail-on %q: use error, warning, note or never", failOn)
	}
	var fresh *gitdiff.Lines
	if rev := c.String("new-from-rev"); rev != "" {
		if fresh, err = gitdiff.Since(".", rev); err != nil {
			return usageErrorf("--new-from-rev: %v", err)
		}
	}
	res, problems := s.analyze(c, c.Args().Slice())
	if res == nil { // nothing analysed (ptxas could not run): nothing to print
		return problems
	}
	if fresh != nil {
		res.Diagnostics = newOnly(res.Diagnostics, fresh)
	}
	w := c.App.Writer
	switch format {
	case "text":
		err = report.WriteText(w, res.Diagnostics)
		if err == nil && !c.Bool("no-score") {
			printLintScores(c, s, res.Features)
		}
	case "json":
		err = report.WriteJSON(w, res.Diagnostics, res.Failures)
	case "checkstyle":
		err = report.WriteCheckstyle(w, res.Diagnostics)
	case "sarif":
		rules, rerr := s.rules(c)
		if rerr != nil {
			return rerr
		}
		err = report.WriteSARIF(w, res.Diagnostics, report.SARIFOptions{ToolVersion: version, Rules: rules, Failures: res.Failures})
	}
	if err != nil {
		return failuref("write results: %v", err)
	}
	if problems != nil {
		return problems
	}
	if failOn == "never" {
		return nil
	}
	n := 0
	for _, d := range res.Diagnostics {
		if d.Severity.Rank() >= threshold.Rank() {
			n++
		}
	}
	if n > 0 {
		return findings("%d finding(s) at or above %s", n, threshold)
	}
	return nil
}

// newOnly keeps the findings on new lines. A file that could not be read
// or analyzed ("input", "internal") is always reported: a failure is not
// old code.
func newOnly(ds []report.Diagnostic, fresh *gitdiff.Lines) []report.Diagnostic {
	out := ds[:0]
	for _, d := range ds {
		if d.Check == "input" || d.Check == "internal" || fresh.New(d.File, d.Line) {
			out = append(out, d)
		}
	}
	return out
}

// rules gathers every check the analyzers describe, for SARIF's rule table.
func (s *analysisSession) rules(c *cli.Context) ([]report.Rule, error) {
	var rules []report.Rule
	for _, p := range s.host.OfKind(sdk.KindAnalyzer) {
		d, err := p.DescribeAnalyzer(c.Context)
		if err != nil {
			fmt.Fprintf(c.App.ErrWriter, "cudaperf: %v\n", err)
			continue
		}
		for _, ch := range d.GetChecks() {
			title := ch.GetTitle()
			if title == "" {
				title = firstLine(ch.GetDoc())
			}
			rules = append(rules, report.Rule{ID: ch.GetId(), Title: title, Doc: ch.GetDoc(), URL: ch.GetUrl(), Severity: lint.Severity(ch.GetDefaultSeverity())})
		}
	}
	return rules, nil
}

func runFeatures(c *cli.Context) error {
	format := c.String("format")
	if format != "json" && format != "csv" {
		return usageErrorf("--format %q: use json or csv", format)
	}
	files, sizes, err := taskSizes(c)
	if err != nil {
		return err
	}
	if c.NArg() > 0 {
		files = c.Args().Slice()
	}
	s, err := openAnalysis(c)
	if err != nil {
		return err
	}
	defer s.host.Close()
	s.sizes, s.setNames = sizes, setNames(c)
	switch p := c.String("ptxas"); p {
	case "auto", "always":
		s.ptxas = p
	case "never":
	default:
		return usageErrorf("--ptxas %q: use auto, always or never", p)
	}
	res, problems := s.analyze(c, files)
	if res == nil {
		return problems
	}
	if format == "csv" {
		err = report.WriteFeaturesCSV(c.App.Writer, res.Features, paperFeatures)
	} else {
		err = report.WriteFeaturesJSON(c.App.Writer, res.Features)
	}
	if err != nil {
		return failuref("write features: %v", err)
	}
	return problems
}

// explanation is one documented check or feature.
type explanation struct {
	kind, id, title, doc, url, extra, plugin string
}

func runExplain(c *cli.Context) error {
	if c.NArg() > 1 {
		return usageErrorf("explain takes one check or feature name")
	}
	h, err := openHost(c)
	if err != nil {
		return err
	}
	defer h.Close()
	var all []explanation
	var errs []error
	for _, p := range h.OfKind(sdk.KindAnalyzer) {
		d, err := p.DescribeAnalyzer(c.Context)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, ch := range d.GetChecks() {
			all = append(all, explanation{kind: "check", id: ch.GetId(), title: ch.GetTitle(), doc: ch.GetDoc(), url: ch.GetUrl(),
				extra: "default severity: " + severityName(ch.GetDefaultSeverity()) + checkOptions(d, ch.GetId()), plugin: p.Name()})
		}
		for _, f := range d.GetFeatures() {
			level := "per kernel"
			if !f.GetPerKernel() {
				level = "per file"
			}
			// Named as feature vectors name it: "<plugin>.<feature>" but for
			// the built-in analyzer.
			all = append(all, explanation{kind: "feature", id: lint.FeatureName(p.Name(), f.GetName()), title: firstLine(f.GetDoc()), doc: f.GetDoc(),
				extra: fmt.Sprintf("unit: %s; range: %s; %s; computed by pass %s; definition version %d", f.GetUnit(), f.GetRange(), level, f.GetPass(), max(1, f.GetVersion())), plugin: p.Name()})
		}
	}
	errs = append(errs, brokenAnalyzers(h)...)
	for _, e := range errs {
		fmt.Fprintf(c.App.ErrWriter, "cudaperf: %v\n", e)
	}
	if len(all) == 0 {
		return failuref("no analyzer plugin answered: build them with `make build`")
	}
	all = append(all, hostChecks...)
	w := c.App.Writer
	if c.NArg() == 0 {
		sort.Slice(all, func(i, j int) bool {
			return all[i].kind < all[j].kind || all[i].kind == all[j].kind && all[i].id < all[j].id
		})
		for _, e := range all {
			fmt.Fprintf(w, "%-8s %-22s %s\n", e.kind, e.id, e.title)
		}
		return nil
	}
	name := c.Args().First()
	found := false
	for _, e := range all {
		if e.id != name {
			continue
		}
		found = true
		printExplanation(w, e)
	}
	if !found {
		if len(errs) > 0 { // it may be one of theirs
			return failuref("no plugin that answered has a check or feature named %q; %d plugin(s) failed (above), and it may be theirs", name, len(errs))
		}
		var ids []string
		for _, e := range all {
			ids = append(ids, e.id)
		}
		slices.Sort(ids)
		return usageErrorf("no check or feature named %q; known: %s", name, strings.Join(slices.Compact(ids), ", "))
	}
	return nil
}

// brokenAnalyzers are the errors of the plugins whose manifest is broken
// and that may be analyzers (see Host.Broken).
func brokenAnalyzers(h *pluginhost.Host) []error {
	var out []error
	for _, p := range h.Broken(sdk.KindAnalyzer) {
		out = append(out, p.Err())
	}
	return out
}

// hostChecks are the ids lint prints that no plugin declares: cudaperf
// itself reports them, so explain describes them here.
var hostChecks = []explanation{
	{kind: "check", id: "score", plugin: "cudaperf (lint)", title: "the file's structural score from the built-in ranker",
		doc: "After the findings, lint prints each file's structural score: the built-in ranker's score of its\n" +
			"kernels' features (docs/ranker.md). Among implementations of the same task, a higher score\n" +
			"predicts a faster one; across tasks the scores mean nothing. The note gives the ranker's\n" +
			"held-out rank correlation with measured speed (test ρ when the test split was scored), so you\n" +
			"know how far to trust it; today it is weak. Bad: trusting +0.4 against -0.1 for two different\n" +
			"kernels. Good: comparing two versions of one kernel, then measuring with cudaperf bench.",
		extra: "severity: note; turn off with lint --no-score; machine formats leave it out"},
	{kind: "check", id: "plugin", plugin: "cudaperf (lint)", title: "an analyzer plugin failed a file or the whole request",
		doc: "An analyzer plugin crashed, hung past --plugin-timeout, or answered with an error, for one\n" +
			"file or for all of them. Its findings and features are missing there; the other plugins'\n" +
			"are not. The message names the plugin, its manifest and what to do (often: rebuild it, raise\n" +
			"--plugin-timeout, or leave it out with --no-plugins NAME).",
		extra: "lint exits 3 (the results are incomplete); `cudaperf plugins list` shows each plugin's status"},
	{kind: "check", id: "suppression", plugin: "cudaperf (lint)", title: "a cudaperf:ignore comment that cannot be used or was not needed",
		doc: "A comment `// cudaperf:ignore CHECK reason` at the end of a line, or alone on the line\n" +
			"before it, hides that line's CHECK findings. It is reported when it names no check or\n" +
			"gives no reason (it is then ignored), or when it hides nothing (the finding is gone: remove\n" +
			"the comment). Bad: `// cudaperf:ignore coalescing`. Good: `// cudaperf:ignore coalescing\n" +
			"the tile is read once, from L2`.",
		extra: "severity: warning when unusable, note when it hides nothing; syntax errors cannot be ignored"},
}

// checkOptions lists a check's options for explain, as users set them.
func checkOptions(d *pluginv1.DescribeAnalyzerResponse, check string) string {
	var b strings.Builder
	for _, o := range pluginhost.DeclaredOptions(d) {
		if o.Check == check {
			fmt.Fprintf(&b, "\noption lint.settings.%s.%s (%s): %s", check, o.Name, o.Summary(), o.Doc)
		}
	}
	return b.String()
}

func printExplanation(w io.Writer, e explanation) {
	fmt.Fprintf(w, "%s (%s, from plugin %s)\n\n%s\n", e.id, e.kind, e.plugin, strings.TrimSpace(e.doc))
	fmt.Fprintf(w, "\n%s\n", e.extra)
	if e.url != "" {
		fmt.Fprintf(w, "more: %s\n", e.url)
	}
	fmt.Fprintln(w)
}
