package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

var (
	extraOnce sync.Once
	extraDir  string // textcount, synccount-py and a crashing misbehave, installed apart from the built-in analyzer
)

// extraPlugins installs the two example plugins (and, under crash/, a
// plugin that crashes on every request) in a folder of their own, given
// to cudaperf with --plugin-dir; lintInstalled's cudaperf finds the
// built-in analyzer next to itself.
func extraPlugins(t *testing.T) string {
	t.Helper()
	extraOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cudaperf-authoring-test")
		if err != nil {
			t.Fatal(err)
		}
		plugintest.InstallGo(t, "plugins/examples/textcount", filepath.Join(dir, "ex"))
		plugintest.InstallPython(t, "plugins/python/examples/synccount", filepath.Join(dir, "ex"))
		bin := plugintest.BuildGo(t, "host/pluginhost/testdata/misbehave", dir)
		plugintest.WriteManifest(t, filepath.Join(dir, "crash", "crashy"), pluginhost.Manifest{
			Name: "crashy", Kind: sdk.KindAnalyzer, Language: "go", Protocol: 1, Command: bin, Args: []string{"crash"}})
		plugintest.WriteManifest(t, filepath.Join(dir, "nostart", "nostart"), pluginhost.Manifest{
			Name: "nostart", Kind: sdk.KindAnalyzer, Language: "go", Protocol: 1, Command: bin, Args: []string{"startexit"}})
		extraDir = dir
	})
	if extraDir == "" {
		t.Fatal("installing the example plugins failed in an earlier test")
	}
	return extraDir
}

// lintWith runs the lint-installed cudaperf with extra plugin folders in a
// folder holding strided.cu and the given .cudaperf.yaml ("" for none).
func lintWith(t *testing.T, config string, args ...string) (string, string, int) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(plugintest.ModuleRoot(t), "cmd/cudaperf/testdata/lint/strided.cu"))
	if err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(dir, "k.cu"), append(src, []byte("__global__ void __launch_bounds__(128)\nshared_only(float *x) {\n  __shared__ float t[32];\n  t[threadIdx.x] = x[threadIdx.x];\n  x[threadIdx.x] = t[31 - threadIdx.x];\n}\n")...), 0o644)
	if config != "" {
		_ = os.WriteFile(filepath.Join(dir, ".cudaperf.yaml"), []byte(config), 0o644)
	}
	return runIn(t, dir, nil, args...)
}

