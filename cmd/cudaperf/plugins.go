package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hashicorp/go-hclog"
	"github.com/urfave/cli/v2"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/cudaperf/cudaperf/host/lint"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

func pluginsCommand() *cli.Command {
	return &cli.Command{
		Name:  "plugins",
		Usage: "list, describe and try the installed plugins",
		Description: "Plugins are found in --plugin-dir folders, then $" + pluginhost.PathEnv + " (colon-separated),\n" +
			"then <dir of cudaperf>/plugins. Each is a folder with a plugin.yaml manifest.",
		Subcommands: []*cli.Command{
			{
				Name:   "list",
				Usage:  "start every plugin and list it with its version (exit 3 if any fails)",
				Flags:  []cli.Flag{formatFlag(), &cli.StringFlag{Name: "kind", Usage: "list only plugins of `KIND` (analyzer, benchmarker, policy)"}},
				Action: pluginsList,
			},
			{
				Name:      "describe",
				Usage:     "show what a plugin offers: passes, features, checks, task kinds",
				ArgsUsage: "NAME",
				Flags:     []cli.Flag{formatFlag()},
				Action:    pluginsDescribe,
			},
			{
				Name:      "analyze",
				Usage:     "run every analyzer plugin over CUDA files and print their raw features and diagnostics",
				ArgsUsage: "PATH...",
				Description: "PATH is a file or a folder (searched for .cu and .cuh files). This shows what\n" +
					"the plugins answer, for plugin authors; findings do not change the exit status\n" +
					"(it is 3 when a plugin fails, otherwise 0).",
				Flags:  []cli.Flag{formatFlag()},
				Action: pluginsAnalyze,
			},
			{
				Name:      "request",
				Usage:     "print the Analyze request a plugin that wants parsed files receives for CUDA files",
				ArgsUsage: "PATH...",
				Description: "Each file comes with the host's parse (SourceFile.parsed: the syntax tree,\n" +
					"kernels and launch sites). For plugin authors who want to see what their plugin\n" +
					"gets, and for test harnesses in other languages: the Python SDK's\n" +
					"cudaperf_plugin.testing runs `cudaperf plugins request --format binary`.\n" +
					"json is protojson (field names as in analyzer.proto); binary is the wire format.",
				Flags:  []cli.Flag{&cli.StringFlag{Name: "format", Value: "json", Usage: "output `FORMAT`: json or binary"}},
				Action: pluginsRequest,
			},
		},
	}
}

