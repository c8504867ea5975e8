package pluginhost_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

var (
	binOnce sync.Once
	binDir  string
	binErr  error
	misbin  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// misbehave returns the path of the misbehave test plugin, built once.
func misbehave(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "pluginhost-test")
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	if misbin == "" {
		misbin = plugintest.BuildGo(t, "host/pluginhost/testdata/misbehave", binDir)
	}
	return misbin
}

// installMisbehave adds a misbehave plugin in mode to pluginsDir.
func installMisbehave(t testing.TB, pluginsDir, mode string) {
	t.Helper()
	plugintest.WriteManifest(t, filepath.Join(pluginsDir, mode), pluginhost.Manifest{
		Name: mode, Kind: sdk.KindAnalyzer, Language: "go", Protocol: 1, Command: misbehave(t), Args: []string{mode},
	})
}

func newHost(t *testing.T, opts pluginhost.Options) *pluginhost.Host {
	t.Helper()
	h, err := pluginhost.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

func exampleRequest(t *testing.T) *pluginv1.AnalyzeRequest {
	t.Helper()
	dir := filepath.Join(plugintest.ModuleRoot(t), "examples", "kernels")
	names := []string{"reduction_divergent.cu", "saxpy.cu", "stencil_race.cu"}
	req := &pluginv1.AnalyzeRequest{}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		req.Files = append(req.Files, &pluginv1.SourceFile{Path: n, Content: data})
	}
	return req
}

func TestAnalyzeThroughGoAndPythonPlugins(t *testing.T) {
	dir := t.TempDir()
	plugintest.InstallGo(t, "plugins/examples/textcount", dir)
	plugintest.InstallPython(t, "plugins/python/examples/synccount", dir)
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})

	if errs := h.Start(context.Background()); len(errs) > 0 {
		t.Fatalf("start: %v", errs)
	}
	for _, name := range []string{"textcount", "synccount-py"} {
		p, ok := h.Plugin(name)
		if !ok {
			t.Fatalf("plugin %s not discovered; have %v", name, h.Plugins())
		}
		d, err := p.DescribeAnalyzer(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if d.GetPlugin().GetName() != name || d.GetPlugin().GetVersion() == "" || len(d.GetChecks()) != 1 || len(d.GetFeatures()) == 0 {
			t.Errorf("%s: Describe = %v", name, d)
		}
		if p.Version() != d.GetPlugin().GetVersion() {
			t.Errorf("%s: Version() = %q, Describe says %q", name, p.Version(), d.GetPlugin().GetVersion())
		}
	}

	a := h.Analyze(context.Background(), exampleRequest(t))
	if len(a.Failures) > 0 {
		t.Fatalf("failures: %v", a.Failures)
	}
	type diag struct {
		plugin, check string
		line, col     int32
	}
	var got []diag
	for _, fa := range a.Files {
		if len(fa.Errors) > 0 {
			t.Errorf("%s: %v", fa.Path, fa.Errors)
		}
		for _, d := range fa.Diagnostics {
			if d.GetRange().GetFile() != fa.Path {
				t.Errorf("diagnostic in %s names file %q", fa.Path, d.GetRange().GetFile())
			}
			got = append(got, diag{d.Plugin, d.GetCheck(), d.GetRange().GetStartLine(), d.GetRange().GetStartColumn()})
		}
	}
	want := []diag{{"synccount-py", "SC001", 18, 13}, {"textcount", "TC001", 7, 17}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("diagnostics = %v, want %v", got, want)
	}
	// Both plugins count the two barriers of reduce_divergent.
	syncs := map[string]float64{}
	for _, f := range a.Files[0].Features {
		if f.GetKernel() == "reduce_divergent" && f.GetName() == "syncthreads" {
			syncs[f.Plugin] = f.GetValue()
			if f.PluginVersion != "0.2.0" {
				t.Errorf("feature from %s has version %q", f.Plugin, f.PluginVersion)
			}
		}
	}
	if syncs["textcount"] != 2 || syncs["synccount-py"] != 2 {
		t.Errorf("syncthreads of reduce_divergent = %v, want 2 from each plugin", syncs)
	}
}

