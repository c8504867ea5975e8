package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/torch2cuda"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
)

// start installs the plugin as make build does and starts it through the
// host: the test crosses the real process and gRPC boundary.
func start(t *testing.T) *pluginhost.Plugin {
	t.Helper()
	dir := t.TempDir()
	plugintest.InstallGo(t, "plugins/recorded", dir)
	h, err := pluginhost.New(pluginhost.Options{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	p, ok := h.Plugin("recorded")
	if !ok {
		t.Fatalf("plugin not discovered in %s", dir)
	}
	return p
}

// lastRecord is the last measurements.jsonl line of task/candidate.
func lastRecord(t *testing.T, file, task, cand string) *bench.Result {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out *bench.Result
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var r bench.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Task == task && r.Candidate == cand {
			out = &r
		}
	}
	if out == nil {
		t.Fatalf("%s has no record of %s/%s", file, task, cand)
	}
	return out
}

// suiteTask starts the plugin and names a task of a committed suite and
// that suite's measurements.
func suiteTask(t *testing.T, suite, task string) (p *pluginhost.Plugin, taskDir, measurements string) {
	root := plugintest.ModuleRoot(t)
	return start(t), filepath.Join(root, "bench/suites", suite, task), filepath.Join(root, "bench/suites", suite, MeasurementsFile)
}

func TestRecorded(t *testing.T) {
	p, taskDir, measurements := suiteTask(t, "c2cuda", "vector_add")
	ctx := context.Background()

	d, err := p.DescribeBenchmarker(ctx)
	if err != nil || d.GetPlugin().GetName() != "recorded" || len(d.GetProfiles()) != 2 {
		t.Fatalf("Describe = %v, %v", d, err)
	}
	if devs, err := p.Devices(ctx); err != nil || len(devs.GetDevices()) != 0 {
		t.Errorf("Devices = %v, %v; want none", devs, err)
	}

	variant := filepath.Join(taskDir, "variants", "naive.cu")
	src, err := os.ReadFile(variant)
	if err != nil {
		t.Fatal(err)
	}
	want := lastRecord(t, measurements, "vector_add", "naive")
	// Reformatted and re-commented: the same tokens, so the same record.
	edited := "// a policy's copy of the naive kernel\n" + strings.ReplaceAll(string(src), "\n", "\n\n  ")
	r, err := p.EvaluateJob(ctx, bench.Job{TaskPath: taskDir, Source: []byte(edited), Filename: "policy/cand7.cu", Settings: bench.Settings{Profile: bench.ProfileRL}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Recorded || r.Error != "" || r.Candidate != "cand7" || r.Path != "policy/cand7.cu" || r.Kind != bench.KindCandidate {
		t.Errorf("answer: recorded %v error %q candidate %q path %q kind %q", r.Recorded, r.Error, r.Candidate, r.Path, r.Kind)
	}
	if !reflect.DeepEqual(r.Verdict, want.Verdict) || !reflect.DeepEqual(r.Compile, want.Compile) || r.Seeds != want.Seeds || r.Profile != bench.ProfileReport {
		t.Errorf("answer differs from the record:\n got %+v\nwant %+v", r, want)
	}

	// One changed token: not recorded, and no verdict.
	changed := strings.Replace(string(src), "<", "<=", 1)
	r, err = p.EvaluateJob(ctx, bench.Job{TaskPath: taskDir, Source: []byte(changed), Filename: "cand8.cu"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Recorded || r.Verdict != nil || r.Ran || !strings.HasPrefix(r.Error, bench.NotRecorded+": no measurement of this source (sha256:") ||
		!strings.Contains(r.Error, "vector_add") || !strings.Contains(r.Error, MeasurementsFile) {
		t.Errorf("unknown source: recorded %v verdict %v error %q", r.Recorded, r.Verdict, r.Error)
	}

	// A cheat's expected reason is checked against the recorded verdict.
	r, err = p.EvaluateJob(ctx, bench.Job{TaskPath: taskDir, Source: src, Filename: "x.cu", Kind: bench.KindCheat, Expect: "wrong_result"})
	if err != nil || r.Caught != (r.Verdict != nil && !r.Verdict.Accepted) {
		t.Errorf("cheat: caught %v verdict %+v err %v", r.Caught, r.Verdict, err)
	}

	// Another measurements file, named by the environment: nothing there.
	empty := filepath.Join(t.TempDir(), "none.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvMeasurements, empty)
	p2 := start(t)
	r, err = p2.EvaluateJob(ctx, bench.Job{TaskPath: taskDir, Source: src, Filename: "naive.cu"})
	if err != nil || !strings.HasPrefix(r.Error, bench.NotRecorded) || !strings.Contains(r.Error, empty) {
		t.Errorf("empty measurements: %+v %v", r, err)
	}
	if _, err := p2.EvaluateJob(ctx, bench.Job{Source: src}); err == nil || !strings.Contains(err.Error(), "task_path") {
		t.Errorf("no task: %v", err)
	}
}

// TestRecordedTorch2CUDA: a torch2cuda candidate (KernelBench format) is
// answered from the torch2cuda suite's records, named as the torch2cuda
// benchmarker names it; another source is "not recorded".
func TestRecordedTorch2CUDA(t *testing.T) {
	p, taskDir, measurements := suiteTask(t, "torch2cuda", "relu")
	ctx := context.Background()
	src, err := os.ReadFile(filepath.Join(taskDir, "variants", "naive.py"))
	if err != nil {
		t.Fatal(err)
	}
	want := lastRecord(t, measurements, "relu", "naive")
	r, err := p.EvaluateJob(ctx, bench.Job{TaskKind: "torch2cuda", TaskPath: taskDir, Source: src, Filename: "model_new.py"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Recorded || r.Error != "" || r.Suite != "torch2cuda" || r.Task != "relu" || r.Candidate != "model_new" ||
		!reflect.DeepEqual(r.Verdict, want.Verdict) {
		t.Errorf("answer: recorded %v error %q %s/%s/%s verdict %+v; want the record of relu/naive", r.Recorded, r.Error, r.Suite, r.Task, r.Candidate, r.Verdict)
	}
	r, err = p.EvaluateJob(ctx, bench.Job{TaskKind: "torch2cuda", TaskPath: taskDir, Source: append(src, "\nx = 1\n"...), Filename: "m.py"})
	if err != nil || r.Recorded || r.Verdict != nil || !strings.HasPrefix(r.Error, bench.NotRecorded) || !strings.Contains(r.Error, "relu") {
		t.Errorf("unknown source: %+v %v", r, err)
	}
	if _, err := p.EvaluateJob(ctx, bench.Job{TaskKind: "torch2cuda", TaskPath: filepath.Join(taskDir, "variants"), Source: src}); err == nil || !strings.Contains(err.Error(), "problem.py") {
		t.Errorf("a folder without problem.py: %v", err)
	}
}

// TestRecordedTorchSourceHash: a torch2cuda record is matched by
// torch2cuda's hash, by which `n // 4` is not `n // 2` (bench's C
// normalization read Python's floor division as a comment and answered the
// one with the other's measurement); a record without source_hash is
// matched by its file hashed the same way.
func TestRecordedTorchSourceHash(t *testing.T) {
	_, taskDir, _ := suiteTask(t, "torch2cuda", "relu")
	base, err := os.ReadFile(filepath.Join(taskDir, "variants", "naive.py"))
	if err != nil {
		t.Fatal(err)
	}
	measured := append(slices.Clone(base), "\nBLOCK = 1024 // 4\n"...)
	other := append(slices.Clone(base), "\nBLOCK = 1024 // 2\n"...)
	dir := t.TempDir()
	py := filepath.Join(dir, "m.py")
	if err := os.WriteFile(py, measured, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, MeasurementsFile)
	t.Setenv(EnvMeasurements, file)
	ask := func(src []byte) *bench.Result {
		r, err := newBackend().Run(context.Background(), bench.Job{TaskKind: torch2cuda.Kind, TaskPath: taskDir, Source: src, Filename: "m.py"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, rec := range []bench.Result{
		{Suite: "torch2cuda", Task: "relu", Candidate: "m", Path: py, Compile: bench.Compile{OK: true}, SourceHash: torch2cuda.SourceHash(measured)},
		{Suite: "torch2cuda", Task: "relu", Candidate: "m", Path: py, Compile: bench.Compile{OK: true}},
	} {
		b, _ := json.Marshal(rec)
		if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := ask(measured); !r.Recorded {
			t.Errorf("source_hash %q: the measured source: %q; want its record", rec.SourceHash, r.Error)
		}
		if r := ask(other); r.Recorded {
			t.Errorf("source_hash %q: a source that differs after // was answered with the record", rec.SourceHash)
		}
	}
}

// TestDamagedMeasurements: a record torn off by a killed writer (no final
// newline) is left out and the rest still answers; a bad line inside the
// file, or a missing file, fails the request naming the file, rather than
// answering "not recorded" for every candidate (a run of zero rewards that
// exits 0).
func TestDamagedMeasurements(t *testing.T) {
	root := plugintest.ModuleRoot(t)
	taskDir := filepath.Join(root, "bench/suites/c2cuda/vector_add")
	dir := t.TempDir()
	src := []byte("__global__ void k(float *x) { x[0] = 1; }\n")
	cu := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(cu, src, 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := json.Marshal(bench.Result{Suite: "c2cuda", Task: "vector_add", Candidate: "k", Path: cu, Compile: bench.Compile{OK: true}})
	if err != nil {
		t.Fatal(err)
	}
	good := string(rec) + "\n"
	run := func(content string) (*bench.Result, error) {
		file := filepath.Join(t.TempDir(), MeasurementsFile)
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv(EnvMeasurements, file)
		return newBackend().Run(context.Background(), bench.Job{TaskPath: taskDir, Source: src, Filename: "mine.cu"})
	}

	r, err := run(good + string(rec)[:40])
	if err != nil || !r.Recorded || r.Error != "" {
		t.Errorf("torn last record: Run = %+v, %v; want the whole record answered", r, err)
	}
	_, err = run(string(rec)[:40] + "\n" + good)
	if err == nil || !strings.Contains(err.Error(), MeasurementsFile+":1:") || !strings.Contains(err.Error(), "restore the file") {
		t.Errorf("damaged first line: err = %v; want an error naming %s:1 and the fix", err, MeasurementsFile)
	}
	t.Setenv(EnvMeasurements, filepath.Join(dir, "missing.jsonl"))
	_, err = newBackend().Run(context.Background(), bench.Job{TaskPath: taskDir, Source: src, Filename: "mine.cu"})
	if err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("missing file: err = %v; want an error naming it", err)
	}
}

// TestRecordedSourceHash: a record that carries the hash of what was
// compiled answers that source even when the file is gone, and not the
// file as edited since; an older record without it is matched by the file
// as it is now.
func TestRecordedSourceHash(t *testing.T) {
	taskDir := filepath.Join(plugintest.ModuleRoot(t), "bench/suites/c2cuda/vector_add")
	dir := t.TempDir()
	measured := []byte("__global__ void k(float *x) { x[0] = 1; }\n")
	edited := []byte("__global__ void k(float *x) { x[0] = 2; }\n")
	cu := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(cu, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, MeasurementsFile)
	write := func(rec bench.Result) {
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvMeasurements, file)
	ask := func(src []byte) *bench.Result {
		r, err := newBackend().Run(context.Background(), bench.Job{TaskPath: taskDir, Source: src, Filename: "mine.cu"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	write(bench.Result{Suite: "c2cuda", Task: "vector_add", Candidate: "k", Path: cu, Compile: bench.Compile{OK: true}, SourceHash: bench.SourceHash(measured)})
	if r := ask(measured); !r.Recorded {
		t.Errorf("the measured source: %q; want its record", r.Error)
	}
	if r := ask(edited); r.Recorded || !strings.HasPrefix(r.Error, bench.NotRecorded) {
		t.Errorf("the file as edited since: recorded %v, error %q; want not recorded", r.Recorded, r.Error)
	}
	write(bench.Result{Suite: "c2cuda", Task: "vector_add", Candidate: "k", Path: cu, Compile: bench.Compile{OK: true}})
	if r := ask(edited); !r.Recorded {
		t.Errorf("a record without source_hash: %q; want it matched by the file as it is", r.Error)
	}
}
