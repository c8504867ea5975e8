package grpo

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/bench/torch2cuda"
)

// KindTorch2CUDA is the task kind of KernelBench-format tasks (a folder
// with problem.py and variants/*.py): the prompt shows the PyTorch Model
// and asks for a ModelNew built with load_inline.
const KindTorch2CUDA = torch2cuda.Kind

// SystemTorch is the system message of torch2cuda prompts.
const SystemTorch = "You are an expert CUDA engineer. You replace PyTorch modules with fast, correct custom CUDA kernels. " +
	"Answer with one ```python code block holding a complete Python file."

// contractTorch is the torch2cuda candidate contract (KernelBench's).
const contractTorch = `Write a Python file that defines class ModelNew(torch.nn.Module) with the same constructor and forward arguments as Model and the same outputs. Build your CUDA kernels from source strings with torch.utils.cpp_extension.load_inline (cuda_sources=..., functions=[...]) and call them in forward; do not call the PyTorch operators that do the work. Launch on the current stream, return new tensors, do not modify the inputs, do not print. The result must match Model within floating-point tolerance for every input.`

// loadTorchTask reads a torch2cuda task folder for prompting. Its
// task.Task holds what the loop uses: the name, a description (the first
// line of Model's docstring), the category "torch2cuda", the variants and
// ModelNew as the entry a completion's code block must define.
func loadTorchTask(dir string) (*Task, error) {
	problem := filepath.Join(dir, torch2cuda.ProblemFile)
	if err := torch2cuda.ValidateProblem(problem); err != nil {
		return nil, err
	}
	src, err := os.ReadFile(problem)
	if err != nil {
		return nil, fmt.Errorf("grpo: %w", err)
	}
	clean := filepath.Clean(dir)
	t := &task.Task{Name: filepath.Base(clean), Suite: filepath.Base(filepath.Dir(clean)), Dir: dir,
		Category: KindTorch2CUDA, Entry: "ModelNew", Description: docLine(string(src))}
	t.Variants, _ = filepath.Glob(filepath.Join(dir, "variants", "*.py"))
	sort.Strings(t.Variants)
	return &Task{Task: t, Kind: KindTorch2CUDA, Reference: string(src), Primary: torch2cuda.ConfigName}, nil
}

var docRE = regexp.MustCompile(`(?s)class\s+Model\s*\([^)]*\)\s*:\s*(?:"""|''')\s*([^\n]*)`)

func docLine(src string) string {
	if m := docRE.FindStringSubmatch(src); m != nil {
		return strings.TrimSpace(strings.Trim(m[1], `"'`))
	}
	return "the PyTorch Model below"
}

// torchMessage is the first user message about a torch2cuda task.
func torchMessage(t *Task, examples []Example) string {
	var b strings.Builder
	for _, e := range examples {
		fmt.Fprintf(&b, "Example: a fast ModelNew (%.2f× over eager PyTorch) for a different task, %s (%s):\n```python\n%s```\n\n",
			e.Speedup, e.Task.Name, e.Task.Description, ensureNL(e.Source))
	}
	fmt.Fprintf(&b, "Task %s: %s\n\nThe PyTorch reference (Model, get_inputs, get_init_inputs):\n```python\n%s```\n\n%s",
		t.Name, t.Description, ensureNL(t.Reference), contractTorch)
	return b.String()
}

// pythonTags are the language tags of a torch2cuda candidate's block.
var pythonTags = map[string]bool{"python": true, "py": true, "python3": true, "": true}