func TestFailingPluginsAreIsolatedAndNamed(t *testing.T) {
	dir := t.TempDir()
	plugintest.InstallGo(t, "plugins/examples/textcount", dir)
	for _, mode := range []string{"ok", "crash", "hang", "panic", "stdout", "protocol2", "slowstart", "startexit"} {
		installMisbehave(t, dir, mode)
	}
	plugintest.WriteManifest(t, filepath.Join(dir, "nobinary"), pluginhost.Manifest{
		Name: "nobinary", Kind: sdk.KindAnalyzer, Language: "go", Protocol: 1, Command: "nobinary"})
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}, StartTimeout: 2 * time.Second, RequestTimeout: 2 * time.Second})

	req := exampleRequest(t)
	a := h.Analyze(context.Background(), req)

	// The healthy plugins answered for every file.
	for _, fa := range a.Files {
		from := map[string]bool{}
		for _, f := range fa.Features {
			from[f.Plugin] = true
		}
		if !from["ok"] || !from["textcount"] || len(from) != 2 {
			t.Errorf("%s: features from %v, want ok and textcount", fa.Path, from)
		}
	}
	wantFailures := map[string][]string{
		"crash":     {"Analyze", "crashed (exit status 2)", "bug in the plugin", "panic: misbehave: crash on purpose"},
		"hang":      {"Analyze", "no answer within 2s", "--plugin-timeout"},
		"panic":     {"Analyze", "panic on purpose", "bug in the plugin"},
		"stdout":    {"start", "wrote to stdout before the handshake"},
		"protocol2": {"start", "another plugin protocol", "protocol 1"},
		"slowstart": {"start", "within 2s"},
		"startexit": {"start", "exited during start-up", "misbehave: config file missing"},
		"nobinary":  {"start", `"nobinary" is neither in`, "make build"},
	}
	checkFailures(t, a.Failures, wantFailures)

	// Second round: the healthy ones still answer; crashed and hung ones
	// fail at once with the same explanation; the panicking one is alive.
	b := h.Analyze(context.Background(), req)
	checkFailures(t, b.Failures, wantFailures)
	if n := len(b.Files[0].Features); n == 0 {
		t.Error("healthy plugins stopped answering after others failed")
	}
	for _, name := range []string{"crash", "hang", "stdout", "protocol2", "slowstart", "startexit"} {
		p, _ := h.Plugin(name)
		if pid := p.Pid(); pid != 0 {
			t.Errorf("%s still runs as pid %d after failing", name, pid)
		}
	}
	if p, _ := h.Plugin("panic"); p.Pid() == 0 {
		t.Error("a panic in a handler killed the plugin; the SDK should have recovered")
	}
}

