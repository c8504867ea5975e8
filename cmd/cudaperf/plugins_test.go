package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

var (
	installOnce sync.Once
	installDir  string // holds cudaperf and plugins/{textcount,synccount}, as make build lays them out
	misbehave   string
)

// installed builds cudaperf with the two example plugins next to it, once,
// and returns the cudaperf path.
func installed(t *testing.T) string {
	t.Helper()
	installOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cudaperf-plugins-test")
		if err != nil {
			t.Fatal(err)
		}
		plugintest.BuildGo(t, "cmd/cudaperf", dir)
		plugintest.InstallGo(t, "plugins/examples/textcount", filepath.Join(dir, "plugins"))
		plugintest.InstallPython(t, "plugins/python/examples/synccount", filepath.Join(dir, "plugins"))
		misbehave = plugintest.BuildGo(t, "host/pluginhost/testdata/misbehave", dir)
		installDir = dir
	})
	if installDir == "" {
		t.Fatal("installing cudaperf and its plugins failed in an earlier test")
	}
	return filepath.Join(installDir, "cudaperf")
}

// cudaperf runs the installed binary in the module root (so example paths
// are relative) with an empty $CUDAPERF_PLUGIN_PATH.
func cudaperf(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(installed(t), args...)
	cmd.Dir = plugintest.ModuleRoot(t)
	cmd.Env = append(os.Environ(), pluginhost.PathEnv+"=")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestPluginsListJSON(t *testing.T) {
	out, stderr, code := cudaperf(t, "plugins", "list", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, p := range got {
		p["path"] = filepath.Base(filepath.Dir(p["path"].(string))) + "/" + filepath.Base(p["path"].(string))
		delete(p, "description")
	}
	want := []map[string]any{
		{"name": "synccount-py", "kind": "analyzer", "language": "python", "version": "0.2.0", "protocol": 1.0, "path": "synccount/plugin.yaml", "status": "ok"},
		{"name": "textcount", "kind": "analyzer", "language": "go", "version": "0.2.0", "protocol": 1.0, "path": "textcount/plugin.yaml", "status": "ok"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("plugins list (-want +got):\n%s", d)
	}
}

func TestPluginsListReportsBrokenPluginsAndFails(t *testing.T) {
	extra := t.TempDir()
	if err := os.Mkdir(filepath.Join(extra, "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(extra, "broken", "plugin.yaml"), []byte("name: broken\nkind: analyzer\nprotocol: 1\ncommand: x\nlanguage: go\nversion: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	installed(t)
	plugintest.WriteManifest(t, filepath.Join(extra, "crashy"), pluginhost.Manifest{
		Name: "crashy", Kind: sdk.KindAnalyzer, Language: "go", Protocol: 1, Command: misbehave, Args: []string{"stdout"}})

	out, stderr, code := cudaperf(t, "--plugin-dir", extra, "plugins", "list")
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 7 {
			rows[f[0]] = strings.Join(f[1:6], " ")
		}
	}
	wantRows := map[string]string{
		"NAME":         "KIND LANGUAGE VERSION PROTOCOL STATUS",
		"broken":       "- - - 0 error",
		"crashy":       "analyzer go - 1 error",
		"synccount-py": "analyzer python 0.2.0 1 ok",
		"textcount":    "analyzer go 0.2.0 1 ok",
	}
	if d := cmp.Diff(wantRows, rows); d != "" {
		t.Errorf("plugins list rows (-want +got):\n%s", d)
	}
	for _, want := range []string{
		`plugin "broken"`, "broken/plugin.yaml", "field version not found", "fix the manifest",
		`plugin "crashy"`, "wrote to stdout before the handshake",
		"2 of 4 plugins failed",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	// Listed by kind, a broken manifest that may be an analyzer is still
	// listed, and fails the listing (lint counts it as a failure; it was
	// left out, exit 0).
	out, _, code = cudaperf(t, "--plugin-dir", extra, "plugins", "list", "--kind", "analyzer")
	if code != exitFailure || !strings.Contains(out, "broken") || !strings.Contains(out, "crashy") {
		t.Errorf("--kind analyzer: exit %d, want %d, with broken and crashy listed:\n%s", code, exitFailure, out)
	}
}

func TestPluginsDescribe(t *testing.T) {
	out, stderr, code := cudaperf(t, "plugins", "describe", "textcount")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"textcount 0.2.0 (analyzer, go, protocol 1)", "syncthreads", "TC001  warning"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe lacks %q:\n%s", want, out)
		}
	}
	out, _, code = cudaperf(t, "plugins", "describe", "--format", "json", "synccount-py")
	var d struct {
		Name     string `json:"name"`
		Describe struct {
			Checks []struct {
				ID              string `json:"id"`
				DefaultSeverity string `json:"default_severity"`
			} `json:"checks"`
		} `json:"describe"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if d.Name != "synccount-py" || len(d.Describe.Checks) != 1 || d.Describe.Checks[0].ID != "SC001" || d.Describe.Checks[0].DefaultSeverity != "SEVERITY_WARNING" {
		t.Errorf("describe json = %+v", d)
	}
	_, stderr, code = cudaperf(t, "plugins", "describe", "nosuch")
	if code != exitUsage || !strings.Contains(stderr, `no plugin named "nosuch"; installed: synccount-py, textcount`) {
		t.Errorf("unknown plugin: exit %d, %s", code, stderr)
	}
}

func TestPluginsAnalyzeExamples(t *testing.T) {
	out, stderr, code := cudaperf(t, "plugins", "analyze", "--format", "json", "examples/kernels")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	golden := filepath.Join("testdata", "plugins_analyze_examples.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/cudaperf -run TestPluginsAnalyzeExamples -update)", err)
	}
	if d := cmp.Diff(string(want), out); d != "" {
		t.Errorf("plugins analyze examples/kernels (-golden +got):\n%s", d)
	}
}

func TestVersionAndUsageErrors(t *testing.T) {
	out, _, code := cudaperf(t, "version")
	if code != 0 || !strings.HasPrefix(out, "cudaperf ") || !strings.Contains(out, "plugin protocol 1 (cudaperf.plugin.v1)") {
		t.Errorf("version: exit %d\n%s", code, out)
	}
	out, _, _ = cudaperf(t, "version", "--format", "json")
	var v versionJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.PluginProtocol != 1 || v.Go == "" {
		t.Errorf("version json: %v %+v", err, v)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"version", "--format", "xml"}, `--format "xml": use text or json`},
		{[]string{"--plugin-dir", "/does/not/exist", "plugins", "list"}, "--plugin-dir /does/not/exist: not a folder"},
		{[]string{"plugins", "list", "--kind", "linter"}, `--kind "linter"`},
		{[]string{"plugins", "analyze"}, "needs at least one file or folder"},
		{[]string{"plugins", "analyze", "nosuch.cu"}, "nosuch.cu: no such file or directory"},
		// With a readable file beside it, as lint: exit 2, not 3.
		{[]string{"plugins", "analyze", "examples/kernels/saxpy.cu", "nosuch.cu"}, "1 input(s) could not be read"},
	} {
		_, stderr, code := cudaperf(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}

// TestNoOrphansWhenHostIsKilled starts the real cudaperf with a Go plugin, a
// Python plugin, a hanging plugin and one that has a child process, kills
// cudaperf while it waits, and checks every plugin process goes away.
func TestNoOrphansWhenHostIsKilled(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			bin := installed(t)
			extra := t.TempDir()
			for _, mode := range []string{"hang", "spawn"} {
				plugintest.WriteManifest(t, filepath.Join(extra, mode), pluginhost.Manifest{
					Name: mode, Kind: sdk.KindAnalyzer, Language: "go", Protocol: 1, Command: misbehave, Args: []string{mode}})
			}
			cmd := exec.Command(bin, "--plugin-dir", extra, "--plugin-timeout", "5m", "plugins", "analyze", "examples/kernels/saxpy.cu")
			cmd.Dir = plugintest.ModuleRoot(t)
			cmd.Env = append(os.Environ(), pluginhost.PathEnv+"=")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until all four plugins run and the spawn plugin's child
			// (sleep) exists.
			var pids []int
			deadline := time.Now().Add(20 * time.Second)
			for time.Now().Before(deadline) {
				pids = pids[:0]
				for _, c := range plugintest.Children(t, cmd.Process.Pid) {
					pids = append(pids, c)
					pids = append(pids, plugintest.Children(t, c)...)
				}
				if len(pids) >= 5 {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if len(pids) < 5 {
				_ = cmd.Process.Kill()
				t.Fatalf("expected 4 plugins and 1 grandchild under cudaperf, found %v\n%s", pids, stderr.String())
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if sig != syscall.SIGKILL {
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != exitFailure || !strings.Contains(stderr.String(), "interrupted by") {
					t.Errorf("after %v: %v, stderr:\n%s", sig, err, stderr.String())
				}
			}
			for _, pid := range pids {
				cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
				if !plugintest.WaitGone(pid, 5*time.Second) {
					t.Errorf("plugin process %d (%s) outlived cudaperf (%v)", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}), sig)
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		})
	}
}