// openHost discovers the plugins named by the global flags. The caller
// closes it; main's KillAll is the backstop.
func openHost(c *cli.Context) (*pluginhost.Host, error) {
	exe, _ := os.Executable()
	dirs, err := pluginhost.SearchPath(c.StringSlice("plugin-dir"), os.Getenv(pluginhost.PathEnv), exe)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	// Zero and below meant the default within pluginhost: a user who set
	// 0 to wait without a limit waited a minute and was told to raise it.
	for _, f := range []string{"plugin-start-timeout", "plugin-timeout", "policy-timeout"} {
		if d := c.Duration(f); d <= 0 {
			return nil, usageErrorf("--%s %v: give a positive duration, such as 10m (there is no unlimited wait: a hung plugin must end)", f, d)
		}
	}
	level := hclog.LevelFromString(c.String("log-level"))
	if level == hclog.NoLevel {
		return nil, usageErrorf("--log-level %q: use debug, info, warn or error", c.String("log-level"))
	}
	h, err := pluginhost.New(pluginhost.Options{
		Dirs:           dirs,
		StartTimeout:   c.Duration("plugin-start-timeout"),
		RequestTimeout: c.Duration("plugin-timeout"),
		PolicyTimeout:  c.Duration("policy-timeout"),
		Logger:         hclog.New(&hclog.LoggerOptions{Name: "cudaperf", Level: level, Output: c.App.ErrWriter}),
	})
	if err != nil {
		return nil, failuref("%v", err)
	}
	if err := selectPlugins(c, h); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// selectPlugins applies --plugins/--no-plugins and the configuration's
// plugins section: --plugins replaces plugins.enable, --no-plugins adds to
// plugins.disable.
func selectPlugins(c *cli.Context, h *pluginhost.Host) error {
	cfg, err := loadConfig(projectConfigFlag(c), ".")
	if err != nil {
		return err
	}
	enable, disable := cfg.Plugins.Enable, slices.Clone(cfg.Plugins.Disable)
	// The flags exist globally and on lint and features: read every level,
	// the command's --plugins winning over the global one.
	setEnable := false
	for _, cc := range c.Lineage() {
		if !setEnable && cc.IsSet("plugins") {
			enable, setEnable = splitNames(cc.StringSlice("plugins")), true
		}
		for _, n := range splitNames(cc.StringSlice("no-plugins")) {
			if !slices.Contains(disable, n) {
				disable = append(disable, n)
			}
		}
	}
	if err := h.Select(enable, disable); err != nil {
		where := "--plugins/--no-plugins"
		if cfg.Path != "" {
			where += " or plugins: in " + cfg.Path
		}
		return usageErrorf("%s: %v", where, err)
	}
	return nil
}

// ownConfigCommands name their own file with --config (a run.yaml, an
// ablation.yaml), not the project's .cudaperf.yaml.
var ownConfigCommands = []string{"train", "ablate"}

// projectConfigFlag is the .cudaperf.yaml that --config names, or "" (find
// it from the working directory) under a command whose --config is its
// own file.
func projectConfigFlag(c *cli.Context) string {
	for _, cc := range c.Lineage() {
		if cc.Command != nil && slices.Contains(ownConfigCommands, cc.Command.Name) {
			return ""
		}
	}
	return c.String("config")
}

// leftOutError is the error for a command that needs the plugin name
// which --plugins/--no-plugins left out, nil when it was not left out.
// Without it such a command said the plugin was not installed.
func leftOutError(h *pluginhost.Host, name string) error {
	if !h.LeftOut(name) {
		return nil
	}
	return usageErrorf("plugin %q is installed but left out by --plugins/--no-plugins (or plugins: in .cudaperf.yaml); this command needs it: do not leave it out", name)
}

// splitNames accepts both --plugins a,b and --plugins a --plugins b.
func splitNames(vs []string) []string {
	var out []string
	for _, v := range vs {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// pluginJSON is one plugin in `plugins list --format json`.
type pluginJSON struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Language    string `json:"language"`
	Version     string `json:"version"`
	Protocol    int    `json:"protocol"`
	Path        string `json:"path"`
	Description string `json:"description,omitempty"`
	Status      string `json:"status"` // "ok" or "error"
	Error       string `json:"error,omitempty"`
}

func describePlugin(p *pluginhost.Plugin) pluginJSON {
	j := pluginJSON{Name: p.Name(), Path: p.ManifestPath(), Status: "ok", Version: p.Version()}
	j.Kind = string(p.DeclaredKind())
	if m := p.Manifest(); m != nil {
		j.Language, j.Protocol, j.Description = m.Language, m.Protocol, m.Description
	}
	if err := p.Err(); err != nil {
		j.Status, j.Error = "error", err.Error()
	}
	return j
}

func pluginsList(c *cli.Context) error {
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if c.NArg() > 0 {
		return usageErrorf("plugins list takes no arguments (got %q)", c.Args().First())
	}
	h, err := openHost(c)
	if err != nil {
		return err
	}
	defer h.Close()
	plugins := h.Plugins()
	if k := sdk.Kind(c.String("kind")); k != "" {
		if !k.Valid() {
			return usageErrorf("--kind %q: use analyzer, benchmarker or policy", k)
		}
		// Broken plugins that may be of the kind too: lint counts them as
		// failures, so a listing by kind must not hide them.
		plugins = append(h.OfKind(k), h.Broken(k)...)
		slices.SortFunc(plugins, func(a, b *pluginhost.Plugin) int { return strings.Compare(a.Name(), b.Name()) })
	}
	h.Start(c.Context, plugins...)
	rows := make([]pluginJSON, 0, len(plugins))
	failed := 0
	for _, p := range plugins {
		r := describePlugin(p)
		if r.Status != "ok" {
			failed++
		}
		rows = append(rows, r)
	}
	if format == "json" {
		if err := printJSON(c, rows); err != nil {
			return err
		}
	} else {
		if len(rows) == 0 {
			fmt.Fprintln(c.App.ErrWriter, "no plugins found; build them (make build) or point --plugin-dir or $"+pluginhost.PathEnv+" at a folder of plugins")
		}
		tw := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tKIND\tLANGUAGE\tVERSION\tPROTOCOL\tSTATUS\tPATH")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", r.Name, dash(r.Kind), dash(r.Language), dash(r.Version), r.Protocol, r.Status, r.Path)
		}
		tw.Flush()
		for _, s := range h.Shadowed() {
			fmt.Fprintf(c.App.ErrWriter, "cudaperf: plugin %s; rename one to use both\n", s)
		}
		for _, r := range rows {
			if r.Error != "" {
				fmt.Fprintf(c.App.ErrWriter, "\n%s\n", r.Error)
			}
		}
	}
	if failed > 0 {
		return failuref("%d of %d plugins failed (see above)", failed, len(rows))
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func pluginsDescribe(c *cli.Context) error {
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if c.NArg() != 1 {
		return usageErrorf("plugins describe takes one plugin NAME (see 'cudaperf plugins list')")
	}
	h, err := openHost(c)
	if err != nil {
		return err
	}
	defer h.Close()
	name := c.Args().First()
	p, ok := h.Plugin(name)
	if err := leftOutError(h, name); !ok && err != nil {
		return err
	}
	if !ok {
		var names []string
		for _, p := range h.Plugins() {
			names = append(names, p.Name())
		}
		return usageErrorf("no plugin named %q; installed: %s", name, orNone(strings.Join(names, ", ")))
	}
	if err := p.Start(c.Context); err != nil {
		return failuref("%v", err)
	}
	var d proto.Message
	switch p.Kind() {
	case sdk.KindAnalyzer:
		d, err = p.DescribeAnalyzer(c.Context)
	case sdk.KindBenchmarker:
		d, err = p.DescribeBenchmarker(c.Context)
	case sdk.KindPolicy:
		d, err = p.DescribePolicy(c.Context)
	}
	if err != nil {
		return failuref("%v", err)
	}
	info := describePlugin(p)
	if format == "json" {
		raw, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(d)
		if err != nil {
			return failuref("plugins describe: encode: %v", err)
		}
		return printJSON(c, struct {
			pluginJSON
			Describe jsonRaw `json:"describe"`
		}{info, jsonRaw(raw)})
	}
	w := c.App.Writer
	fmt.Fprintf(w, "%s %s (%s, %s, protocol %d)\n", info.Name, info.Version, info.Kind, info.Language, info.Protocol)
	if info.Description != "" {
		fmt.Fprintf(w, "  %s\n", info.Description)
	}
	fmt.Fprintf(w, "  manifest: %s\n", info.Path)
	switch d := d.(type) {
	case *pluginv1.DescribeAnalyzerResponse:
		printAnalyzerDescription(w, d)
	case *pluginv1.DescribeBenchmarkerResponse:
		fmt.Fprintf(w, "\ntask kinds: %s\ncompiler: %s\ndefault arch: %s\n", orNone(strings.Join(d.GetTaskKinds(), ", ")), dash(d.GetCompiler()), dash(d.GetDefaultArch()))
	case *pluginv1.DescribePolicyResponse:
		fmt.Fprintf(w, "\nmodel: %s\ncan update: %v\ncan return logprobs: %v\ncontext tokens: %d\n", dash(d.GetModel()), d.GetCanUpdate(), d.GetCanLogprobs(), d.GetMaxContextTokens())
	}
	return nil
}

// jsonRaw embeds already-encoded JSON (protojson output) in a JSON value.
type jsonRaw []byte

func (r jsonRaw) MarshalJSON() ([]byte, error) { return r, nil }

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func printAnalyzerDescription(w io.Writer, d *pluginv1.DescribeAnalyzerResponse) {
	if len(d.GetPasses()) > 0 {
		fmt.Fprintln(w, "\npasses:")
		for _, p := range d.GetPasses() {
			fmt.Fprintf(w, "  %s — %s\n", p.GetName(), firstLine(p.GetDoc()))
		}
	}
	if len(d.GetFeatures()) > 0 {
		fmt.Fprintln(w, "\nfeatures:")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, f := range d.GetFeatures() {
			scope := "file"
			if f.GetPerKernel() {
				scope = "kernel"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", f.GetName(), dash(f.GetUnit()), dash(f.GetRange()), scope, firstLine(f.GetDoc()))
		}
		tw.Flush()
	}
	if len(d.GetChecks()) > 0 {
		fmt.Fprintln(w, "\nchecks:")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, ch := range d.GetChecks() {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", ch.GetId(), severityName(ch.GetDefaultSeverity()), ch.GetTitle())
		}
		tw.Flush()
	}
	if len(d.GetOptions()) > 0 {
		fmt.Fprintln(w, "\noptions (set in .cudaperf.yaml as lint.settings.CHECK.NAME):")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, o := range pluginhost.DeclaredOptions(d) {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", o.Key(), o.Summary(), firstLine(o.Doc))
		}
		tw.Flush()
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func severityName(s pluginv1.Severity) string {
	switch s {
	case pluginv1.Severity_SEVERITY_ERROR:
		return "error"
	case pluginv1.Severity_SEVERITY_WARNING:
		return "warning"
	case pluginv1.Severity_SEVERITY_NOTE:
		return "note"
	}
	return "unspecified"
}

func pluginsAnalyze(c *cli.Context) error {
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if c.NArg() == 0 {
		return usageErrorf("plugins analyze needs at least one file or folder")
	}
	// The same file collection as lint: folders give their .cu/.cuh files.
	inputs, inErrs := lint.Collect(c.Args().Slice(), nil)
	if len(inputs) == 0 && len(inErrs) > 0 {
		return usageErrorf("%v", inErrs[0])
	}
	req := lint.Request(inputs, lint.Options{})
	var readErrs []error
	for _, e := range inErrs {
		readErrs = append(readErrs, e)
	}
	h, err := openHost(c)
	if err != nil {
		return err
	}
	defer h.Close()
	// Plugins whose manifest is broken have no kind; they may be analyzers,
	// so they are reported rather than silently skipped.
	for _, p := range h.Plugins() {
		if p.Manifest() == nil {
			readErrs = append(readErrs, p.Err())
		}
	}
	if len(h.OfKind(sdk.KindAnalyzer)) == 0 {
		for _, e := range readErrs {
			fmt.Fprintf(c.App.ErrWriter, "cudaperf: %v\n", e)
		}
		return failuref("no analyzer plugins found; build them (make build) or point --plugin-dir at them")
	}
	a := h.Analyze(c.Context, req)
	if format == "json" {
		err = printJSON(c, analysisJSON(a))
	} else {
		printAnalysis(c.App.Writer, a)
	}
	if err != nil {
		return err
	}
	failures := append(readErrs[len(inErrs):], a.Failures...)
	for _, fa := range a.Files {
		failures = append(failures, fa.Errors...)
	}
	for _, e := range append(readErrs[:len(inErrs):len(inErrs)], failures...) {
		fmt.Fprintf(c.App.ErrWriter, "cudaperf: %v\n", e)
	}
	if len(failures) > 0 {
		return failuref("%d plugin failure(s) (see above)", len(failures))
	}
	if len(inErrs) > 0 {
		// As lint and features: an input that cannot be read is the
		// caller's mistake (exit 2), not a plugin's failure (exit 3).
		return usageErrorf("%d input(s) could not be read (see above)", len(inErrs))
	}
	return nil
}

func pluginsRequest(c *cli.Context) error {
	format := c.String("format")
	if format != "json" && format != "binary" {
		return usageErrorf("--format %q: use json or binary", format)
	}
	if c.NArg() == 0 {
		return usageErrorf("plugins request needs at least one file or folder")
	}
	inputs, inErrs := lint.Collect(c.Args().Slice(), nil)
	for _, e := range inErrs {
		fmt.Fprintf(c.App.ErrWriter, "cudaperf: %v\n", e)
	}
	if len(inErrs) > 0 {
		return usageErrorf("%d input(s) could not be read", len(inErrs))
	}
	req := lint.Request(inputs, lint.Options{})
	for _, f := range req.GetFiles() {
		p, err := pluginhost.Parse(c.Context, f.GetPath(), f.GetContent())
		if err != nil {
			return failuref("%v", err)
		}
		f.Parsed = p
	}
	var out []byte
	var err error
	if format == "binary" {
		out, err = proto.MarshalOptions{Deterministic: true}.Marshal(req)
	} else {
		out, err = protojson.MarshalOptions{Multiline: true, UseProtoNames: true}.Marshal(req)
	}
	if err != nil {
		return failuref("plugins request: encode: %v", err)
	}
	_, err = c.App.Writer.Write(out)
	return err
}

func printAnalysis(w io.Writer, a *pluginhost.Analysis) {
	for _, fa := range a.Files {
		for _, d := range fa.Diagnostics {
			r := d.GetRange()
			fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s] (%s)\n", fa.Path, r.GetStartLine(), r.GetStartColumn(), severityName(d.GetSeverity()), d.GetMessage(), d.GetCheck(), d.Plugin)
		}
		for _, f := range fa.Features {
			scope := fa.Path
			if f.GetKernel() != "" {
				scope += ": " + f.GetKernel()
			}
			value := fmt.Sprintf("%g %s", f.GetValue(), f.GetUnit())
			if f.GetUnknown() {
				value = "unknown"
			}
			fmt.Fprintf(w, "%s: %s = %s (%s %s)\n", scope, f.GetName(), value, f.Plugin, f.PluginVersion)
		}
	}
}

type analysisOut struct {
	Files    []fileOut `json:"files"`
	Failures []string  `json:"failures"`
}

type fileOut struct {
	Path        string          `json:"path"`
	Features    []featureOut    `json:"features"`
	Diagnostics []diagnosticOut `json:"diagnostics"`
	Errors      []string        `json:"errors,omitempty"`
}

type featureOut struct {
	Plugin        string  `json:"plugin"`
	PluginVersion string  `json:"plugin_version"`
	Kernel        string  `json:"kernel,omitempty"`
	Name          string  `json:"name"`
	Value         float64 `json:"value"`
	Unit          string  `json:"unit"`
	Unknown       bool    `json:"unknown,omitempty"`
}

type diagnosticOut struct {
	Plugin    string `json:"plugin"`
	Check     string `json:"check"`
	Severity  string `json:"severity"`
	Kernel    string `json:"kernel,omitempty"`
	Line      int32  `json:"line"`
	Column    int32  `json:"column"`
	EndLine   int32  `json:"end_line"`
	EndColumn int32  `json:"end_column"`
	Message   string `json:"message"`
	URL       string `json:"url,omitempty"`
}

func analysisJSON(a *pluginhost.Analysis) analysisOut {
	out := analysisOut{Files: []fileOut{}, Failures: errorStrings(a.Failures)}
	for _, fa := range a.Files {
		f := fileOut{Path: fa.Path, Features: []featureOut{}, Diagnostics: []diagnosticOut{}, Errors: errorStrings(fa.Errors)}
		for _, x := range fa.Features {
			f.Features = append(f.Features, featureOut{x.Plugin, x.PluginVersion, x.GetKernel(), x.GetName(), x.GetValue(), x.GetUnit(), x.GetUnknown()})
		}
		for _, d := range fa.Diagnostics {
			r := d.GetRange()
			f.Diagnostics = append(f.Diagnostics, diagnosticOut{d.Plugin, d.GetCheck(), severityName(d.GetSeverity()), d.GetKernel(),
				r.GetStartLine(), r.GetStartColumn(), r.GetEndLine(), r.GetEndColumn(), d.GetMessage(), d.GetUrl()})
		}
		out.Files = append(out.Files, f)
	}
	return out
}

func errorStrings(errs []error) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}