func featureRows(t *testing.T, out string) map[string]map[string]any {
	t.Helper()
	var rows []struct {
		Kernel   string         `json:"kernel"`
		Features map[string]any `json:"features"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("features output is not JSON: %v\n%s", err, out)
	}
	m := map[string]map[string]any{}
	for _, r := range rows {
		m[r.Kernel] = r.Features
	}
	return m
}

// TestPluginFeatureNamesAreStable: a plugin's features are
// "<plugin>.<feature>" whether it is the only extra plugin or not, and
// never merge into the built-in feature of the same name; the phantom
// __launch_bounds__ kernel of the regex examples is gone.
func TestPluginFeatureNamesAreStable(t *testing.T) {
	ex := filepath.Join(extraPlugins(t), "ex")
	for _, sel := range [][]string{{"--plugins", "cudaperf-analyzer,textcount"}, nil} {
		args := append(append([]string{"--plugin-dir", ex}, sel...), "features", "k.cu")
		out, errOut, code := lintWith(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", sel, code, errOut)
		}
		rows := featureRows(t, out)
		if _, ok := rows["__launch_bounds__"]; ok {
			t.Errorf("%v: a kernel named __launch_bounds__ was reported", sel)
		}
		k := rows["shared_only"]
		if k["textcount.shared_decls"] != 1.0 || k["textcount.kernels"] != 2.0 {
			t.Errorf("%v: shared_only features = %v, want textcount.shared_decls 1, textcount.kernels 2", sel, k)
		}
		if _, ok := k["kernels"]; !ok {
			t.Errorf("%v: the built-in kernels feature is missing: %v", sel, k)
		}
		_, py := k["synccount-py.syncthreads"]
		if py != (sel == nil) {
			t.Errorf("%v: synccount-py.syncthreads present = %v", sel, py)
		}
	}
}

// TestChoosingPlugins: --no-plugins and plugins.disable leave a plugin
// out (its findings and features disappear); an unknown name is a usage
// error naming the installed plugins.
func TestChoosingPlugins(t *testing.T) {
	ex := filepath.Join(extraPlugins(t), "ex")
	out, _, _ := lintWith(t, "", "--plugin-dir", ex, "lint", "k.cu")
	if !strings.Contains(out, "[TC001]") {
		t.Fatalf("textcount's TC001 not reported with every plugin:\n%s", out)
	}
	out, _, _ = lintWith(t, "", "--plugin-dir", ex, "--no-plugins", "textcount", "lint", "k.cu")
	if strings.Contains(out, "[TC001]") || !strings.Contains(out, "[coalescing]") {
		t.Errorf("--no-plugins textcount:\n%s", out)
	}
	out, _, _ = lintWith(t, "", "--plugin-dir", ex, "lint", "--no-plugins", "textcount", "k.cu")
	if strings.Contains(out, "[TC001]") || !strings.Contains(out, "[coalescing]") {
		t.Errorf("lint --no-plugins textcount (the flag after the command):\n%s", out)
	}
	out, _, _ = lintWith(t, "version: 1\nplugins:\n  disable: [textcount]\n", "--plugin-dir", ex, "lint", "k.cu")
	if strings.Contains(out, "[TC001]") {
		t.Errorf("plugins.disable textcount:\n%s", out)
	}
	// A setting of a left-out plugin's check is still refused (a typo
	// must not pass), naming the plugin and the fix; with every analyzer
	// left out, lint says so (it said none was installed: "make build").
	_, errOut, code := lintWith(t, "version: 1\nplugins:\n  disable: [textcount]\nlint:\n  settings:\n    TC001: {accept-syncwarp: true}\n", "--plugin-dir", ex, "lint", "k.cu")
	if code != 2 || !strings.Contains(errOut, `unknown check "TC001"`) || !strings.Contains(errOut, "if it belongs to textcount, left out by") {
		t.Errorf("a left-out plugin's setting: exit %d, stderr %s", code, errOut)
	}
	// A bad value of a check in use gets no such hint.
	_, errOut, code = lintWith(t, "version: 1\nplugins:\n  disable: [textcount]\nlint:\n  settings:\n    coalescing: {min-ratio: -1}\n", "--plugin-dir", ex, "lint", "k.cu")
	if code != 2 || !strings.Contains(errOut, "below the option's minimum") || strings.Contains(errOut, "left out") {
		t.Errorf("a bad value with a plugin left out: exit %d, stderr %s", code, errOut)
	}
	_, errOut, code = lintWith(t, "", "--no-plugins", "cudaperf-analyzer", "lint", "k.cu")
	if code != 2 || !strings.Contains(errOut, "every analyzer plugin (cudaperf-analyzer) is left out") {
		t.Errorf("every analyzer left out: exit %d, stderr %s", code, errOut)
	}
	_, errOut, code = lintWith(t, "", "--plugin-dir", ex, "--plugins", "txtcount", "lint", "k.cu")
	if code != 2 || !strings.Contains(errOut, `no plugin named "txtcount"`) || !strings.Contains(errOut, "textcount") {
		t.Errorf("unknown plugin: exit %d, stderr %s", code, errOut)
	}
	// A Python plugin's own installed folder (plugin.yaml beside lib/).
	out, errOut, code = lintWith(t, "", "--plugin-dir", filepath.Join(ex, "synccount"), "--plugins", "synccount-py", "features", "k.cu")
	if code != 0 || !strings.Contains(out, "synccount-py.syncthreads") {
		t.Errorf("--plugin-dir at synccount's folder: exit %d\n%s%s", code, out, errOut)
	}
}

// TestAnalyzerThatCannotStartWithAConfig: an analyzer that exits at
// start-up fails its own part, with a configuration as without one; the
// built-in analyzer's findings are still printed (the configuration check
// asked every analyzer first and ended the run, exit 3 and no output).
func TestAnalyzerThatCannotStartWithAConfig(t *testing.T) {
	dir := filepath.Join(extraPlugins(t), "nostart")
	for _, cfg := range []string{"", "version: 1\nlint:\n  disable: [gridsize]\n"} {
		out, errOut, code := lintWith(t, cfg, "--plugin-dir", dir, "lint", "--no-score", "k.cu")
		if code != 3 || !strings.Contains(out, "[coalescing]") || !strings.Contains(errOut, "nostart") {
			t.Errorf("config %q: exit %d, want 3 with the built-in findings and nostart's failure\nstdout:\n%s\nstderr:\n%s", cfg, code, out, errOut)
		}
	}
	// A bad value of an option of an analyzer that answered is still
	// refused (the whole check had been skipped).
	_, errOut, code := lintWith(t, "version: 1\nlint:\n  settings:\n    coalescing: {min-ratio: abc}\n", "--plugin-dir", dir, "lint", "--no-score", "k.cu")
	if code != 2 || !strings.Contains(errOut, `lint.settings.coalescing.min-ratio: "abc" is not a float`) {
		t.Errorf("a bad value beside an analyzer that cannot start: exit %d, stderr:\n%s", code, errOut)
	}
}

// TestSettingsAreValidatedAndReachChecks: lint.settings of a built-in pass
// and of a plugin reach them; an unknown key, a wrong type or a value out
// of bounds is a configuration error naming the known options.
func TestSettingsAreValidatedAndReachChecks(t *testing.T) {
	ex := filepath.Join(extraPlugins(t), "ex")
	out, errOut, code := lintWith(t, "version: 1\nlint:\n  settings:\n    coalescing: {min-ratio: 100}\n", "--plugin-dir", ex, "--plugins", "cudaperf-analyzer", "lint", "k.cu")
	if strings.Contains(out, "[coalescing]") || code == 2 || code == 3 {
		t.Errorf("min-ratio 100 did not reach the pass (exit %d):\n%s%s", code, out, errOut)
	}
	_, errOut, code = lintWith(t, "version: 1\nlint:\n  settings:\n    coalescing: {min_ratio: 3}\n", "lint", "k.cu")
	if code != 2 || !strings.Contains(errOut, "lint.settings.coalescing.min_ratio: unknown option") || !strings.Contains(errOut, "min-ratio (float, default 2, at least 1)") {
		t.Errorf("unknown option: exit %d, stderr %s", code, errOut)
	}
	// The bound travels from the pass through the analyzer plugin's
	// Describe to the host's validation.
	_, errOut, code = lintWith(t, "version: 1\nlint:\n  settings:\n    coalescing: {min-ratio: 0.5}\n", "lint", "k.cu")
	if code != 2 || !strings.Contains(errOut, "lint.settings.coalescing.min-ratio: 0.5 is below the option's minimum, 1") {
		t.Errorf("out of bounds: exit %d, stderr %s", code, errOut)
	}
	_, errOut, code = lintWith(t, "version: 1\nlint:\n  settings:\n    TC001: {accept-syncwarp: maybe}\n", "--plugin-dir", ex, "lint", "k.cu")
	if code != 2 || !strings.Contains(errOut, `"maybe" is not a bool`) {
		t.Errorf("bad bool: exit %d, stderr %s", code, errOut)
	}
	// What the host accepts reaches the plugins in the form their SDKs
	// read: a quoted " true" and "T" had failed every file in textcount
	// (Go) and synccount-py (Python).
	out, errOut, code = lintWith(t, "version: 1\nlint:\n  settings:\n    TC001: {accept-syncwarp: \" true\"}\n    SC001: {include-switch: T}\n", "--plugin-dir", ex, "lint", "k.cu")
	if code == 2 || code == 3 || strings.Contains(errOut, "TC001") || strings.Contains(errOut, "SC001") {
		t.Errorf("accepted values the plugins could not read: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = lintWith(t, "", "--plugin-dir", ex, "plugins", "describe", "textcount")
	if !strings.Contains(out, "TC001.accept-syncwarp") || !strings.Contains(out, "bool") || !strings.Contains(out, "default false") {
		t.Errorf("plugins describe does not list the option:\n%s", out)
	}
}

// TestDuplicateCheckIDAcrossPlugins: a second copy of textcount under
// another name declares TC001 again; the run goes on, the copy's TC001
// findings are dropped, and an error names both plugins.
func TestDuplicateCheckIDAcrossPlugins(t *testing.T) {
	ex := filepath.Join(extraPlugins(t), "ex")
	dup := t.TempDir()
	plugintest.WriteManifest(t, filepath.Join(dup, "textcount2"), pluginhost.Manifest{Name: "textcount2", Kind: sdk.KindAnalyzer,
		Language: "go", Protocol: 1, Command: filepath.Join(ex, "textcount", "textcount")})
	out, errOut, code := lintWith(t, "", "--plugin-dir", ex, "--plugin-dir", dup, "--plugins", "cudaperf-analyzer,textcount,textcount2", "lint", "k.cu")
	if code != 3 || strings.Count(out, "[TC001]") != 1 || !strings.Contains(errOut, `check id "TC001" is already declared by plugin "textcount"`) ||
		!strings.Contains(errOut, `plugin "textcount2"`) {
		t.Errorf("exit %d (want 3)\n%s%s", code, out, errOut)
	}
}

// TestPluginFailureInJSONAndSARIF: a plugin that crashes makes the JSON
// carry a check "plugin" element and the SARIF run unsuccessful.
func TestPluginFailureInJSONAndSARIF(t *testing.T) {
	crash := filepath.Join(extraPlugins(t), "crash")
	out, _, code := lintWith(t, "", "--plugin-dir", crash, "lint", "--format", "json", "k.cu")
	if code != 3 || !strings.Contains(out, `"check": "plugin"`) || !strings.Contains(out, `"plugin": "crashy"`) || !strings.Contains(out, "crashed") {
		t.Errorf("json: exit %d\n%s", code, out)
	}
	out, _, code = lintWith(t, "", "--plugin-dir", crash, "lint", "--format", "sarif", "k.cu")
	if code != 3 || !strings.Contains(out, `"executionSuccessful": false`) || !strings.Contains(out, `"toolExecutionNotifications"`) {
		t.Errorf("sarif: exit %d\n%s", code, out)
	}
	out, _, _ = lintWith(t, "", "lint", "--format", "sarif", "k.cu")
	if !strings.Contains(out, `"executionSuccessful": true`) {
		t.Errorf("sarif without failures is not successful:\n%s", out)
	}
}

// TestExplainPluginFeatureByItsColumnName: explain knows a plugin's
// feature by the name feature vectors give it.
func TestExplainPluginFeatureByItsColumnName(t *testing.T) {
	ex := filepath.Join(extraPlugins(t), "ex")
	out, errOut, code := lintWith(t, "", "--plugin-dir", ex, "explain", "textcount.syncthreads")
	if code != 0 || !strings.Contains(out, "from plugin textcount") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}
