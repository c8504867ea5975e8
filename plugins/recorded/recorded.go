package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/results"
	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/bench/torch2cuda"
	"github.com/cudaperf/cudaperf/plugins/sdk/benchserve"
)

// EnvMeasurements replaces the measurements files (colon-separated).
const EnvMeasurements = "CUDAPERF_MEASUREMENTS"

// MeasurementsFile is the name of a suite's measurements.
const MeasurementsFile = "measurements.jsonl"

type backend struct {
	mu    sync.Mutex
	files map[string]*index // by measurements file path
}

// index is one measurements file: records by task, then source hash.
type index struct {
	byTask map[string]map[string]*bench.Result
	err    error
}

func newBackend() *backend { return &backend{files: map[string]*index{}} }

func (b *backend) Describe(context.Context) benchserve.Info {
	return benchserve.Info{Name: "recorded", Version: version,
		Description: "answers from recorded measurements, never runs: a source whose normalized hash was measured gets that record (marked recorded), any other 'not recorded'",
		TaskKinds:   []string{benchserve.TaskKind, torch2cuda.Kind}, Compiler: "none (recorded measurements)", DefaultArch: device.DefaultArch,
		Profiles: bench.Profiles()}
}

func (b *backend) Devices(context.Context) []*device.Info { return nil }

func (b *backend) Compile(context.Context, []byte, string, string, []string) (bench.Compile, string, error) {
	return bench.Compile{}, "", errors.New(bench.NotRecorded + ": Compile needs the task to find a record; send Run with the task (and compile_only) instead")
}

// measurementsFor lists the files that may hold task t's records.
func measurementsFor(t *task.Task) []string {
	if env := os.Getenv(EnvMeasurements); env != "" {
		return filepath.SplitList(env)
	}
	return []string{filepath.Join(filepath.Dir(filepath.Clean(t.Dir)), MeasurementsFile)}
}

func (b *backend) load(path string) *index {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ix, ok := b.files[path]; ok {
		return ix
	}
	ix := &index{byTask: map[string]map[string]*bench.Result{}}
	ix.err = ix.read(path)
	b.files[path] = ix
	return ix
}

func (ix *index) read(path string) error {
	// results.Read leaves out a last record torn off by a killed writer
	// (as the appending writers' next run cuts it) and names the line of
	// any other damage, which this reader refuses to guess around.
	return results.Read(path, func(line []byte) error {
		var r bench.Result
		if err := json.Unmarshal(line, &r); err != nil {
			return err
		}
		// A record made since records carry the hash of what was compiled
		// is matched by it; an older one by the file it names as that file
		// is now (an edit since then would take its measurement along).
		key := r.SourceHash
		if key == "" {
			file, src := measuredSource(path, &r)
			if src == nil {
				return nil // the measured file is gone: nothing to match it by
			}
			key = sourceHash(filepath.Ext(file) == ".py", src)
		}
		m := ix.byTask[r.Task]
		if m == nil {
			m = map[string]*bench.Result{}
			ix.byTask[r.Task] = m
		}
		m[key] = &r // a later line for the same source wins
		return nil
	})
}

// measuredSource reads the file a record measured: its path relative to
// the measurements file's folder or one of its parents, else the task's
// variants/<candidate>.cu next to the measurements file.
func measuredSource(measurements string, r *bench.Result) (path string, src []byte) {
	var tries []string
	if filepath.IsAbs(r.Path) {
		tries = append(tries, r.Path)
	} else {
		for dir := filepath.Dir(measurements); ; dir = filepath.Dir(dir) {
			tries = append(tries, filepath.Join(dir, r.Path))
			if dir == filepath.Dir(dir) {
				break
			}
		}
	}
	for _, ext := range []string{".cu", ".py"} {
		tries = append(tries, filepath.Join(filepath.Dir(measurements), r.Task, "variants", r.Candidate+ext))
	}
	for _, p := range tries {
		if b, err := os.ReadFile(p); err == nil {
			return p, b
		}
	}
	return "", nil
}

