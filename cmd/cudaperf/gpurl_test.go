package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
)

// TestGPURLScriptDryRun runs bench/rl/gpu-rl.sh, the script a GPU call of
// issue 14 spends its minutes on, end to end without a GPU: the real hf
// policy plugin with a tiny random model, the recorded benchmarker, every
// phase (evaluations before and after SFT and GRPO, SFT, two GRPO steps).
// It checks the commands and configs the script writes, not the numbers
// (the tiny model writes no code). A second run must find every phase done.
func TestGPURLScriptDryRun(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the dry run of bench/rl/gpu-rl.sh in -short mode")
	}
	py := plugintest.Python(t)
	if err := exec.Command(py, "-c", "import torch, transformers, peft").Run(); err != nil {
		t.Skipf("no torch, transformers and peft in %s (%v): run .ci/setup", py, err)
	}
	root := plugintest.ModuleRoot(t)
	dir := t.TempDir()
	exe := plugintest.BuildGo(t, "cmd/cudaperf", dir)
	plugins := filepath.Join(dir, "plugins")
	plugintest.InstallGo(t, "plugins/recorded", plugins)
	plugintest.InstallGo(t, "plugins/analyzer", plugins)
	plugintest.InstallPython(t, "plugins/policy/hf", plugins)

	// The tiny model's tokens are bytes: a 2,048-token context fits no
	// prompt, so it gets SmolLM2's 8,192 (rope scales to it).
	model := filepath.Join(dir, "tiny")
	if b, err := exec.Command(py, filepath.Join(root, "plugins/policy/hf/tiny.py"), model).CombinedOutput(); err != nil {
		t.Fatalf("tiny model: %v\n%s", err, b)
	}
	cfgPath := filepath.Join(model, "config.json")
	var cfg map[string]any
	raw, err := os.ReadFile(cfgPath)
	if err == nil {
		err = json.Unmarshal(raw, &cfg)
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg["max_position_embeddings"] = 8192
	raw, _ = json.Marshal(cfg)
	if err := os.WriteFile(cfgPath, raw, 0o644); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(dir, "out")
	run := func() string {
		cmd := exec.Command("bash", filepath.Join(root, "bench/rl/gpu-rl.sh"), out)
		cmd.Env = append(os.Environ(), pluginhost.PathEnv+"=", "CUDAPERF="+exe,
			"CUDAPERF_HF_MODEL="+model, "CUDAPERF_HF_DEVICE=cpu", "BENCHMARKER=recorded", "FEW_SHOT=0",
			"STEPS=2", "GROUP=2", "BATCH=1", "TURNS=1", "EVAL_N=1", "EPOCHS=1", "MAX_TOKENS=32",
			"EVAL_TRAIN_TASKS=gelu", "SFT_FLAGS=--top 1 --max-chars 1200")
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bench/rl/gpu-rl.sh: %v\n%s", err, b)
		}
		return string(b)
	}
	first := run()
	for _, phase := range []string{"eval-base-train", "eval-base-test", "sft", "eval-sft-train", "eval-sft-test", "grpo", "eval-grpo-train", "eval-grpo-test"} {
		if _, err := os.Stat(filepath.Join(out, phase+".done")); err != nil {
			t.Errorf("phase %s did not finish:\n%s", phase, first)
		}
	}
	ms, err := os.ReadFile(filepath.Join(out, "grpo", "metrics.jsonl"))
	if err != nil || strings.Count(string(ms), "\n") != 2 {
		t.Errorf("GRPO metrics: %v, want 2 steps:\n%s", err, ms)
	}
	if again := run(); strings.Count(again, "done before") != 7 || !strings.Contains(again, "all phases done") {
		t.Errorf("a second run must skip every phase:\n%s", again)
	}
}
