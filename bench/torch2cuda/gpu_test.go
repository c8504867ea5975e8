package torch2cuda

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/bench"
)

// TestSuiteCandidatesStatic checks every committed torch2cuda candidate's
// format (ModelNew, load_inline, a __global__ kernel), that each cheat says
// which reason must reject it, and that extension names are unique (two
// candidates building one name would share torch's build folder).
func TestSuiteCandidatesStatic(t *testing.T) {
	names := map[string]string{}
	nameRE := regexp.MustCompile(`name\s*=\s*"([^"]+)"`)
	// The team's KernelBench candidates (named like the problems they
	// implement, which are not committed) are checked alongside.
	kb, _ := filepath.Glob(filepath.Join("..", "kernelbench", "candidates", "*.py"))
	if len(kb) == 0 {
		t.Error("no KernelBench candidates under ../kernelbench/candidates")
	}
	var kbJobs []Job
	for _, f := range kb {
		kbJobs = append(kbJobs, Job{Problem: filepath.Join("..", "suites", "torch2cuda", "relu", ProblemFile), Candidate: f, Kind: bench.KindCandidate})
	}
	for _, suite := range []string{"torch2cuda", "torch2cuda-selftest", "kernelbench"} {
		jobs := kbJobs
		if suite != "kernelbench" {
			var err error
			jobs, err = SuiteCandidates(filepath.Join("..", "suites", suite))
			if err != nil || len(jobs) == 0 {
				t.Fatalf("%s: %v (%d candidates)", suite, err, len(jobs))
			}
		}
		for _, j := range jobs {
			if err := ValidateProblem(j.Problem); err != nil {
				t.Error(err)
			}
			c, err := ValidateCandidate(j.Candidate)
			if err != nil {
				t.Error(err)
				continue
			}
			if j.Kind == bench.KindCheat && j.Expect == "" {
				t.Errorf("%s: a cheat's first line must be # expect: <reason id>", j.Candidate)
			}
			m := nameRE.FindSubmatch(c.Source)
			if m == nil {
				t.Errorf("%s: no load_inline name=\"...\"", j.Candidate)
				continue
			}
			if other, dup := names[string(m[1])]; dup {
				t.Errorf("%s and %s both build extension %q", other, j.Candidate, m[1])
			}
			names[string(m[1])] = j.Candidate
		}
	}
}

// TestGPUSelfTest evaluates every variant (each must be accepted) and
// every cheat (each must be rejected with its expected reason) of the
// torch2cuda suites on a GPU. bench/gpu-torch-selftest.sh runs it.
func TestGPUSelfTest(t *testing.T) {
	if os.Getenv("CUDAPERF_TORCH_SELFTEST") == "" {
		t.Skip("GPU self-test of torch2cuda: set CUDAPERF_TORCH_SELFTEST=1 on a GPU machine with python3 + torch (bench/gpu-torch-selftest.sh)")
	}
	if !bench.DeviceNodesPresent() {
		t.Skip("no GPU: /dev/nvidia* absent")
	}
	buildJobs, _ := strconv.Atoi(os.Getenv("CUDAPERF_TORCH_JOBS")) // parallel builds; 0: one per CPU
	ev, err := New(Options{CacheDir: os.Getenv("CUDAPERF_TORCH_CACHE"), Jobs: buildJobs})
	if err != nil {
		t.Fatal(err)
	}
	var jobs []Job
	for _, suite := range strings.Fields(envOr("CUDAPERF_TORCH_SUITES", "torch2cuda-selftest torch2cuda")) {
		js, err := SuiteCandidates(filepath.Join("..", "suites", suite))
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, js...)
	}
	jobs, err = selectJobs(jobs, os.Getenv("CUDAPERF_TORCH_SHARD"), strings.Fields(os.Getenv("CUDAPERF_TORCH_SKIP")))
	if err != nil {
		t.Fatal(err)
	}
	deadline, err := deadlineOf(os.Getenv("CUDAPERF_TORCH_DEADLINE"))
	if err != nil {
		t.Fatal(err)
	}
	// Builds in parallel, in the jobs' order; each run, one at a time,
	// starts as soon as its candidate is built (Evaluate's own Build is
	// then answered from the evaluator's memory).
	ready := make([]chan struct{}, len(jobs))
	next := make(chan int, len(jobs))
	for i := range jobs {
		ready[i] = make(chan struct{})
		next <- i
	}
	close(next)
	for range max(1, min(len(jobs), ev.opt.Jobs)) {
		go func() {
			for i := range next {
				ev.Build(context.Background(), jobs[i].Candidate)
				close(ready[i])
			}
		}()
	}
	// Appended to, so that a rerun after a deadline keeps what was measured.
	out, err := os.OpenFile(envOr("CUDAPERF_TORCH_SELFTEST_OUT", filepath.Join(t.TempDir(), "selftest.jsonl")), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	for i, j := range jobs {
		var wait <-chan time.Time
		if !deadline.IsZero() {
			wait = time.After(time.Until(deadline))
		}
		select {
		case <-ready[i]:
		case <-wait:
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			t.Logf("deadline reached: %d of %d candidates not run; rerun with CUDAPERF_TORCH_SKIP naming this output to resume", len(jobs)-i, len(jobs))
			break
		}
		r := ev.Evaluate(context.Background(), j)
		line, _ := json.Marshal(r)
		out.Write(append(line, '\n'))
		var reasons []string
		if r.Verdict != nil {
			for _, x := range r.Verdict.Reasons {
				reasons = append(reasons, x.ID)
			}
		}
		t.Logf("%-22s %-8s %-18s accepted=%v reasons=%v speedup=%.2f compiled=%.2f %s", j.Task, r.Kind, r.Candidate,
			r.Verdict != nil && r.Verdict.Accepted, reasons, speed(r, false), speed(r, true), r.Error)
		switch {
		case r.Error != "":
			t.Errorf("%s: %s", j.Candidate, r.Error)
		case j.Kind == bench.KindVariant && !r.Verdict.Accepted:
			t.Errorf("%s: honest variant rejected: %v", j.Candidate, r.Verdict.Reasons)
		case j.Kind == bench.KindCheat && !r.Caught:
			t.Errorf("%s: cheat not caught as %s: %v", j.Candidate, j.Expect, reasons)
		}
	}
}

