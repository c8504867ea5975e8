package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
)

var (
	lintOnce sync.Once
	lintDir  string // cudaperf with the built-in analyzer plugin, as make build lays them out
)

// lintInstalled builds cudaperf and the built-in analyzer plugin once and
// returns the cudaperf path.
func lintInstalled(t *testing.T) string {
	t.Helper()
	lintOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cudaperf-lint-test")
		if err != nil {
			t.Fatal(err)
		}
		plugintest.BuildGo(t, "cmd/cudaperf", dir)
		plugintest.InstallGo(t, "plugins/analyzer", filepath.Join(dir, "plugins"))
		lintDir = dir
	})
	if lintDir == "" {
		t.Fatal("installing cudaperf and the analyzer plugin failed in an earlier test")
	}
	return filepath.Join(lintDir, "cudaperf")
}

// runIn runs the lint-installed cudaperf in dir with extra environment.
func runIn(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runInstalled(t, lintInstalled(t), dir, env, args...)
}

// runInstalled runs an installed cudaperf exe in dir with extra
// environment; plugins come from its own folder only.
func runInstalled(t *testing.T, exe, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), pluginhost.PathEnv+"="), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run cudaperf %v: %v", args, err)
	}
	return o.String(), e.String(), code
}

func lintRun(t *testing.T, args ...string) (string, string, int) {
	return runIn(t, filepath.Join(plugintest.ModuleRoot(t), "cmd/cudaperf/testdata/lint"), nil, args...)
}

var gccLine = regexp.MustCompile(`^[^:]+:\d+:\d+: (error|warning|note): .+ \[[a-z0-9_-]+\]$`)

func TestLintTextFindsStridedAccess(t *testing.T) {
	out, errOut, code := lintRun(t, "lint", "--fail-on", "warning", "strided.cu")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (findings at or above warning)\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		if !gccLine.MatchString(l) {
			t.Errorf("line is not GCC-style file:line:col: severity: message [check]: %q", l)
		}
	}
	if !strings.Contains(out, "strided.cu:4:") || !strings.Contains(out, "[coalescing]") {
		t.Errorf("want a coalescing finding on line 4 of strided.cu, got:\n%s", out)
	}
}

func TestLintSuppressionAndExitCodes(t *testing.T) {
	out, errOut, code := lintRun(t, "lint", "--fail-on", "warning", "suppressed.cu")
	if strings.Contains(out, "[coalescing]") {
		t.Errorf("suppressed finding was printed:\n%s", out)
	}
	if code == 3 || code == 2 {
		t.Errorf("exit %d: %s", code, errOut)
	}
	// Machine formats do not fail on findings unless asked.
	_, _, code = lintRun(t, "lint", "--format", "json", "strided.cu")
	if code != 0 {
		t.Errorf("--format json exit %d, want 0 without --fail-on", code)
	}
	_, errOut, code = lintRun(t, "lint", "--format", "yaml", "strided.cu")
	if code != 2 || !strings.Contains(errOut, "use text, json, sarif or checkstyle") {
		t.Errorf("bad --format: exit %d, stderr %q", code, errOut)
	}
}

func TestLintBadInputsDoNotStopOthers(t *testing.T) {
	out, errOut, code := lintRun(t, "lint", "--format", "json", "missing.cu", "binary.cu", "latin1.cu", "broken.cu", "strided.cu")
	if code != 2 {
		t.Errorf("exit %d, want 2 (an input could not be read); stderr:\n%s", code, errOut)
	}
	if !strings.Contains(errOut, "missing.cu: no such file or directory") {
		t.Errorf("stderr does not name the missing file: %s", errOut)
	}
	var ds []map[string]any
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("stdout is not a JSON array: %v\n%s", err, out)
	}
	byFile := map[string][]string{}
	for _, d := range ds {
		for _, k := range []string{"file", "line", "column", "end_line", "end_column", "severity", "check", "message"} {
			if _, ok := d[k]; !ok {
				t.Errorf("diagnostic lacks %q: %v", k, d)
			}
		}
		byFile[d["file"].(string)] = append(byFile[d["file"].(string)], d["check"].(string))
	}
	has := func(file, check string) bool { return strings.Contains(strings.Join(byFile[file], ","), check) }
	if !has("binary.cu", "input") {
		t.Errorf("binary.cu: want an input diagnostic, got %v", byFile["binary.cu"])
	}
	if !has("broken.cu", "syntax") {
		t.Errorf("broken.cu: want a syntax diagnostic, got %v", byFile["broken.cu"])
	}
	if !has("strided.cu", "coalescing") {
		t.Errorf("strided.cu was not analyzed alongside the bad inputs: %v", byFile)
	}
}

