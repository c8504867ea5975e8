package grpo

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cudaperf/cudaperf/bench/dataset"
	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/host/pluginhost"
)

// System is the system message of every prompt (train, SFT and eval use
// the same builder, so a model is asked the same way it was taught).
const System = "You are an expert CUDA engineer. You translate C functions into fast, correct CUDA. " +
	"Answer with one ```cuda code block holding a complete .cu file."

// Example is a known kernel shown in a prompt.
type Example struct {
	Task    *task.Task
	Variant string  // name, e.g. "warp_shuffle_vec4"
	Source  string  // the .cu file, as a model sees it (dataset.AsExample)
	Speedup float64 // measured on the primary configuration, over the C reference
	// Generated is true for a sweep instance (cudaperf dataset expand):
	// one of many near-copies of a template, which SFT can limit.
	Generated bool
}

// Task is a task as the loop uses it: the loaded task.yaml, its C
// reference, and what was measured for its known variants.
type Task struct {
	*task.Task
	// Kind is "" for a c2cuda task (task.yaml, the C reference in
	// ReferenceC) or KindTorch2CUDA (problem.py in Reference).
	Kind       string
	Reference  string
	ReferenceC string
	// Side is the split side: train, validation or test.
	Side string
	// Variants are the measured, accepted variants, fastest first.
	Variants []Example
	// Baseline is the geometric mean of the variants' speedups (0 when
	// none were measured): Rver's speedup is relative to it.
	Baseline float64
	// Primary is the name of the primary configuration.
	Primary string
}

// LoadTask reads a task folder for prompting.
func LoadTask(dir string) (*Task, error) {
	if _, err := os.Stat(filepath.Join(dir, "problem.py")); err == nil {
		return loadTorchTask(dir)
	}
	t, err := task.Load(dir)
	if err != nil {
		return nil, err
	}
	ref, err := os.ReadFile(t.Reference)
	if err != nil {
		return nil, fmt.Errorf("grpo: task %s: %w", t.Name, err)
	}
	out := &Task{Task: t, ReferenceC: string(ref)}
	for i, c := range t.Configs {
		if c.Primary || (out.Primary == "" && i == len(t.Configs)-1) {
			out.Primary = c.Name
		}
	}
	return out, nil
}

// setVariants records measured speedups (by variant name) and reads the
// variants' sources.
func (t *Task) setVariants(speedups map[string]float64) error {
	t.Variants = nil
	var logs float64
	for _, path := range t.Task.Variants {
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		s, ok := speedups[name]
		if !ok || s <= 0 {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("grpo: task %s: %w", t.Name, err)
		}
		t.Variants = append(t.Variants, Example{Task: t.Task, Variant: name, Source: string(dataset.AsExample(src)),
			Speedup: s, Generated: dataset.Generated(src)})
		logs += math.Log(s)
	}
	slices.SortStableFunc(t.Variants, func(a, b Example) int {
		switch {
		case a.Speedup > b.Speedup:
			return -1
		case a.Speedup < b.Speedup:
			return 1
		}
		return strings.Compare(a.Variant, b.Variant)
	})
	t.Baseline = 0
	if n := len(t.Variants); n > 0 {
		t.Baseline = math.Exp(logs / float64(n))
	}
	return nil
}

// FewShot picks k examples for a prompt about t from the train tasks
// (never t itself, never a validation or test task): the fastest variant of
// each other train task, same category first, then by measured speedup.
func FewShot(t *Task, train []*Task, k int) []Example {
	var pool []Example
	for _, o := range train {
		if o.Name == t.Name || o.Side != "train" || len(o.Variants) == 0 {
			continue
		}
		pool = append(pool, o.Variants[0])
	}
	slices.SortStableFunc(pool, func(a, b Example) int {
		sa, sb := a.Task.Category == t.Category, b.Task.Category == t.Category
		switch {
		case sa && !sb:
			return -1
		case sb && !sa:
			return 1
		case a.Speedup > b.Speedup:
			return -1
		case a.Speedup < b.Speedup:
			return 1
		}
		return strings.Compare(a.Task.Name, b.Task.Name)
	})
	if len(pool) > max(k, 0) {
		pool = pool[:max(k, 0)]
	}
	return pool
}

// contract is the candidate contract of docs/task-format.md, in the words a
// model needs.
const contract = `Write a CUDA file that defines exactly this function with C linkage:

    extern "C" %s;

The pointers are DEVICE pointers that are already allocated and filled. Launch your own kernels on the default stream and return; do not allocate device memory you do not free, do not copy data to the host, do not print, do not call exit. The result must match the C reference within floating-point tolerance for every size, including sizes that are not multiples of 32 and a size of 1.`

// TaskMessage is the first user message about t.
func TaskMessage(t *Task, examples []Example) string {
	if t.Kind == KindTorch2CUDA {
		return torchMessage(t, examples)
	}
	var b strings.Builder
	for _, e := range examples {
		fmt.Fprintf(&b, "Example: a fast CUDA version (%.0f× over the C code) of a different task, %s (%s), with signature\n    %s\n```cuda\n%s```\n\n",
			e.Speedup, e.Task.Name, e.Task.Description, e.Task.Signature, ensureNL(e.Source))
	}
	fmt.Fprintf(&b, "Task %s: %s\n\nThe C reference:\n```c\n%s```\n\n", t.Name, t.Description, ensureNL(t.ReferenceC))
	fmt.Fprintf(&b, contract, strings.TrimSuffix(strings.TrimSpace(t.Signature), ";"))
	return b.String()
}

func ensureNL(s string) string {
	if !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// Prompt builds the messages for a first attempt.
func Prompt(t *Task, examples []Example) []pluginhost.Message {
	sys := System
	if t.Kind == KindTorch2CUDA {
		sys = SystemTorch
	}
	return []pluginhost.Message{{Role: "system", Content: sys}, {Role: "user", Content: TaskMessage(t, examples)}}
}

// Refine builds the messages for a refinement turn: the task, the previous
// attempt and its feedback. Only the latest attempt is kept, since the
// default model's context (8k tokens) holds about one more.
func Refine(t *Task, examples []Example, previous, feedback string) []pluginhost.Message {
	return append(Prompt(t, examples),
		pluginhost.Message{Role: "assistant", Content: previous},
		pluginhost.Message{Role: "user", Content: feedback})
}

// Answer is the assistant message SFT teaches for a known kernel of t.
func Answer(t *Task, source string) string {
	if t.Kind == KindTorch2CUDA {
		return "```python\n" + ensureNL(source) + "```"
	}
	return "```cuda\n" + ensureNL(source) + "```"
}