// selectJobs keeps shard "K/N" of the jobs (whole tasks, every N-th task
// from the K-th, so that a task's variants share one torch.compile cache
// warm-up) and drops the candidates that the skip files (results JSON
// lines of an earlier run) already hold a judged record of.
func selectJobs(jobs []Job, shard string, skipFiles []string) ([]Job, error) {
	k, n := 0, 1
	if shard != "" {
		if _, err := fmt.Sscanf(shard, "%d/%d", &k, &n); err != nil || n < 1 || k < 0 || k >= n {
			return nil, fmt.Errorf("CUDAPERF_TORCH_SHARD=%q: want K/N with 0 <= K < N", shard)
		}
	}
	done := map[string]bool{}
	for _, f := range skipFiles {
		data, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("CUDAPERF_TORCH_SKIP: %w", err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			var r bench.Result
			if json.Unmarshal([]byte(line), &r) == nil && r.Verdict != nil && r.Error == "" {
				done[r.Suite+"/"+r.Task+"/"+r.Candidate] = true
			}
		}
	}
	tasks := map[string]int{}
	var out []Job
	for _, j := range jobs {
		key := j.Suite + "/" + j.Task
		if _, ok := tasks[key]; !ok {
			tasks[key] = len(tasks)
		}
		if tasks[key]%n != k || done[key+"/"+strings.TrimSuffix(filepath.Base(j.Candidate), ".py")] {
			continue
		}
		out = append(out, j)
	}
	return out, nil
}

// deadlineOf reads CUDAPERF_TORCH_DEADLINE (Unix seconds): no candidate
// starts after it.
func deadlineOf(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	sec, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("CUDAPERF_TORCH_DEADLINE=%q: want Unix seconds", v)
	}
	return time.Unix(sec, 0), nil
}

func speed(r *bench.Result, compiled bool) float64 {
	if r.Verdict == nil {
		return 0
	}
	if compiled {
		return r.Verdict.SpeedupCompiled
	}
	return r.Verdict.Speedup
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// TestSelectJobs: shards split by task, and a rerun skips what an earlier
// run's results already judged (not its harness errors).
func TestSelectJobs(t *testing.T) {
	var jobs []Job
	for _, task := range []string{"a", "b", "c"} {
		for _, v := range []string{"x", "y"} {
			jobs = append(jobs, Job{Suite: "s", Task: task, Candidate: "/p/" + task + "/variants/" + v + ".py"})
		}
	}
	names := func(js []Job) string {
		var out []string
		for _, j := range js {
			out = append(out, j.Task+"/"+strings.TrimSuffix(filepath.Base(j.Candidate), ".py"))
		}
		return strings.Join(out, " ")
	}
	got, err := selectJobs(jobs, "1/2", nil)
	if err != nil || names(got) != "b/x b/y" {
		t.Fatalf("shard 1/2: %q, %v", names(got), err)
	}
	skip := filepath.Join(t.TempDir(), "done.jsonl")
	os.WriteFile(skip, []byte(`{"suite":"s","task":"a","candidate":"x","verdict":{"accepted":true}}`+"\n"+
		`{"suite":"s","task":"c","candidate":"y","error":"no GPU"}`+"\n"), 0o644)
	got, err = selectJobs(jobs, "", []string{skip, filepath.Join(t.TempDir(), "absent.jsonl")})
	if err != nil || names(got) != "a/y b/x b/y c/x c/y" {
		t.Fatalf("skip: %q, %v", names(got), err)
	}
	if _, err := selectJobs(jobs, "2/2", nil); err == nil {
		t.Fatal("shard 2/2 accepted")
	}
}