func TestLintSARIFAndCheckstyle(t *testing.T) {
	out, _, code := lintRun(t, "lint", "--format", "sarif", "strided.cu")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("unexpected SARIF: %s", out)
	}
	rules := map[string]bool{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		rules[r.ID] = true
	}
	for _, r := range log.Runs[0].Results {
		if !rules[r.RuleID] {
			t.Errorf("result rule %q missing from the rule table", r.RuleID)
		}
		if u := r.Locations[0].PhysicalLocation.ArtifactLocation.URI; u != "strided.cu" {
			t.Errorf("artifact URI %q, want the relative path strided.cu", u)
		}
	}
	if !rules["syncdivergence"] || !rules["coalescing"] {
		t.Errorf("the rule table should list every built-in check, got %v", rules)
	}
	out, _, _ = lintRun(t, "lint", "--format", "checkstyle", "strided.cu")
	if err := xml.Unmarshal([]byte(out), new(struct{})); err != nil {
		t.Errorf("checkstyle is not XML: %v\n%s", err, out)
	}
}

func TestLintConfigIsValidated(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".cudaperf.yaml"), []byte("version: 1\nlint:\n  disable: [coalescnig]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(filepath.Join(plugintest.ModuleRoot(t), "cmd/cudaperf/testdata/lint/strided.cu"))
	_ = os.WriteFile(filepath.Join(dir, "k.cu"), src, 0o644)
	_, errOut, code := runIn(t, dir, nil, "lint", "k.cu")
	if code != 2 || !strings.Contains(errOut, `unknown check "coalescnig"`) || !strings.Contains(errOut, ".cudaperf.yaml") {
		t.Errorf("misspelled check: exit %d, stderr %q; want 2 naming the file and the check", code, errOut)
	}
	_ = os.WriteFile(filepath.Join(dir, ".cudaperf.yaml"), []byte("version: 1\nlint:\n  disable: [coalescing]\n"), 0o644)
	out, errOut, code := runIn(t, dir, nil, "lint", "k.cu")
	if strings.Contains(out, "[coalescing]") || code == 2 || code == 3 {
		t.Errorf("disabled check still reported (exit %d):\n%s%s", code, out, errOut)
	}
}

