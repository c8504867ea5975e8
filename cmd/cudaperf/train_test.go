package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
)

var (
	rlOnce sync.Once
	rlDir  string // cudaperf with replay, recorded and the analyzer, as make build lays them out
)

// rlInstalled builds cudaperf and the offline RL plugins once.
func rlInstalled(t *testing.T) string {
	t.Helper()
	rlOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cudaperf-rl-test")
		if err != nil {
			t.Fatal(err)
		}
		plugintest.BuildGo(t, "cmd/cudaperf", dir)
		for _, p := range []string{"plugins/policy/replay", "plugins/recorded", "plugins/analyzer"} {
			plugintest.InstallGo(t, p, filepath.Join(dir, "plugins"))
		}
		rlDir = dir
	})
	if rlDir == "" {
		t.Fatal("installing cudaperf and the RL plugins failed in an earlier test")
	}
	return filepath.Join(rlDir, "cudaperf")
}

// rlCommand runs in the module root (the suite's paths are relative).
func rlCommand(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(rlInstalled(t), args...)
	cmd.Dir = plugintest.ModuleRoot(t)
	cmd.Env = append(os.Environ(), pluginhost.PathEnv+"=")
	return cmd
}

func rlRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := rlCommand(t, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), 0
}

// writeRunConfig writes examples/rl/offline.yaml with another name, root
// and step count.
func writeRunConfig(t *testing.T, root, name string, steps int, extra string) string {
	b, err := os.ReadFile(filepath.Join(plugintest.ModuleRoot(t), "examples", "rl", "offline.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "name: offline-demo", "name: "+name+"\nroot: "+root, 1)
	s = strings.Replace(s, "steps: 20", "steps: "+itoa(steps), 1)
	p := filepath.Join(root, name+".yaml")
	if err := os.WriteFile(p, []byte(s+extra), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// editFile replaces the first old in the file at path with new; a test
// whose edit no longer applies (the example config changed) fails here.
func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), old) {
		t.Fatalf("%s: cannot replace %q (%v)", path, old, err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func metricsOf(t *testing.T, dir string) []grpo.Metrics {
	ms, err := grpo.ReadMetrics(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// The offline demo, as CI runs it: real replay and recorded plugin
// processes; the mean reward rises over 20 steps.
func TestTrainOfflineRewardRises(t *testing.T) {
	root := t.TempDir()
	cfg := writeRunConfig(t, root, "rises", 20, "")
	out, errOut, code := rlRun(t, "train", "--config", cfg)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	ms := metricsOf(t, filepath.Join(root, "rises"))
	if len(ms) != 20 {
		t.Fatalf("%d steps in metrics.jsonl", len(ms))
	}
	var first, last float64
	for i := range 5 {
		first += ms[i].RewardMean / 5
		last += ms[15+i].RewardMean / 5
	}
	t.Logf("mean reward, steps 1–5: %.3f; steps 16–20: %.3f", first, last)
	if last < first+0.1 {
		t.Errorf("the mean reward did not rise: %.3f → %.3f", first, last)
	}
	for _, m := range ms {
		if m.NotRecorded > 0 {
			t.Errorf("step %d: %d candidates not recorded (replay proposes only measured variants)", m.Step, m.NotRecorded)
		}
	}
	if !strings.Contains(out, "step 20/20") {
		t.Errorf("no per-step line in the output:\n%s", out)
	}
}

// Killed (SIGKILL, host and plugins) in the middle of a step, then
// resumed: the same metrics and the same final state as a run that was
// never interrupted.
func TestTrainKillAndResume(t *testing.T) {
	root := t.TempDir()
	const steps = 6
	whole := writeRunConfig(t, root, "whole", steps, "")
	if out, errOut, code := rlRun(t, "train", "--config", whole); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	killed := writeRunConfig(t, root, "killed", steps, "")
	cmd := rlCommand(t, "train", "--config", killed)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill during step 3: once step 2 is in metrics.jsonl, the process is
	// working on step 3 (each step takes a while: two turns of 32 candidates).
	deadline := time.Now().Add(2 * time.Minute)
	for len(metricsOf(t, filepath.Join(root, "killed"))) < 2 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("step 2 never finished")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	n := len(metricsOf(t, filepath.Join(root, "killed")))
	if n >= steps {
		t.Fatalf("the run finished (%d steps) before it was killed", n)
	}
	out, errOut, code := rlRun(t, "train", "--config", killed, "--resume")
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "resumed after step") {
		t.Errorf("resume did not say where it continued:\n%s", out)
	}
	a, b := metricsOf(t, filepath.Join(root, "whole")), metricsOf(t, filepath.Join(root, "killed"))
	for i := range a {
		a[i].Time, a[i].Stage = "", nil
	}
	for i := range b {
		b[i].Time, b[i].Stage = "", nil
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("metrics after kill + resume differ from the uninterrupted run:\n%s\n%s", ja, jb)
	}
	for _, f := range []string{"checkpoints/step-000006/state.json", "checkpoints/step-000006/policy/replay.json"} {
		fa, _ := os.ReadFile(filepath.Join(root, "whole", f))
		fb, _ := os.ReadFile(filepath.Join(root, "killed", f))
		if len(fa) == 0 || !bytes.Equal(fa, fb) {
			t.Errorf("%s differs after kill + resume", f)
		}
	}
	if _, errOut, code := rlRun(t, "train", "--config", killed); code != 2 || !strings.Contains(errOut, "--resume") {
		t.Errorf("a second run into the same folder: exit %d, %s", code, errOut)
	}
}

// Reward mode both through the analyzer plugin and the built-in ranker:
// Rstr is measured and enters the reward.
func TestTrainModeBothUsesTheRanker(t *testing.T) {
	root := t.TempDir()
	cfg := writeRunConfig(t, root, "both", 2, "")
	editFile(t, cfg, "reward: {mode: ver}", "reward: {mode: both}")
	out, errOut, code := rlRun(t, "train", "--config", cfg)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "str_on is code") {
		t.Errorf("the default gate was warned about:\n%s", out)
	}
	// The paper's literal reward is allowed, with a note on what it did.
	lit := writeRunConfig(t, root, "both-code", 1, "")
	editFile(t, lit, "reward: {mode: ver}", "reward: {mode: both, str_on: code}")
	if out, errOut, code := rlRun(t, "train", "--config", lit); code != 0 || !strings.Contains(out, "str_on is code") {
		t.Errorf("str_on: code: exit %d, no note:\n%s\n%s", code, out, errOut)
	}
	for _, m := range metricsOf(t, filepath.Join(root, "both")) {
		if m.StrStd == 0 || m.StrUsedStd == 0 || m.Mode != "both" {
			t.Errorf("step %d: Rstr mean %v std %v, used std %v", m.Step, m.StrMean, m.StrStd, m.StrUsedStd)
		}
	}
}

func TestEvalAndSFTOffline(t *testing.T) {
	out, errOut, code := rlRun(t, "eval", "--policy", "replay", "--benchmarker", "recorded", "--side", "test", "-n", "5", "-k", "1", "-k", "5")
	if code != 0 {
		t.Fatalf("eval: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"pass@1", "pass@5", "speedup@5", "fast_1_ref", "5 samples per task", "profile report", "unbiased estimator"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval output lacks %q:\n%s", want, out)
		}
	}
	// Two attempts a sample: the refinement prompts reach the policy, and
	// the report says how many samples were correct by each turn.
	out, errOut, code = rlRun(t, "eval", "--policy", "replay", "--benchmarker", "recorded", "--side", "test", "--task", "vector_add", "-n", "3", "-k", "1", "--turns", "2")
	if code != 0 {
		t.Fatalf("eval --turns 2: exit %d\n%s\n%s", code, out, errOut)
	}
	if !regexp.MustCompile(`correct by turn \(fraction of samples\): 1: \d\.\d{3} 2: \d\.\d{3}\nfresh samples instead \(pass@t of the first attempts\): 1: \d\.\d{3} 2: \d\.\d{3}\n`).MatchString(out) || !strings.Contains(out, "2 attempts each") {
		t.Errorf("eval --turns 2 output lacks the per-turn line or the protocol's attempts:\n%s", out)
	}
	// One task: no interval (a bootstrap over one task printed [x, x]).
	if !strings.Contains(out, "pass@1  ") || !strings.Contains(out, "[n/a]") || !strings.Contains(out, "no intervals: they resample tasks") {
		t.Errorf("eval of one task prints intervals:\n%s", out)
	}
	if _, errOut, code := rlRun(t, "eval", "--policy", "replay", "--benchmarker", "recorded", "-n", "1", "-k", "1", "--turns", "0"); code != 2 || !strings.Contains(errOut, "--turns 0") {
		t.Errorf("eval --turns 0: exit %d, %s", code, errOut)
	}
	// torch2cuda tasks (KernelBench format) through the same loop: the
	// replay policy proposes the .py variants, recorded answers from the
	// torch2cuda suite's records, speedups are over eager PyTorch.
	samples := filepath.Join(t.TempDir(), "samples.jsonl")
	out, errOut, code = rlRun(t, "eval", "--suite", "bench/suites/torch2cuda", "--policy", "replay", "--benchmarker", "recorded", "--side", "test", "-n", "3", "-k", "1", "--samples", samples)
	if code != 0 {
		t.Fatalf("eval of torch2cuda: exit %d\n%s\n%s", code, out, errOut)
	}
	// --samples: every completion with its verdict and the feedback a
	// refinement turn would get (5 tasks x 3 samples).
	b, err := os.ReadFile(samples)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	correct := 0
	for _, l := range lines {
		var smp grpo.EvalSample
		if err := json.Unmarshal([]byte(l), &smp); err != nil || smp.Task == "" || smp.Completion == "" || smp.Feedback == "" {
			t.Errorf("sample line %q: %v", l, err)
		}
		if smp.Correct && smp.Speedup > 0 && strings.Contains(smp.Feedback, "is correct") {
			correct++
		}
	}
	if len(lines) != 15 || correct == 0 {
		t.Errorf("%d sample lines (want 15), %d correct with a speedup and feedback", len(lines), correct)
	}
	for _, want := range []string{"5 test tasks", "over eager PyTorch", "l2norm_rows", "pass@1"} {
		if !strings.Contains(out, want) {
			t.Errorf("torch2cuda eval output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "pass@1  0.000") {
		t.Errorf("no torch2cuda candidate was judged correct (were they recorded?):\n%s", out)
	}
	dir := t.TempDir()
	out, errOut, code = rlRun(t, "sft", "--policy", "replay", "--task", "gelu", "--task", "dot_product", "--epochs", "2", "--batch", "4", "--out", dir)
	if code != 0 {
		t.Fatalf("sft: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "epoch-2", "replay.json")); err != nil {
		t.Error(err)
	}
	// Refinement turns are taught by default (--refine 2), with the
	// installed analyzers' feedback.
	if m := regexp.MustCompile(`\((\d+) of them refinement turns\)`).FindStringSubmatch(out); m == nil || m[1] == "0" || strings.Contains(errOut, "no analyzer") {
		t.Errorf("sft taught no refinement turns, or without the analyzers:\n%s\n%s", out, errOut)
	}
	if _, errOut, code := rlRun(t, "sft", "--policy", "replay", "--task", "saxpy", "--out", t.TempDir()); code != 2 || !strings.Contains(errOut, "train") {
		t.Errorf("sft on a test task: exit %d, %s", code, errOut)
	}
	if _, errOut, code := rlRun(t, "eval", "--policy", "replay", "--benchmarker", "recorded", "-n", "2"); code != 2 || !strings.Contains(errOut, "pass@5") {
		t.Errorf("eval with n < k: exit %d, %s", code, errOut)
	}
}

// TestEvalRefusesBadFlagsFirst: what eval cannot run is a usage error
// before any plugin starts (a negative few-shot count panicked; -k 0 was
// a tool failure after the policy loaded; an out-of-range sampling value
// was printed in the protocol while the hf plugin used another).
func TestEvalRefusesBadFlagsFirst(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--few-shot", "-2"}, "--few-shot -2"},
		{[]string{"-k", "0"}, "-k 0: pass@k needs k ≥ 1"},
		{[]string{"-n", "2", "-k", "3"}, "-n 2: pass@3 needs at least 3 samples per task"},
		{[]string{"--temperature", "-1"}, "--temperature -1"},
		{[]string{"--top-p", "7"}, "--top-p 7"},
		{[]string{"--max-tokens", "0"}, "--max-tokens 0"},
		{[]string{"--turns", "0"}, "--turns 0"},
		{[]string{"--suite", filepath.Join(plugintest.ModuleRoot(t), "bench", "suites", "c2cuda"), "--load", "/nonexistent/sft/epoch-4"}, "--load stat /nonexistent/sft/epoch-4: no such file or directory"},
	} {
		// A policy plugin that does not exist: reaching it would be another error.
		args := append([]string{"eval", "--policy", "no-such-policy", "--benchmarker", "recorded"}, c.args...)
		_, errOut, code := runCudaperf(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "no-such-policy") {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit %d and %q", c.args, code, errOut, exitUsage, c.want)
		}
	}
}
