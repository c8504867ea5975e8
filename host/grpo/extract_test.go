package grpo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	cases := []struct {
		name, text string
		ok         bool
		has        string
	}{
		{"cuda block", "Here:\n```cuda\n__global__ void k(){}\nextern \"C\" void f(){}\n```\nDone.", true, "void f()"},
		{"prefers the block with the entry", "```cuda\nextern \"C\" void f(){}\n```\nand a helper\n```cpp\nint g;\n```", true, "void f()"},
		{"last block without entry", "```c\nint a;\n```\n```\nint b;\n```", true, "int b;"},
		{"python block is not code", "```python\nprint(1)\n```", false, ""},
		{"no block", "I cannot do that.", false, ""},
		{"cut off", "```cuda\n__global__ void k(", false, ""},
		{"empty block", "```cuda\n\n```", false, ""},
	}
	for _, c := range cases {
		code, ok, why := Extract(c.text, "f")
		if ok != c.ok {
			t.Errorf("%s: ok = %v (%s), want %v", c.name, ok, why, c.ok)
			continue
		}
		if ok && !strings.Contains(code, c.has) {
			t.Errorf("%s: code %q lacks %q", c.name, code, c.has)
		}
		if !ok && why == "" {
			t.Errorf("%s: no reason given", c.name)
		}
	}
}

// TestTorchTaskPrompt loads a torch2cuda task folder, builds its prompt
// (the PyTorch source, the ModelNew contract, the torch system message)
// and extracts a ```python answer that defines ModelNew.
func TestTorchTaskPrompt(t *testing.T) {
	tk, err := LoadTask("../../bench/suites/torch2cuda/relu")
	if err != nil {
		t.Fatal(err)
	}
	if tk.Kind != KindTorch2CUDA || tk.Entry != "ModelNew" || len(tk.Task.Variants) != 3 || tk.Description != "y = relu(x) over a (batch, dim) float32 tensor." {
		t.Fatalf("task %+v", tk.Task)
	}
	msgs := Prompt(tk, nil)
	if msgs[0].Content != SystemTorch || !strings.Contains(msgs[1].Content, "return torch.relu(x)") ||
		!strings.Contains(msgs[1].Content, "class ModelNew(torch.nn.Module)") {
		t.Fatalf("prompt %q", msgs[1].Content)
	}
	text := "Here:\n```cuda\n__global__ void k() {}\n```\nand the file:\n```python\nclass ModelNew(nn.Module):\n    pass\n```\n"
	code, ok, _ := ExtractFor(tk, text)
	if !ok || !strings.HasPrefix(code, "class ModelNew") {
		t.Fatalf("extracted %q", code)
	}
	if _, ok, why := ExtractFor(tk, "```cuda\n__global__ void k() {}\n```\n"); ok || why != "no ```python code block" {
		t.Fatalf("cuda-only answer: ok=%v why=%q", ok, why)
	}
	if a := Answer(tk, "x = 1"); a != "```python\nx = 1\n```" {
		t.Fatalf("Answer %q", a)
	}
}

// TestTorchSuiteDataset: the torch2cuda suite loads as a dataset by its
// split, with no measurements yet (no few-shot examples, no baseline).
func TestTorchSuiteDataset(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "measurements.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := LoadDataset("../../bench/suites/torch2cuda", []string{empty})
	if err != nil {
		t.Fatal(err)
	}
	train, err := ds.Side("train", nil)
	// 20 training tasks in split.yaml (the suite's 30 tasks, 20/5/5).
	if err != nil || len(train) != 20 || train[0].Kind != KindTorch2CUDA || train[0].Baseline != 0 {
		t.Fatalf("train: %d tasks, %v", len(train), err)
	}
}

// TestDatasetChecksTheSplitAgainstTheSuite: a task folder the split leaves
// out would never be trained or held out, silently; the run refuses it and
// names the command that proposes a side.
func TestDatasetChecksTheSplitAgainstTheSuite(t *testing.T) {
	suite := t.TempDir()
	src, err := os.ReadFile("../../bench/suites/torch2cuda/relu/problem.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"relu", "softplus", "new_task"} {
		if err := os.MkdirAll(filepath.Join(suite, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(suite, name, "problem.py"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(suite, "split.yaml"), []byte("train: [relu]\ntest: [softplus]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "measurements.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadDataset(suite, []string{empty})
	if err == nil || !strings.Contains(err.Error(), "task new_task is on no side") || !strings.Contains(err.Error(), "list each task under train, validation or test in") {
		t.Errorf("LoadDataset = %v; want the missing task named with the fix", err)
	}
}
