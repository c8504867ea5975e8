package torch2cuda

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench/verdict"
)

func loadRecords(t *testing.T, name string) []Record {
	t.Helper()
	path := filepath.Join("testdata", "records", name+".jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ParseRecords(path, data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return recs
}

// TestJudgeRecords runs the decision logic on hand-written runner records,
// one per behaviour: each cheat class is refused with its own reason and
// nothing else goes wrong with an honest run.
func TestJudgeRecords(t *testing.T) {
	tol, _ := Tolerances(false, nil)
	cases := []struct {
		file    string
		reasons []string // exactly these ids, in any order; none: accepted
		errText string   // Judge's error instead of a verdict
	}{
		{file: "honest"},
		{file: "honest_no_compile"},
		{file: "wrong", reasons: []string{verdict.WrongResult}},
		{file: "partial", reasons: []string{verdict.PartiallyCorrect}},
		{file: "cached_output", reasons: []string{verdict.PartiallyCorrect, verdict.InputIndependent}},
		{file: "constant_ref"}, // the reference itself ignores the seed: equal outputs are right
		{file: "input_modified", reasons: []string{verdict.InputModified}},
		{file: "side_stream", reasons: []string{verdict.HiddenWork}},
		{file: "unsynced_stream", reasons: []string{verdict.UnsyncedStream}},
		{file: "calls_torch", reasons: []string{verdict.NoCustomKernel}},
		{file: "torch_dominant", reasons: []string{verdict.PyTorchOp}},
		{file: "output_reused", reasons: []string{verdict.OutputReused}},
		{file: "few_seeds", reasons: []string{verdict.RuntimeError}},
		{file: "crash_seed", reasons: []string{verdict.RuntimeError}},
		{file: "wrong_shape", reasons: []string{verdict.WrongResult}},
		{file: "nan_error", reasons: []string{verdict.PartiallyCorrect}},
		{file: "compile_error", reasons: []string{verdict.CompileError}},
		{file: "no_modelnew", reasons: []string{verdict.InvalidCandidate}},
		{file: "init_error", reasons: []string{verdict.RuntimeError}},
		{file: "killed", reasons: []string{verdict.Timeout}},
		{file: "bad_tolerance", errText: "compared with rtol 0.1 atol 0.1, want rtol 0.0001 atol 0.0001"},
		{file: "no_gpu", errText: "torch sees no CUDA device"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			opt := JudgeOptions{Seeds: 5, Tolerances: tol, OwnKernels: []string{"relu_kernel"}, TimedOut: c.file == "killed"}
			v, err := Judge(loadRecords(t, c.file), opt)
			if c.errText != "" {
				if err == nil || !strings.Contains(err.Error(), c.errText) {
					t.Fatalf("error %v, want one containing %q", err, c.errText)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range v.Reasons {
				got = append(got, r.ID)
			}
			slices.Sort(got)
			want := slices.Clone(c.reasons)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("reasons %v, want %v (%+v)", got, want, v.Reasons)
			}
			if v.Accepted != (len(want) == 0) {
				t.Fatalf("accepted %v with reasons %v", v.Accepted, got)
			}
		})
	}
}

// TestJudgeSpeedups checks the numbers an honest run reports: eager over
// candidate and torch.compile over candidate, on the primary config; a
// failed torch.compile leaves its speedup out and says why.
func TestJudgeSpeedups(t *testing.T) {
	tol, _ := Tolerances(false, nil)
	opt := JudgeOptions{Seeds: 5, Tolerances: tol, OwnKernels: []string{"relu_kernel"}}
	v, err := Judge(loadRecords(t, "honest"), opt)
	if err != nil {
		t.Fatal(err)
	}
	c := v.Configs[0]
	if !c.Primary || c.Name != ConfigName || c.Elements != 5*32 || c.Time.Median != 0.2 || c.RefTime.Median != 0.25 {
		t.Fatalf("config %+v", c)
	}
	if v.Speedup != 0.25/0.2 || v.SpeedupCompiled != 0.24/0.2 {
		t.Fatalf("speedups %v %v, want 1.25 1.2", v.Speedup, v.SpeedupCompiled)
	}
	v, err = Judge(loadRecords(t, "honest_no_compile"), opt)
	if err != nil {
		t.Fatal(err)
	}
	if v.SpeedupCompiled != 0 || !strings.Contains(v.Configs[0].Detail, "torch.compile baseline failed") {
		t.Fatalf("no-compile verdict %+v", v.Configs[0])
	}
}

// TestOwnKernel matches __global__ names inside profiler names as whole
// identifiers only.
func TestOwnKernel(t *testing.T) {
	own := []string{"add", "relu_kernel"}
	for name, want := range map[string]bool{
		"relu_kernel(float const*, float*, long)":        true,
		"void relu_kernel<float>(float const*, float*)":  true,
		"void at::native::add_kernel<float>(float*)":     false,
		"add(float*, int)":                               true,
		"void at::native::vectorized_elementwise_kernel": false,
	} {
		if got := ownKernel(name, own); got != want {
			t.Errorf("ownKernel(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestParseRecordsErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"type":"check","schema":2}` + "\n", "record schema 2, want 1"},
		{`{"type":"bogus","schema":1}` + "\n", `unknown record type "bogus"`},
		{`not json` + "\n" + `{"type":"done","schema":1}` + "\n", "x.jsonl:1: not a runner record"},
	} {
		_, err := ParseRecords("x.jsonl", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
	recs, err := ParseRecords("x.jsonl", []byte(`{"type":"done","schema":1}`+"\n"+`{"type":"ti`))
	if err != nil || len(recs) != 1 {
		t.Fatalf("truncated last line: %v %v", recs, err)
	}
}

func TestTolerances(t *testing.T) {
	tol, err := Tolerances(false, []string{"float32=1e-3,1e-5"})
	if err != nil || tol["float32"] != (Tolerance{1e-3, 1e-5}) || tol["float16"] != DefaultTolerances["float16"] || tol["int32"] != (Tolerance{}) {
		t.Fatalf("%v %v", tol, err)
	}
	kb, _ := Tolerances(true, nil)
	if kb["float32"] != KernelBenchTolerance || kb["bfloat16"] != KernelBenchTolerance || kb["int64"] != (Tolerance{}) {
		t.Fatalf("kernelbench table %v", kb)
	}
	for _, bad := range []string{"float32", "float32=x", "float33=1,1", "float32=-1,0"} {
		if _, err := Tolerances(false, []string{bad}); err == nil || !strings.Contains(err.Error(), "tolerance") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
	if got := runnerArg(map[string]Tolerance{"float32": {1e-4, 1e-5}, "int32": {}}); got != `{"float32": [0.0001, 1e-05], "int32": [0, 0]}` {
		t.Fatalf("runnerArg %s", got)
	}
}

// TestProblemTolerances: a problem's own tolerance line replaces its
// dtype's entry for that problem only; a malformed one names the file;
// every problem of the suite parses (col_sum declares one).
func TestProblemTolerances(t *testing.T) {
	base, _ := Tolerances(false, nil)
	src := []byte("import torch\n# cudaperf: tolerance float32=1e-4,5e-3\nclass Model: pass\n")
	tol, err := ProblemTolerances(base, "p.py", src)
	if err != nil || tol["float32"] != (Tolerance{1e-4, 5e-3}) || tol["float16"] != base["float16"] {
		t.Fatalf("table %v, error %v", tol, err)
	}
	if base["float32"] != DefaultTolerances["float32"] {
		t.Errorf("the run's table was changed: %v", base["float32"])
	}
	if tol, _ := ProblemTolerances(base, "p.py", []byte("x = 1  # cudaperf: tolerance float32=1,1\n")); tol["float32"] != base["float32"] {
		t.Errorf("a directive that is not a line of its own applied: %v", tol["float32"])
	}
	if _, err := ProblemTolerances(base, "bad.py", []byte("# cudaperf: tolerance float32=a,b\n")); err == nil || !strings.Contains(err.Error(), "bad.py") {
		t.Errorf("malformed directive: error %v, want one naming bad.py", err)
	}
	problems, _ := filepath.Glob("../suites/torch2cuda/*/problem.py")
	declared := 0
	for _, p := range problems {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		tol, err := ProblemTolerances(base, p, src)
		if err != nil {
			t.Error(err)
		}
		if tol["float32"] != base["float32"] {
			declared++
		}
	}
	if len(problems) < 30 || declared == 0 {
		t.Errorf("%d problems, %d with their own float32 tolerance; want 30 or more, and col_sum's", len(problems), declared)
	}
}
