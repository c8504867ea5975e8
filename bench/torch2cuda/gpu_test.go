package torch2cuda

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench"
)

// SuiteCandidates lists a torch2cuda suite's tasks with their variants and
// cheats (a cheat's first line says "# expect: <reason id>").
func SuiteCandidates(suiteDir string) ([]Job, error) {
	problems, err := filepath.Glob(filepath.Join(suiteDir, "*", ProblemFile))
	if err != nil {
		return nil, err
	}
	sort.Strings(problems)
	var out []Job
	for _, p := range problems {
		dir := filepath.Dir(p)
		for _, kind := range []string{"variants", "cheats"} {
			files, _ := filepath.Glob(filepath.Join(dir, kind, "*.py"))
			sort.Strings(files)
			for _, f := range files {
				j := Job{Problem: p, Candidate: f, Suite: filepath.Base(suiteDir), Task: filepath.Base(dir), Kind: bench.KindVariant}
				if kind == "cheats" {
					j.Kind = bench.KindCheat
					j.Expect = expectOf(f)
				}
				out = append(out, j)
			}
		}
	}
	return out, nil
}

var expectPyRE = regexp.MustCompile(`^#\s*expect:\s*([a-z_]+)`)

func expectOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if sc.Scan() {
		if m := expectPyRE.FindStringSubmatch(sc.Text()); m != nil {
			return m[1]
		}
	}
	return ""
}

// TestSuiteCandidatesStatic checks every committed torch2cuda candidate's
// format (ModelNew, load_inline, a __global__ kernel), that each cheat says
// which reason must reject it, and that extension names are unique (two
// candidates building one name would share torch's build folder).
func TestSuiteCandidatesStatic(t *testing.T) {
	names := map[string]string{}
	nameRE := regexp.MustCompile(`name\s*=\s*"([^"]+)"`)
	for _, suite := range []string{"torch2cuda", "torch2cuda-selftest"} {
		jobs, err := SuiteCandidates(filepath.Join("..", "suites", suite))
		if err != nil || len(jobs) == 0 {
			t.Fatalf("%s: %v (%d candidates)", suite, err, len(jobs))
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
	ev, err := New(Options{CacheDir: os.Getenv("CUDAPERF_TORCH_CACHE")})
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
	// Builds first, in parallel; then the runs, one at a time.
	done := make(chan struct{})
	for _, j := range jobs {
		go func() { ev.Build(context.Background(), j.Candidate); done <- struct{}{} }()
	}
	for range jobs {
		<-done
	}
	out, _ := os.Create(envOr("CUDAPERF_TORCH_SELFTEST_OUT", filepath.Join(t.TempDir(), "selftest.jsonl")))
	defer out.Close()
	for _, j := range jobs {
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