func TestFeaturesJSONHasThePaperVector(t *testing.T) {
	out, errOut, code := lintRun(t, "features", "strided.cu")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []struct {
		File     string             `json:"file"`
		Kernel   string             `json:"kernel"`
		Features map[string]float64 `json:"features"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(rows) != 1 || rows[0].Kernel != "strided" || rows[0].File != "strided.cu" {
		t.Fatalf("rows = %+v, want one row for kernel strided", rows)
	}
	for _, k := range paperFeatures {
		if _, ok := rows[0].Features[k]; !ok {
			t.Errorf("feature %q missing from %v", k, rows[0].Features)
		}
	}
	if rows[0].Features["tpb"] != 256 {
		t.Errorf("tpb = %v, want 256 from the launch <<<..., 256>>>", rows[0].Features["tpb"])
	}
	csv, _, _ := lintRun(t, "features", "--format", "csv", "strided.cu")
	if !strings.HasPrefix(csv, "file,kernel,coal,ai,occ,div,xfer,atomics,sync,kernels,tpb,gmem,ops") {
		t.Errorf("CSV header does not start with the paper's vector: %q", strings.SplitN(csv, "\n", 2)[0])
	}
}

func TestExplain(t *testing.T) {
	out, errOut, code := lintRun(t, "explain", "coalescing")
	if code != 0 || !strings.Contains(out, "coalescing (check") || !strings.Contains(out, "option lint.settings.coalescing.min-ratio (float, default 2, at least 1)") {
		t.Errorf("explain coalescing: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = lintRun(t, "explain", "occ")
	if !strings.Contains(out, "unit:") {
		t.Errorf("explain occ (a feature) lacks its unit:\n%s", out)
	}
	for _, f := range []string{"blocks", "threads", "launches_per_call", "gbytes", "flops_call", "dram_bytes", "t_lower_us"} {
		out, _, _ = lintRun(t, "explain", f)
		if !strings.Contains(out, "unit:") || !strings.Contains(out, "Formula:") {
			t.Errorf("explain %s lacks its unit or formula:\n%s", f, out)
		}
	}
	_, errOut, code = lintRun(t, "explain", "nosuchcheck")
	if code != 2 || !strings.Contains(errOut, "known:") {
		t.Errorf("unknown check: exit %d, stderr %q", code, errOut)
	}
	// Every id lint prints can be explained, those cudaperf itself reports
	// (score, suppression, plugin) included.
	out, _, _ = lintRun(t, "lint", "--fail-on", "never", ".")
	ids := map[string]bool{"plugin": true, "suppression": true}
	for _, m := range regexp.MustCompile(`(?m)\[([a-z0-9_-]+)\]$`).FindAllStringSubmatch(out, -1) {
		ids[m[1]] = true
	}
	if !ids["score"] {
		t.Errorf("the lint testdata no longer shows a [score] line:\n%s", out)
	}
	for id := range ids {
		if out, errOut, code := lintRun(t, "explain", id); code != 0 || !strings.Contains(out, id+" (check") {
			t.Errorf("lint prints [%s], but explain %s: exit %d\n%s%s", id, id, code, out, errOut)
		}
	}
}

// TestLauncherCMake builds examples/cmake with cudaperf as
// CMAKE_CUDA_COMPILER_LAUNCHER (alone and chained with ccache), with real
// CMake, Ninja and nvcc.
func TestLauncherCMake(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a CMake project with nvcc")
	}
	nv, err := nvcc.Find()
	if err != nil {
		t.Skipf("no nvcc (%v): run .ci/setup", err)
	}
	for _, tool := range []string{"cmake", "ninja"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed: run .ci/setup", tool)
		}
	}
	exe := lintInstalled(t)
	src := filepath.Join(plugintest.ModuleRoot(t), "examples/cmake")
	build := func(name, launcher string, env ...string) (string, int) {
		dir := filepath.Join(t.TempDir(), name)
		cfg := exec.Command("cmake", "-S", src, "-B", dir, "-G", "Ninja", "-DCMAKE_CUDA_COMPILER="+nv, "-DCMAKE_CUDA_COMPILER_LAUNCHER="+launcher)
		cfg.Env = append(os.Environ(), env...)
		if out, err := cfg.CombinedOutput(); err != nil {
			t.Fatalf("cmake configure: %v\n%s", err, out)
		}
		b := exec.Command("cmake", "--build", dir, "--verbose")
		b.Env = append(os.Environ(), env...)
		out, err := b.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	out, code := build("plain", exe)
	if code != 0 {
		t.Fatalf("build failed (exit %d):\n%s", code, out)
	}
	if !regexp.MustCompile(`transpose\.cu:\d+:\d+: warning: .*\[coalescing\]`).MatchString(out) {
		t.Errorf("build log lacks the coalescing warning for transpose.cu:\n%s", out)
	}
	if _, err := exec.LookPath("ccache"); err == nil {
		out, code = build("ccache", exe+";ccache", "CCACHE_DIR="+t.TempDir())
		if code != 0 || !strings.Contains(out, "[coalescing]") {
			t.Errorf("cudaperf;ccache chain: exit %d\n%s", code, out)
		}
	} else {
		t.Log("ccache not installed: chain not tested")
	}
	out, code = build("werror", exe, "CUDAPERF_WERROR=1")
	if code == 0 || !strings.Contains(out, "CUDAPERF_WERROR=1: failing the build") {
		t.Errorf("CUDAPERF_WERROR=1 with findings: exit %d, want a failed build\n%s", code, out)
	}
}

// The build's context: -D decides #if branches, -I finds the header that
// defines a macro, and compile_commands.json gives both per file.
func TestLintBuildContext(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"k.cu", "include/config.h"} {
		b, err := os.ReadFile(filepath.Join("testdata", "buildctx", f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	small := regexp.MustCompile(`k.cu:8:\d+: warning: a grid of 4 blocks`)
	block := regexp.MustCompile(`k.cu:12:\d+: warning: a block of 100 threads`)
	// Without context: SMALL may come from a header, so both branches are
	// read; BLOCK is unknown.
	out, _, _ := runIn(t, dir, nil, "lint", "--arch", "sm_90", "k.cu")
	if !small.MatchString(out) || block.MatchString(out) {
		t.Errorf("no context:\n%s", out)
	}
	out, _, _ = runIn(t, dir, nil, "lint", "--arch", "sm_90", "-D", "NOT_SMALL", "-I", "include", "k.cu")
	if !small.MatchString(out) || !block.MatchString(out) {
		t.Errorf("-I include: want both findings:\n%s", out)
	}
	// compile_commands.json in build/, found as clang-tidy finds it.
	os.MkdirAll(filepath.Join(dir, "build"), 0o755)
	db := `[{"directory": "` + dir + `/build", "file": "../k.cu", "command": "nvcc -DSMALL=0 -USMALL -I../include -c ../k.cu"}]`
	if err := os.WriteFile(filepath.Join(dir, "build", "compile_commands.json"), []byte(db), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runIn(t, dir, nil, "lint", "--arch", "sm_90", "k.cu")
	if !block.MatchString(out) {
		t.Errorf("compile_commands.json's -I was not used:\n%s", out)
	}
	out, _, _ = runIn(t, dir, nil, "lint", "--arch", "sm_90", "-D", "SMALL", "--compile-commands", "none", "k.cu")
	if !small.MatchString(out) || block.MatchString(out) {
		t.Errorf("-D SMALL without the database:\n%s", out)
	}
	os.WriteFile(filepath.Join(dir, "build", "compile_commands.json"), []byte("{"), 0o644)
	_, errOut, code := runIn(t, dir, nil, "lint", "k.cu")
	if code != 2 || !strings.Contains(errOut, "compile_commands.json is not a JSON compilation database") {
		t.Errorf("a broken database: exit %d, %s", code, errOut)
	}
}

// --new-from-rev reports only what a change added: the old finding of a
// committed file is dropped, the one on a changed line and the ones in an
// untracked file are kept.
func TestLintNewFromRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	old := "__global__ void k(float *x, int s) {\n  x[threadIdx.x * s] = 0.0f;\n}\n"
	os.WriteFile(filepath.Join(dir, "a.cu"), []byte(old), 0o644)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "base")
	os.WriteFile(filepath.Join(dir, "a.cu"), []byte(old+"__global__ void j(float *x, int s) {\n  x[threadIdx.x * s] = 1.0f;\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.cu"), []byte(old), 0o644)
	all, _, _ := runIn(t, dir, nil, "lint", "--fail-on", "never", "a.cu", "b.cu")
	out, _, _ := runIn(t, dir, nil, "lint", "--fail-on", "never", "--new-from-rev", "HEAD", "a.cu", "b.cu")
	if !strings.Contains(all, "a.cu:2:") {
		t.Fatalf("the old finding is not reported without the flag:\n%s", all)
	}
	if strings.Contains(out, "a.cu:2:") || !strings.Contains(out, "a.cu:5:") || !strings.Contains(out, "b.cu:2:") {
		t.Errorf("--new-from-rev HEAD:\n%s", out)
	}
	_, errOut, code := runIn(t, dir, nil, "lint", "--new-from-rev", "nope", "a.cu")
	if code != 2 || !strings.Contains(errOut, `"nope" is not a commit`) {
		t.Errorf("bad revision: exit %d: %s", code, errOut)
	}
}

// TestFeaturesSizesAndStatus checks issue 11's problem-size features and
// the status of each value: --set binds n, the JSON says exact, estimated
// or unknown, and the CSV leaves unknown cells empty.
func TestFeaturesSizesAndStatus(t *testing.T) {
	type row struct {
		Kernel   string             `json:"kernel"`
		Features map[string]float64 `json:"features"`
		Status   map[string]string  `json:"status"`
	}
	read := func(args ...string) row {
		t.Helper()
		out, errOut, code := lintRun(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var rows []row
		if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 {
			t.Fatalf("%v: want one JSON row: %v\n%s", args, err, out)
		}
		return rows[0]
	}
	r := read("features", "--ptxas", "never", "--set", "n=1048576", "strided.cu")
	if r.Features["blocks"] != 4096 || r.Status["blocks"] != "exact" {
		t.Errorf("blocks = %v (%s), want 4096 exact for n = 2^20 and 256 threads", r.Features["blocks"], r.Status["blocks"])
	}
	// Per thread one 4-byte load and one 4-byte store.
	if r.Features["gbytes"] != 8*1048576 {
		t.Errorf("gbytes = %v, want %v", r.Features["gbytes"], 8*1048576)
	}
	if r.Status["occ"] != "estimated" {
		t.Errorf("occ status = %q without ptxas, want estimated", r.Status["occ"])
	}
	r = read("features", "--ptxas", "never", "strided.cu")
	if _, ok := r.Features["blocks"]; ok || r.Status["blocks"] != "unknown" {
		t.Errorf("without a size blocks = %v (%q), want absent and unknown", r.Features["blocks"], r.Status["blocks"])
	}
	csv, _, _ := lintRun(t, "features", "--ptxas", "never", "--format", "csv", "strided.cu")
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	head := strings.Split(lines[0], ",")
	cells := strings.Split(lines[1], ",")
	for i, h := range head {
		if h == "blocks" && cells[i] != "" {
			t.Errorf("CSV blocks cell = %q, want empty (unknown)", cells[i])
		}
	}
	_, errOut, code := lintRun(t, "features", "--set", "n=lots", "strided.cu")
	if code != 2 || !strings.Contains(errOut, "not an integer") {
		t.Errorf("--set n=lots: exit %d, stderr %q; want a usage error", code, errOut)
	}
}

// TestFeaturesTask binds a c2cuda task's primary configuration.
func TestFeaturesTask(t *testing.T) {
	root := plugintest.ModuleRoot(t)
	out, errOut, code := lintRun(t, "features", "--ptxas", "never", "--suites", filepath.Join(root, "bench/suites"), "--task", "vector_add", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 {
		t.Fatalf("want a row per variant kernel, got:\n%s", out)
	}
	head := strings.Split(lines[0], ",")
	col := slices.Index(head, "threads")
	found := false
	for _, l := range lines[1:] {
		cells := strings.Split(l, ",")
		if !strings.HasSuffix(cells[0], "/naive.cu") {
			continue // grid_stride_ilp4 sizes its grid by a queried SM count: unknown
		}
		found = true
		if col < 0 || cells[col] == "" {
			t.Errorf("threads unknown at the task's primary size: %s", l)
		}
	}
	if !found {
		t.Errorf("no row for variants/naive.cu:\n%s", out)
	}
	_, errOut, code = lintRun(t, "features", "--suites", filepath.Join(root, "bench/suites"), "--task", "vector_add", "--task-config", "nosuch")
	if code != 2 || !strings.Contains(errOut, "has configurations") {
		t.Errorf("bad --task-config: exit %d, stderr %q", code, errOut)
	}
}

// TestLauncherPassesPtxas runs the launcher with a stand-in nvcc that
// prints a ptxas report: the findings use its registers ("from ptxas")
// and the report the launcher asked for is not shown.
func TestLauncherPassesPtxas(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "nvcc")
	script := "#!/bin/sh\n" +
		"case \"$*\" in *'-Xptxas -v'*) ;; *) echo 'launcher did not add -Xptxas -v' >&2; exit 3;; esac\n" +
		"cat >&2 <<'EOF'\n" +
		"ptxas info    : Compiling entry function '_Z3bigPf' for 'sm_90'\n" +
		"ptxas info    : Function properties for _Z3bigPf\n" +
		"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n" +
		"ptxas info    : Used 128 registers, 360 bytes cmem[0]\n" +
		"EOF\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "big.cu")
	if err := os.WriteFile(src, []byte("__global__ void big(float *a) { a[threadIdx.x] = 0; }\nvoid run(float *a) { big<<<1, 1024>>>(a); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runIn(t, dir, nil, fake, "-arch=sm_90", "-c", "big.cu", "-o", "big.o")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "128 registers per thread (from ptxas)") {
		t.Errorf("findings do not use the compile's ptxas report:\n%s", errOut)
	}
	if strings.Contains(errOut, "ptxas info") {
		t.Errorf("the ptxas report the launcher asked for is shown:\n%s", errOut)
	}
}

// TestLauncherWarnsOfBrokenManifest: in a build, an analyzer whose
// manifest cannot be used is a warning line (its findings are missing), as
// in lint; the build goes on with the compile's status.
func TestLauncherWarnsOfBrokenManifest(t *testing.T) {
	dir := t.TempDir()
	extra := filepath.Join(dir, "plugins")
	if err := os.MkdirAll(filepath.Join(extra, "b-typo"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(extra, "b-typo", "plugin.yaml"), []byte("name: b-typo\nkind: analyzer\nlanguage: go\nprotocol: 1\ncomand: x\n"), 0o644)
	fake := filepath.Join(dir, "nvcc")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "k.cu"), []byte("__global__ void k(float *a) { a[threadIdx.x] = 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runIn(t, dir, []string{pluginhost.PathEnv + "=" + extra}, fake, "-c", "k.cu", "-o", "k.o")
	if code != 0 || !strings.Contains(errOut, `cudaperf: warning: plugin "b-typo"`) || !strings.Contains(errOut, "field comand not found") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and a warning naming b-typo", code, errOut)
	}
}

// TestPtxasWithoutNvcc: when ptxas is asked for and nvcc cannot run, lint
// and features exit 3 with the message that says how to point at nvcc
// (they used to panic on the missing result).
func TestPtxasWithoutNvcc(t *testing.T) {
	env := []string{"CUDAPERF_NVCC=/nonexistent/nvcc"}
	for _, args := range [][]string{
		{"lint", "--ptxas", "strided.cu"},
		{"features", "--ptxas", "always", "strided.cu"},
	} {
		dir := filepath.Join(plugintest.ModuleRoot(t), "cmd/cudaperf/testdata/lint")
		out, errOut, code := runIn(t, dir, env, args...)
		if code != exitFailure || strings.Contains(errOut, "panic") || !strings.Contains(errOut, "CUDAPERF_NVCC=/nonexistent/nvcc is not an executable file") {
			t.Errorf("cudaperf %v: exit %d, stderr:\n%s\nwant exit %d and the nvcc message", args, code, errOut, exitFailure)
		}
		if out != "" {
			t.Errorf("cudaperf %v: stdout %q, want nothing", args, out)
		}
	}
}

// TestLintReportsBrokenManifest: an analyzer whose manifest cannot be used
// has no kind, so it used to vanish from lint without a word (exit 0); its
// findings are missing all the same, so lint names it and exits 3, in the
// text and the JSON output, while the other analyzers' findings print.
func TestLintReportsBrokenManifest(t *testing.T) {
	extra := t.TempDir()
	if err := os.MkdirAll(filepath.Join(extra, "b-typo"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(extra, "b-typo", "plugin.yaml"), []byte("name: b-typo\nkind: analyzer\nlanguage: go\nprotocol: 1\ncomand: x\n"), 0o644)
	out, errOut, code := lintWith(t, "", "--plugin-dir", extra, "lint", "--fail-on", "never", "k.cu")
	if code != exitFailure || !strings.Contains(errOut, `plugin "b-typo"`) || !strings.Contains(errOut, "field comand not found") {
		t.Errorf("text: exit %d, stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out, "[coalescing]") {
		t.Errorf("the built-in analyzer's findings are missing:\n%s", out)
	}
	out, _, code = lintWith(t, "", "--plugin-dir", extra, "lint", "--format", "json", "k.cu")
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out)
	}
	found := false
	for _, d := range got {
		found = found || d["check"] == "plugin" && strings.Contains(fmt.Sprint(d["message"]), "b-typo")
	}
	if code != exitFailure || !found {
		t.Errorf("JSON: exit %d, no plugin failure naming b-typo:\n%s", code, out)
	}
}

// TestMachineFormatsFailWhenTheConfigAsks: a config's fail-on applies to
// json too; an explicit "error" was read as the default, so an error
// finding passed while the looser "warning" failed.
func TestMachineFormatsFailWhenTheConfigAsks(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(plugintest.ModuleRoot(t), "cmd/cudaperf/testdata/lint/broken.cu"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		config string
		want   int
	}{
		{"", 0},
		{"version: 1\n", 0},
		{"version: 1\nlint:\n  fail-on: error\n", 1},
		{"version: 1\nlint:\n  fail-on: warning\n", 1},
		{"version: 1\nlint:\n  fail-on: never\n", 0},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "broken.cu"), src, 0o644)
		if c.config != "" {
			os.WriteFile(filepath.Join(dir, ".cudaperf.yaml"), []byte(c.config), 0o644)
		}
		_, errOut, code := runIn(t, dir, nil, "lint", "--arch", "sm_90", "--format", "json", "broken.cu")
		if code != c.want {
			t.Errorf("config %q: exit %d, want %d\n%s", c.config, code, c.want, errOut)
		}
	}
}

// TestConfigOfLintsOwnChecks: lint's own suppression check can be disabled
// like a plugin's (explain lists it as a check; disabling it was "unknown
// check"), and the nvcc launcher warns of a configuration lint refuses (a
// mistyped check was used in builds without a word).
func TestConfigOfLintsOwnChecks(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "k.cu"), []byte("__global__ void k(float *a) {\n  a[threadIdx.x] = 0; // cudaperf:ignore coalescing nothing to silence here\n}\n"), 0o644)
	out, errOut, code := runIn(t, dir, nil, "lint", "--arch", "sm_90", "--no-score", "k.cu")
	if !strings.Contains(out, "[suppression]") {
		t.Fatalf("no suppression note to disable (exit %d):\n%s%s", code, out, errOut)
	}
	os.WriteFile(filepath.Join(dir, ".cudaperf.yaml"), []byte("version: 1\nlint:\n  disable: [suppression]\n"), 0o644)
	out, errOut, code = runIn(t, dir, nil, "lint", "--arch", "sm_90", "--no-score", "k.cu")
	if code != 0 || strings.Contains(out, "[suppression]") {
		t.Errorf("disable: [suppression]: exit %d\n%s%s", code, out, errOut)
	}
	os.WriteFile(filepath.Join(dir, ".cudaperf.yaml"), []byte("version: 1\nlint:\n  disable: [coalesing]\n"), 0o644)
	fake := filepath.Join(dir, "nvcc")
	os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755)
	_, errOut, code = runIn(t, dir, nil, fake, "-c", "k.cu", "-o", "k.o")
	if code != 0 || !strings.Contains(errOut, `cudaperf: warning: config:`) || !strings.Contains(errOut, `unknown check "coalesing"`) {
		t.Errorf("launcher with a mistyped check: exit %d, stderr:\n%s", code, errOut)
	}
}