func checkFailures(t *testing.T, failures []error, want map[string][]string) {
	t.Helper()
	seen := map[string]bool{}
	for _, err := range failures {
		var pe *pluginhost.PluginError
		if !errors.As(err, &pe) {
			t.Errorf("failure is not a *PluginError: %v", err)
			continue
		}
		seen[pe.Plugin] = true
		subs, ok := want[pe.Plugin]
		if !ok {
			t.Errorf("unexpected failure: %v", err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, `plugin "`+pe.Plugin+`"`) {
			t.Errorf("error does not name the plugin: %s", msg)
		}
		for _, s := range subs {
			if !strings.Contains(msg, s) {
				t.Errorf("%s: error lacks %q:\n%s", pe.Plugin, s, msg)
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("no failure reported for %s", name)
		}
	}
}

func TestManifestErrorsNameTheFileAndTheFix(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if content != "" {
			if err := os.WriteFile(filepath.Join(dir, name, "plugin.yaml"), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("missing", "")
	write("syntax", "name: syntax\nkind: [analyzer\n")
	write("unknownkey", "name: unknownkey\nkind: analyzer\nlanguage: go\nprotocol: 1\ncommand: x\ncolour: blue\n")
	write("newer", "name: newer\nkind: analyzer\nlanguage: go\nprotocol: 2\ncommand: x\n")
	write("badkind", "name: badkind\nkind: linter\nlanguage: go\nprotocol: 1\ncommand: x\n")
	write("empty", "")
	if err := os.WriteFile(filepath.Join(dir, "empty", "plugin.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	write("nocommand", "name: nocommand\nkind: analyzer\nlanguage: go\nprotocol: 1\n")
	// A single-file manifest whose command is not executable.
	if err := os.WriteFile(filepath.Join(dir, "notexec.plugin.yaml"), []byte("name: notexec\nkind: policy\nlanguage: go\nprotocol: 1\ncommand: notexec.plugin.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	installMisbehave(t, dir, "ok")

	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	want := map[string][]string{
		"missing":    {"missing/plugin.yaml", "has no plugin.yaml", "add a plugin.yaml"},
		"syntax":     {"syntax/plugin.yaml", "not a valid manifest", "fix the manifest"},
		"unknownkey": {"unknownkey/plugin.yaml", "colour", "keys are name, kind"},
		"newer":      {"newer/plugin.yaml", "protocol 2 is not supported", "speaks plugin protocol 1"},
		"badkind":    {"badkind/plugin.yaml", `kind "linter" must be one of analyzer, benchmarker, policy`},
		"empty":      {"empty/plugin.yaml", "file is empty"},
		"nocommand":  {"nocommand/plugin.yaml", "command is missing"},
	}
	for _, p := range h.Plugins() {
		subs, bad := want[p.Name()]
		err := p.Err()
		switch {
		case bad && err == nil:
			t.Errorf("%s: no error", p.Name())
		case bad:
			for _, s := range subs {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%s: error lacks %q:\n%v", p.Name(), s, err)
				}
			}
			delete(want, p.Name())
		}
	}
	for name := range want {
		t.Errorf("plugin %s not listed", name)
	}
	// The plugins a command of one kind must report as missing: a broken
	// manifest that declares that kind, or no valid kind (not a folder
	// without a manifest, nor one that declares another kind).
	names := func(ps []*pluginhost.Plugin) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name())
		}
		return out
	}
	if got, want := names(h.Broken(sdk.KindAnalyzer)), []string{"badkind", "empty", "newer", "nocommand", "syntax", "unknownkey"}; !slices.Equal(got, want) {
		t.Errorf("Broken(analyzer) = %v, want %v", got, want)
	}
	if got, want := names(h.Broken(sdk.KindPolicy)), []string{"badkind", "empty", "syntax", "unknownkey"}; !slices.Equal(got, want) {
		t.Errorf("Broken(policy) = %v, want %v", got, want)
	}
	ne, _ := h.Plugin("notexec")
	if err := ne.Start(context.Background()); err == nil || !strings.Contains(err.Error(), "not an executable file") {
		t.Errorf("notexec: Start = %v", err)
	}
	// The valid plugin in the same folder works.
	ok, _ := h.Plugin("ok")
	if _, err := ok.Analyze(context.Background(), &pluginv1.AnalyzeRequest{Files: []*pluginv1.SourceFile{{Path: "a.cu"}}}); err != nil {
		t.Errorf("ok: %v", err)
	}
	// A kind mismatch is refused before anything is sent.
	if _, err := ok.Compile(context.Background(), &pluginv1.CompileRequest{}); err == nil || !strings.Contains(err.Error(), "is a analyzer, not a benchmarker") {
		t.Errorf("Compile on an analyzer: %v", err)
	}
}

func TestSearchPath(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	exeDir := t.TempDir()
	if err := os.Mkdir(filepath.Join(exeDir, "plugins"), 0o755); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(exeDir, "cudaperf")
	got, err := pluginhost.SearchPath([]string{a}, b+":/does/not/exist::"+a, exe)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{a, b, filepath.Join(exeDir, "plugins")}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("SearchPath = %v, want %v", got, want)
	}
	_, err = pluginhost.SearchPath([]string{"/does/not/exist"}, "", "")
	if err == nil || !strings.Contains(err.Error(), "--plugin-dir /does/not/exist: not a folder") {
		t.Errorf("missing --plugin-dir: %v", err)
	}
}

func TestShadowedPluginUsesFirst(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	installMisbehave(t, a, "ok")
	plugintest.WriteManifest(t, filepath.Join(b, "ok"), pluginhost.Manifest{
		Name: "ok", Kind: sdk.KindPolicy, Language: "go", Protocol: 1, Command: "x"})
	h := newHost(t, pluginhost.Options{Dirs: []string{a, b}})
	if n := len(h.Plugins()); n != 1 {
		t.Fatalf("%d plugins, want 1", n)
	}
	if p, _ := h.Plugin("ok"); p.Kind() != sdk.KindAnalyzer || !strings.HasPrefix(p.ManifestPath(), a) {
		t.Errorf("got %s from %s, want the analyzer from %s", p.Kind(), p.ManifestPath(), a)
	}
}

func TestKillAllStopsPluginAndItsChildren(t *testing.T) {
	dir := t.TempDir()
	installMisbehave(t, dir, "spawn")
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	p, _ := h.Plugin("spawn")
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	pid := p.Pid()
	children := childrenOf(t, pid)
	if len(children) == 0 {
		t.Fatal("the spawn plugin has no child process")
	}
	pluginhost.KillAll()
	for _, q := range append(children, pid) {
		waitGone(t, q)
	}
	if _, err := p.Analyze(context.Background(), &pluginv1.AnalyzeRequest{}); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("Analyze after KillAll: %v", err)
	}
}

// childrenOf lists the pids whose parent is pid (from /proc).
func childrenOf(t *testing.T, pid int) []int {
	t.Helper()
	return plugintest.Children(t, pid)
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	if !plugintest.WaitGone(pid, 5*time.Second) {
		t.Errorf("process %d still alive", pid)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func TestBenchmarkerRunStreamsAndTimesOutWhenSilent(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []string{"bench", "benchhang"} {
		plugintest.WriteManifest(t, filepath.Join(dir, mode), pluginhost.Manifest{
			Name: mode, Kind: sdk.KindBenchmarker, Language: "go", Protocol: 1, Command: misbehave(t), Args: []string{mode}})
	}
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}, RequestTimeout: time.Second})
	ctx := context.Background()
	b, _ := h.Plugin("bench")
	d, err := b.DescribeBenchmarker(ctx)
	if err != nil || d.GetTaskKinds()[0] != "c2cuda" {
		t.Fatalf("Describe = %v, %v", d, err)
	}
	c, err := b.Compile(ctx, &pluginv1.CompileRequest{Source: []byte("abc")})
	if err != nil || !c.GetOk() || c.GetLog() != "3 bytes" {
		t.Errorf("Compile = %v, %v", c, err)
	}
	req := &pluginv1.RunRequest{Configs: []string{"one", "odd", "large"}}
	var got []string
	err = b.Run(ctx, req, func(ev *pluginv1.RunEvent) error {
		if c := ev.GetConfig(); c != nil {
			got = append(got, c.GetConfig())
		}
		if d := ev.GetDone(); d != nil {
			got = append(got, "done")
		}
		return nil
	})
	if err != nil || strings.Join(got, ",") != "one,odd,large,done" {
		t.Errorf("Run: events %v, err %v", got, err)
	}

	// The idle timeout: the first event arrives, then nothing.
	hang, _ := h.Plugin("benchhang")
	got = nil
	err = hang.Run(ctx, req, func(ev *pluginv1.RunEvent) error {
		got = append(got, ev.GetConfig().GetConfig())
		return nil
	})
	if strings.Join(got, ",") != "one" || err == nil || !strings.Contains(err.Error(), `plugin "benchhang"`) || !strings.Contains(err.Error(), "no answer within 1s") {
		t.Errorf("Run on a silent plugin: events %v, err %v", got, err)
	}
	if hang.Pid() != 0 {
		t.Error("the silent plugin was not stopped")
	}
	// A stream with only its summary says nothing of the candidate: an
	// error naming the plugin, not a failed compile (which was merged into
	// measurements); with events, the result names the task's suite.
	if r, err := b.EvaluateJob(ctx, bench.Job{TaskPath: "suites/s/t", Filename: "k.cu"}); err == nil || !strings.Contains(err.Error(), "plugin bench: its Run stream carried a summary but no compile result") {
		t.Errorf("EvaluateJob with nothing but a summary: %+v, %v", r, err)
	}
	if r, err := b.EvaluateJob(ctx, bench.Job{TaskPath: "suites/s/t", Filename: "k.cu", Settings: bench.Settings{Configs: []string{"one"}}}); err != nil || r.Suite != "s" || r.Task != "t" || r.Verdict == nil || !r.Verdict.Accepted {
		t.Errorf("EvaluateJob with a configuration: %+v, %v", r, err)
	}
	// An error from the callback stops the run and comes back as is.
	stop := errors.New("enough")
	if err := b.Run(ctx, req, func(*pluginv1.RunEvent) error { return stop }); err != stop {
		t.Errorf("callback error: got %v", err)
	}
	// The benchmarker still answers after the stopped stream.
	if _, err := b.Compile(ctx, &pluginv1.CompileRequest{}); err != nil {
		t.Errorf("Compile after a stopped Run: %v", err)
	}
}

// TestPolicyTimeout: a policy's model work has its own limit
// (Options.PolicyTimeout), longer than the request limit of the other
// calls, and a per-call limit still overrides it.
func TestPolicyTimeout(t *testing.T) {
	dir := t.TempDir()
	plugintest.WriteManifest(t, filepath.Join(dir, "echo"), pluginhost.Manifest{
		Name: "echo", Kind: sdk.KindPolicy, Language: "go", Protocol: 1, Command: misbehave(t), Args: []string{"policy"}})
	slow := &pluginv1.GenerateRequest{GroupSize: 1, Prompts: []*pluginv1.Prompt{
		{Id: "p", Messages: []*pluginv1.Message{{Role: "user", Content: "slow"}}}}}
	for _, c := range []struct {
		name           string
		opts           pluginhost.Options
		override       time.Duration
		wantNoAnswerIn string // "" for an answer
	}{
		{"default policy limit", pluginhost.Options{RequestTimeout: time.Second}, 0, ""},
		{"short policy limit", pluginhost.Options{RequestTimeout: time.Minute, PolicyTimeout: time.Second}, 0, "no answer within 1s (the plugin hangs or is too slow); the plugin was stopped; raise --policy-timeout"},
		{"per-call limit", pluginhost.Options{RequestTimeout: time.Minute}, time.Second, "no answer within 1s"},
	} {
		opts := c.opts
		opts.Dirs = []string{dir}
		h := newHost(t, opts)
		p, _ := h.Plugin("echo")
		ctx := context.Background()
		if c.override > 0 {
			ctx = pluginhost.WithRequestTimeout(ctx, c.override)
		}
		g, err := p.Generate(ctx, slow)
		switch {
		case c.wantNoAnswerIn == "" && (err != nil || len(g.GetCompletions()) != 1):
			t.Errorf("%s: a 1.5 s Generate: %v, %v; want its answer", c.name, g, err)
		case c.wantNoAnswerIn != "" && (err == nil || !strings.Contains(err.Error(), c.wantNoAnswerIn)):
			t.Errorf("%s: a 1.5 s Generate: err %v; want %q", c.name, err, c.wantNoAnswerIn)
		}
	}
}

// TestKilledPluginHint: a plugin ended by a SIGKILL the host did not send
// is reported with the likely cause, the kernel's OOM killer, and what to
// do, not as a bug in the plugin.
func TestKilledPluginHint(t *testing.T) {
	dir := t.TempDir()
	plugintest.WriteManifest(t, filepath.Join(dir, "echo"), pluginhost.Manifest{
		Name: "echo", Kind: sdk.KindPolicy, Language: "go", Protocol: 1, Command: misbehave(t), Args: []string{"policy"}})
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	p, _ := h.Plugin("echo")
	_, err := p.Generate(context.Background(), &pluginv1.GenerateRequest{GroupSize: 1, Prompts: []*pluginv1.Prompt{
		{Id: "p", Messages: []*pluginv1.Message{{Role: "user", Content: "sigkill"}}}}})
	var pe *pluginhost.PluginError
	if !errors.As(err, &pe) || !pe.Crash || !strings.Contains(err.Error(), "crashed (signal: killed)") ||
		!strings.Contains(err.Error(), "out-of-memory killer") || strings.Contains(err.Error(), "bug in the plugin") {
		t.Errorf("a plugin killed by SIGKILL: %v; want a crash that names the OOM killer, not a plugin bug", err)
	}
}

// TestEscapedExceptionHint: an error that escaped a plugin's handler
// (gRPC's Unknown, as Python's server reports an exception) is named as a
// bug in the plugin or what it runs (with its stderr lines when they have
// arrived: they stream in apart from the answer), without gRPC's wording;
// the plugin stays usable.
func TestEscapedExceptionHint(t *testing.T) {
	dir := t.TempDir()
	plugintest.WriteManifest(t, filepath.Join(dir, "echo"), pluginhost.Manifest{
		Name: "echo", Kind: sdk.KindPolicy, Language: "go", Protocol: 1, Command: misbehave(t), Args: []string{"policy"}})
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	p, _ := h.Plugin("echo")
	gen := func(text string) error {
		_, err := p.Generate(context.Background(), &pluginv1.GenerateRequest{GroupSize: 1, Prompts: []*pluginv1.Prompt{
			{Id: "p", Messages: []*pluginv1.Message{{Role: "user", Content: text}}}}})
		return err
	}
	err := gen("raise")
	if err == nil || !strings.Contains(err.Error(), "Generate: model exploded") || strings.Contains(err.Error(), "Exception calling application") ||
		!strings.Contains(err.Error(), "escaped the plugin's handler") {
		t.Errorf("escaped exception: %v", err)
	}
	if err := gen("fine"); err != nil {
		t.Errorf("the plugin is not usable after the error: %v", err)
	}
}

func TestPolicyCalls(t *testing.T) {
	dir := t.TempDir()
	plugintest.WriteManifest(t, filepath.Join(dir, "echo"), pluginhost.Manifest{
		Name: "echo", Kind: sdk.KindPolicy, Language: "go", Protocol: 1, Command: misbehave(t), Args: []string{"policy"}})
	h := newHost(t, pluginhost.Options{Dirs: []string{dir}})
	ctx := context.Background()
	p, _ := h.Plugin("echo")
	d, err := p.DescribePolicy(ctx)
	if err != nil || !d.GetCanUpdate() || d.GetModel() != "echo" {
		t.Fatalf("Describe = %v, %v", d, err)
	}
	g, err := p.Generate(ctx, &pluginv1.GenerateRequest{GroupSize: 2, Prompts: []*pluginv1.Prompt{
		{Id: "a", Messages: []*pluginv1.Message{{Role: "user", Content: "write saxpy"}}}}})
	if err != nil || len(g.GetCompletions()) != 2 || g.GetCompletions()[1].GetText() != "write saxpy#1" || g.GetCompletions()[1].GetPromptId() != "a" {
		t.Errorf("Generate = %v, %v", g, err)
	}
	u, err := p.Update(ctx, &pluginv1.UpdateRequest{Rollouts: []*pluginv1.Rollout{{Advantage: 1.5}, {Advantage: -0.5}}})
	if err != nil || u.GetStats()["rollouts"] != 2 || u.GetStats()["advantage_sum"] != 1 {
		t.Errorf("Update = %v, %v", u, err)
	}
	if err := p.Save(ctx, "/ckpt/1"); err != nil {
		t.Error(err)
	}
	if err := p.Load(ctx, "/ckpt/1", false); err != nil {
		t.Error(err)
	}
	// An error the plugin returns is reported with its name and leaves it
	// usable; weights_only reaches the plugin.
	err = p.Load(ctx, "/ckpt/2", true)
	if err == nil || !strings.Contains(err.Error(), `plugin "echo"`) || !strings.Contains(err.Error(), "NotFound: nothing saved at /ckpt/2 (weights only: true)") {
		t.Errorf("Load of a missing checkpoint: %v", err)
	}
	if p.Pid() == 0 || p.Err() != nil {
		t.Errorf("a returned error stopped the plugin: %v", p.Err())
	}
}
