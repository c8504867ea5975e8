package sdk

import (
	"context"
	"fmt"
	"strconv"

	"google.golang.org/protobuf/proto"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// Plugin is an analyzer plugin written on the host's parse, the way a
// go/analysis Analyzer is written on go/ast: declare what it reports, and
// give Run, called once per file with the file's syntax tree, kernels and
// launches. It implements AnalyzerService (Describe sets
// wants_parsed_files), so main is one line:
//
//	func main() { sdk.ServeAnalyzer(plugin) }
//
// and sdktest.Run tests it against `// want` comments.
type Plugin struct {
	// Name is the plugin's stable name; users see its features as
	// "<Name>.<feature>".
	Name, Version, Description, URL string
	// Features, Checks and Options as Describe lists them. An empty Pass
	// field is filled with Name; an option without Check belongs to Name.
	Features []*pluginv1.FeatureInfo
	Checks   []*pluginv1.CheckInfo
	Options  []*pluginv1.OptionInfo
	// Run analyzes one file. An error (or a panic) becomes the file's
	// error; the other files are still analyzed.
	Run func(*Pass) error
	// Jobs is how many files are analyzed at once (Run must then be safe
	// for concurrent use); 0 or 1 means one at a time.
	Jobs int

	pluginv1.UnimplementedAnalyzerServiceServer
}

// Pass is one file's analysis: the input and the functions that take the
// findings.
type Pass struct {
	File   *File
	Target *pluginv1.Device // the device to assume; nil means the plugin's default
	plugin *Plugin
	opts   map[string]string
	res    *pluginv1.FileResult
}

// Describe answers AnalyzerService.Describe.
func (p *Plugin) Describe(context.Context, *pluginv1.DescribeAnalyzerRequest) (*pluginv1.DescribeAnalyzerResponse, error) {
	d := &pluginv1.DescribeAnalyzerResponse{
		Plugin:           &pluginv1.PluginInfo{Name: p.Name, Version: p.Version, Description: p.Description, Url: p.URL},
		Passes:           []*pluginv1.PassInfo{{Name: p.Name, Doc: p.Description, Url: p.URL}},
		WantsParsedFiles: true,
	}
	for _, f := range p.Features {
		f := proto.CloneOf(f)
		if f.Pass == "" {
			f.Pass = p.Name
		}
		d.Features = append(d.Features, f)
	}
	for _, c := range p.Checks {
		c := proto.CloneOf(c)
		if c.Pass == "" {
			c.Pass = p.Name
		}
		d.Checks = append(d.Checks, c)
	}
	for _, o := range p.Options {
		o := proto.CloneOf(o)
		if o.Check == "" {
			o.Check = p.Name
		}
		d.Options = append(d.Options, o)
	}
	return d, nil
}

// Analyze answers AnalyzerService.Analyze: Run on every file.
func (p *Plugin) Analyze(ctx context.Context, req *pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error) {
	if p.Run == nil {
		return nil, fmt.Errorf("plugin %s has no Run function", p.Name)
	}
	return AnalyzeParallel(ctx, req, max(1, p.Jobs), func(_ context.Context, req *pluginv1.AnalyzeRequest, sf *pluginv1.SourceFile) (*pluginv1.FileResult, error) {
		f, err := Parse(sf)
		if err != nil {
			return nil, err
		}
		pass := &Pass{File: f, Target: req.GetTarget(), plugin: p, opts: p.options(req.GetOptions()), res: &pluginv1.FileResult{}}
		if err := p.Run(pass); err != nil {
			return nil, err
		}
		return pass.res, nil
	}), nil
}

// options are the declared options' defaults overridden by the request's
// values: the host sends every declared option, a hand-made request may not.
func (p *Plugin) options(req map[string]string) map[string]string {
	out := map[string]string{}
	for _, o := range p.Options {
		check := o.GetCheck()
		if check == "" {
			check = p.Name
		}
		out[check+"."+o.GetName()] = o.GetDefaultValue()
	}
	for k, v := range req {
		out[k] = v
	}
	return out
}

// Reportf reports a finding of check at n, with the check's default
// severity. kernel names the kernel it concerns ("" for none).
func (p *Pass) Reportf(check, kernel string, n *Node, format string, args ...any) {
	sev := pluginv1.Severity_SEVERITY_WARNING
	url := ""
	for _, c := range p.plugin.Checks {
		if c.GetId() == check {
			if c.GetDefaultSeverity() != pluginv1.Severity_SEVERITY_UNSPECIFIED {
				sev = c.GetDefaultSeverity()
			}
			url = c.GetUrl()
		}
	}
	p.res.Diagnostics = append(p.res.Diagnostics, &pluginv1.Diagnostic{Check: check, Severity: sev, Kernel: kernel,
		Range: n.Range(), Message: fmt.Sprintf(format, args...), Url: url})
}

// KernelFeature reports a per-kernel feature value; FileFeature a
// file-level one. The unit comes from the feature's declaration.
func (p *Pass) KernelFeature(kernel, name string, v float64) {
	p.res.Features = append(p.res.Features, &pluginv1.Feature{Kernel: kernel, Name: name, Value: v, Unit: p.unit(name), Pass: p.plugin.Name})
}

func (p *Pass) FileFeature(name string, v float64) { p.KernelFeature("", name, v) }

// UnknownFeature says that a kernel's feature could not be determined: it
// is left out of feature vectors, never read as 0.
func (p *Pass) UnknownFeature(kernel, name string) {
	p.res.Features = append(p.res.Features, &pluginv1.Feature{Kernel: kernel, Name: name, Unknown: true, Unit: p.unit(name), Pass: p.plugin.Name})
}

func (p *Pass) unit(name string) string {
	for _, f := range p.plugin.Features {
		if f.GetName() == name {
			return f.GetUnit()
		}
	}
	return ""
}

// Option returns the value of a declared option, key "<check>.<name>"
// (the host sends every declared option, its default when the user set
// none).
func (p *Pass) Option(key string) string { return p.opts[key] }

// OptionInt, OptionFloat and OptionBool read a declared option of that
// type. The host validated the value against the declared type, so an
// error means the option was not declared with it.
func (p *Pass) OptionInt(key string) (int, error) {
	v, err := strconv.Atoi(p.opts[key])
	if err != nil {
		return 0, fmt.Errorf("option %s: %q is not an int (declare it with type int)", key, p.opts[key])
	}
	return v, nil
}

func (p *Pass) OptionFloat(key string) (float64, error) {
	v, err := strconv.ParseFloat(p.opts[key], 64)
	if err != nil {
		return 0, fmt.Errorf("option %s: %q is not a float (declare it with type float)", key, p.opts[key])
	}
	return v, nil
}

func (p *Pass) OptionBool(key string) (bool, error) {
	v, err := strconv.ParseBool(p.opts[key])
	if err != nil {
		return false, fmt.Errorf("option %s: %q is not a bool (declare it with type bool)", key, p.opts[key])
	}
	return v, nil
}
