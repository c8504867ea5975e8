package bench

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cudaperf/cudaperf/bench/task"
)

// Job is one candidate as a client sends it to a benchmarker: the host
// builds it (host/pluginhost turns it into a RunRequest), the plugin gets
// it back (plugins/sdk/benchserve) and hands it to Evaluator.Run. It is the
// one description of a request on both sides of the plugin boundary.
type Job struct {
	TaskPath  string            // task folder as the benchmarker's machine sees it
	TaskFiles map[string][]byte // or the folder's files, by relative path (used when set)
	Source    []byte            // the candidate's source
	Filename  string            // how the client names the candidate (recorded as Result.Path)
	Artifact  string            // instead of Source: the handle an earlier Compile returned
	Name      string            // candidate name (default: Filename's base name without .cu)
	Kind      string            // KindVariant, KindCheat or KindCandidate (default)
	Expect    string            // cheats: the reason id that must reject it
	Flags     []string          // extra nvcc flags
	TaskKind  string            // "" or "c2cuda": a task.yaml folder; "torch2cuda": a KernelBench-format problem (bench/torch2cuda)
	Settings
}

// ErrBadJob marks a request the benchmarker cannot take as sent (no task,
// an unknown configuration or profile, an unknown artifact).
var ErrBadJob = errors.New("bad request")

func badJob(err error) error { return fmt.Errorf("%w: %w", ErrBadJob, err) }

// loadJobTask returns the job's task.
func (e *Evaluator) loadJobTask(j *Job) (*task.Task, error) {
	if len(j.TaskFiles) > 0 {
		return e.LoadTaskFiles(j.TaskFiles)
	}
	if j.TaskPath == "" {
		return nil, errors.New("the request names no task: set task_path or task_files")
	}
	return task.Load(j.TaskPath)
}

// Run evaluates a job: it loads the task, keeps the source under the cache
// and evaluates the candidate as Evaluate does. Errors are requests that
// could not be taken (ErrBadJob) or, for a run, a machine without a GPU or
// one on which CUDA cannot initialise inside the candidate sandbox
// (device.ErrNoGPU, see checkMachine: once found, every later run fails
// at once with it); everything about the candidate is in the result.
func (e *Evaluator) Run(ctx context.Context, j Job) (*Result, error) {
	start := time.Now()
	if _, err := ParseProfile(string(j.Profile)); err != nil {
		return nil, badJob(err)
	}
	var path string
	var err error
	if j.Artifact != "" {
		path, err = e.SourcePath(j.Artifact)
	} else {
		_, path, err = e.StoreSource(j.Source, j.Filename)
	}
	if err != nil {
		return nil, badJob(err)
	}
	t, err := e.loadJobTask(&j)
	if err != nil {
		return nil, badJob(err)
	}
	if !j.CompileOnly {
		if err := e.GPUError(); err != nil {
			return nil, err
		}
	}
	c := Candidate{Name: j.Name, Path: path, Origin: j.Filename, Kind: j.Kind, Expect: j.Expect, Flags: j.Flags}
	if c.Origin == "" {
		c.Origin = filepath.Base(path)
	}
	if c.Name == "" {
		c.Name = strings.TrimSuffix(filepath.Base(c.Origin), ".cu")
	}
	if c.Kind == "" {
		c.Kind = KindCandidate
	}
	if _, err := SelectConfigs(t, j.Profile, j.Configs); err != nil {
		return nil, badJob(err)
	}
	r, err := e.evaluateTask(ctx, t, c, j.Settings)
	if err != nil {
		return nil, err
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}
