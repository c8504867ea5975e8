package torch2cuda

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/cudaperf/cudaperf/bench"
)

// Kind is the task kind of KernelBench-format problems, as a benchmarker
// describes it and a RunRequest names it.
const Kind = "torch2cuda"

// ProblemFile is the problem's name inside a task folder; the candidates
// are variants/*.py (and cheats/*.py in a self-test suite).
const ProblemFile = "problem.py"

// ProblemPath resolves a task path: a folder holding problem.py, or a
// problem .py file itself (a KernelBench level file).
func ProblemPath(taskPath string) (string, error) {
	st, err := os.Stat(taskPath)
	if err != nil {
		return "", fmt.Errorf("torch2cuda: task %s: %w", taskPath, err)
	}
	if !st.IsDir() {
		if !strings.HasSuffix(taskPath, ".py") {
			return "", fmt.Errorf("torch2cuda: task %s is neither a folder with %s nor a .py problem file", taskPath, ProblemFile)
		}
		return taskPath, nil
	}
	p := filepath.Join(taskPath, ProblemFile)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("torch2cuda: task folder %s has no %s (the KernelBench-format problem: Model, get_inputs, get_init_inputs)", taskPath, ProblemFile)
	}
	return p, nil
}

var safeName = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

// store keeps bytes under the cache by content hash and returns the path.
func (e *Evaluator) store(kind, name string, data []byte) (string, error) {
	name = safeName.ReplaceAllString(filepath.Base(name), "_")
	if !strings.HasSuffix(name, ".py") {
		name += ".py"
	}
	h := sha256.Sum256(append(append([]byte(name), 0), data...))
	dir := filepath.Join(e.dir, kind, hex.EncodeToString(h[:16]))
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return path, writeIfChanged(path, data)
}

func badJob(format string, args ...any) error {
	return fmt.Errorf("%w: %s", bench.ErrBadJob, fmt.Sprintf(format, args...))
}

// Run evaluates a benchmarker job of kind torch2cuda: the task is
// TaskPath (a folder with problem.py, or the .py) or TaskFiles'
// problem.py; the candidate is Source (the .py; none: the baseline, eager
// and torch.compile times only). Errors are requests that
// cannot be taken (bench.ErrBadJob); the candidate's failures are in the
// result.
func (e *Evaluator) Run(ctx context.Context, j bench.Job) (*bench.Result, error) {
	var problem string
	var err error
	switch {
	case len(j.TaskFiles) > 0:
		src, ok := j.TaskFiles[ProblemFile]
		if !ok {
			return nil, badJob("torch2cuda task files have no %s", ProblemFile)
		}
		problem, err = e.store("problems", ProblemFile, src)
	case j.TaskPath != "":
		problem, err = ProblemPath(j.TaskPath)
		if err != nil {
			return nil, badJob("%v", err)
		}
	default:
		return nil, badJob("the request names no task: set task_path or task_files")
	}
	if err != nil {
		return nil, fmt.Errorf("torch2cuda: %w", err)
	}
	if err := ValidateProblem(problem); err != nil {
		return nil, badJob("%v", err)
	}
	if j.Artifact != "" {
		return nil, badJob("a torch2cuda job sends the candidate's source (artifacts are c2cuda's)")
	}
	if len(j.Flags) > 0 {
		return nil, badJob("nvcc flags do not apply to torch2cuda: a candidate passes its own to load_inline (extra_cuda_cflags)")
	}
	if len(j.Configs) > 0 {
		return nil, badJob("a torch2cuda problem has one configuration (what get_inputs makes); do not name configurations")
	}
	filename := j.Filename
	if filename == "" {
		filename = "model_new.py"
	}
	// No source: the baseline (eager and torch.compile times only).
	var cand string
	if len(j.Source) > 0 {
		if cand, err = e.store("candidates", filename, j.Source); err != nil {
			return nil, fmt.Errorf("torch2cuda: %w", err)
		}
	}
	prof, err := bench.ParseProfile(string(j.Profile))
	if err != nil {
		return nil, badJob("%v", err)
	}
	job := Job{Problem: problem, Candidate: cand, Name: j.Name, Kind: j.Kind, Expect: j.Expect,
		Warmup: j.Warmup, Repeats: j.Repeats, BuildOnly: j.CompileOnly}
	if job.Name == "" {
		job.Name = strings.TrimSuffix(filepath.Base(filename), ".py")
	}
	if j.TaskPath != "" {
		dir := strings.TrimSuffix(j.TaskPath, string(filepath.Separator))
		if strings.HasSuffix(dir, ".py") {
			job.Task = strings.TrimSuffix(filepath.Base(dir), ".py")
		} else {
			job.Task = filepath.Base(dir)
		}
		job.Suite = filepath.Base(filepath.Dir(dir))
	}
	if prof == bench.ProfileRL {
		// The RL profile measures less: as c2cuda's, 1 warm-up and 5 timed
		// calls, and no torch.compile baseline (its compile takes seconds).
		job.NoCompile = true
		if job.Warmup == 0 {
			job.Warmup = 1
		}
		if job.Repeats == 0 {
			job.Repeats = 5
		}
	}
	if j.Seeds != [2]uint64{} {
		job.Seeds = deriveSeeds(j.Seeds, e.opt.Seeds)
	}
	// A candidate the static format check refuses is judged
	// invalid_candidate without torch or a GPU; every other job needs them.
	static := false
	if cand != "" {
		_, err := ValidateCandidate(cand)
		static = err != nil
	}
	if !static {
		if err := e.machine(job.BuildOnly); err != nil {
			return nil, err
		}
	}
	r := e.Evaluate(ctx, job)
	if cand != "" {
		r.Path = filename
	}
	r.Profile = prof
	if r.Error != "" && errors.Is(ctx.Err(), context.Canceled) {
		return r, ctx.Err()
	}
	return r, nil
}

// deriveSeeds makes n seeds from a request's two (the first two are
// them), so that a result can be reproduced from its recorded seeds.
func deriveSeeds(s [2]uint64, n int) []uint64 {
	out := []uint64{s[0], s[1]}
	x := s[0] ^ s[1]
	for len(out) < n {
		x += 0x9e3779b97f4a7c15 // splitmix64
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		out = append(out, z^(z>>31))
	}
	return out
}