// sourceHash is the hash the evaluator of the source's kind writes in its
// records: torch2cuda's for a Python candidate, bench's for CUDA.
func sourceHash(python bool, src []byte) string {
	if python {
		return torch2cuda.SourceHash(src)
	}
	return bench.SourceHash(src)
}

func (b *backend) Run(_ context.Context, j bench.Job) (*bench.Result, error) {
	if j.Artifact != "" {
		return nil, fmt.Errorf("%w: the recorded benchmarker keeps no artifacts; send the source", bench.ErrBadJob)
	}
	var t *task.Task
	var err error
	if j.TaskPath == "" {
		return nil, fmt.Errorf("%w: the recorded benchmarker needs task_path (its measurements lie beside the suite)", bench.ErrBadJob)
	}
	if j.TaskKind == torch2cuda.Kind {
		t, err = torchTask(j.TaskPath)
	} else {
		t, err = task.Load(j.TaskPath)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", bench.ErrBadJob, err)
	}
	hash := sourceHash(j.TaskKind == torch2cuda.Kind, j.Source)
	files := measurementsFor(t)
	for _, f := range files {
		ix := b.load(f)
		if ix.err != nil {
			// Answering "not recorded" here would turn a damaged file into
			// a run of zero rewards that exits 0; a missing or broken
			// measurements file is the user's to fix, so the request fails.
			return nil, fmt.Errorf("measurements for task %s unreadable: %w; restore the file (git checkout, or measure the suite again on a GPU) or name others in $%s",
				t.Name, ix.err, EnvMeasurements)
		}
		if rec, ok := ix.byTask[t.Name][hash]; ok {
			return answer(rec, j), nil
		}
	}
	r := request(t, j)
	r.Error = fmt.Sprintf("%s: no measurement of this source (%s) for task %s in %s; measure it on a GPU with the cudaperf benchmarker",
		bench.NotRecorded, hash, t.Name, strings.Join(files, ", "))
	return r, nil
}

// torchTask names a torch2cuda task (a folder with problem.py, or a
// problem file) as the torch2cuda benchmarker names it in its records:
// the folder is the task, its parent the suite, whose measurements.jsonl
// lies beside the task folders as c2cuda's does.
func torchTask(path string) (*task.Task, error) {
	if _, err := torch2cuda.ProblemPath(path); err != nil {
		return nil, err
	}
	dir := strings.TrimSuffix(filepath.Clean(path), string(filepath.Separator))
	return &task.Task{Name: strings.TrimSuffix(filepath.Base(dir), ".py"), Suite: filepath.Base(filepath.Dir(dir)), Dir: dir}, nil
}

// request is the result skeleton of job j: who is asking about what.
func request(t *task.Task, j bench.Job) *bench.Result {
	r := &bench.Result{Suite: t.Suite, Task: t.Name, Candidate: j.Name, Kind: j.Kind, Path: j.Filename, Expect: j.Expect, Profile: j.Profile}
	if r.Candidate == "" {
		r.Candidate = strings.TrimSuffix(filepath.Base(j.Filename), filepath.Ext(j.Filename))
	}
	if r.Kind == "" {
		r.Kind = bench.KindCandidate
	}
	return r
}

// answer is the record as measured, named as the request names it.
func answer(rec *bench.Result, j bench.Job) *bench.Result {
	t := &task.Task{Name: rec.Task, Suite: rec.Suite}
	r := *rec
	q := request(t, j)
	r.Candidate, r.Kind, r.Path, r.Expect = q.Candidate, q.Kind, q.Path, q.Expect
	r.Recorded = true
	r.Caught = r.Expect != "" && r.Verdict != nil && !r.Verdict.Accepted && r.Verdict.Has(r.Expect)
	if r.Profile == "" {
		r.Profile = bench.ProfileReport // measurements made before profiles existed
	}
	return &r
}
