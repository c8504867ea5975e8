package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/bench/verdict"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	"github.com/urfave/cli/v2"
)

const selftestRoot = "../../bench/suites"

var (
	benchOnce sync.Once
	benchDir  string // cudaperf with the built-in benchmarker plugin, as make build lays them out
)

// benchInstalled builds cudaperf and the benchmarker plugin once and
// returns the folder; it skips without nvcc.
func benchInstalled(t *testing.T) string {
	t.Helper()
	if _, err := nvcc.Find(); err != nil {
		t.Skipf("skipping: %v", err)
	}
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cudaperf-bench-test")
		if err != nil {
			t.Fatal(err)
		}
		plugintest.BuildGo(t, "cmd/cudaperf", dir)
		plugintest.InstallGo(t, "plugins/benchmarker", filepath.Join(dir, "plugins"))
		plugintest.InstallGo(t, "plugins/recorded", filepath.Join(dir, "plugins"))
		benchDir = dir
	})
	if benchDir == "" {
		t.Fatal("installing cudaperf and the benchmarker plugin failed in an earlier test")
	}
	return benchDir
}

// benchRun runs the installed cudaperf with a private compile cache.
func benchRun(t *testing.T, cache string, args ...string) (string, string, int) {
	t.Helper()
	cwd, _ := os.Getwd()
	nvccPath, _ := nvcc.Find() // the plugin runs from a temporary folder: tell it
	return runInstalled(t, filepath.Join(benchInstalled(t), "cudaperf"), cwd,
		[]string{nvcc.EnvCache + "=" + cache, nvcc.EnvNVCC + "=" + nvccPath, pluginhost.PathEnv + "="}, args...)
}

// records reads JSON results, one a line.
func records(t *testing.T, text string) []*bench.Result {
	t.Helper()
	var out []*bench.Result
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r bench.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("stdout line is not a result: %v\n%s", err, sc.Text())
		}
		out = append(out, &r)
	}
	return out
}

func TestBenchCompileOnly(t *testing.T) {
	runs := t.TempDir()
	stdout, stderr, code := benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--suite", "selftest", "--task", "saxpy",
		"--compile-only", "--format", "json", "--runs-dir", runs)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var names []string
	for _, r := range records(t, stdout) {
		if !r.Compile.OK || len(r.Compile.Kernels) == 0 || r.Compile.Kernels[0].Registers == 0 {
			t.Errorf("%s: %+v", r.Candidate, r.Compile)
		}
		names = append(names, r.Candidate)
	}
	if strings.Join(names, ",") != "grid_stride,naive" {
		t.Errorf("candidates %v, want grid_stride,naive", names)
	}
	files, _ := filepath.Glob(filepath.Join(runs, "bench-*", "results.jsonl"))
	if len(files) != 1 {
		t.Fatalf("results files %v", files)
	}
	data, _ := os.ReadFile(files[0])
	if n := strings.Count(string(data), "\n"); n != 2 {
		t.Errorf("results.jsonl has %d lines, want 2", n)
	}
	// --shard 2/2 keeps the second of the two.
	stdout, stderr, code = benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--suite", "selftest", "--task", "saxpy",
		"--compile-only", "--format", "json", "--shard", "2/2", "--runs-dir", runs)
	if rs := records(t, stdout); code != 0 || len(rs) != 1 || rs[0].Candidate != "naive" {
		t.Errorf("--shard 2/2: exit %d, %d records\n%s", code, len(rs), stderr)
	}
	// More hosts than candidates: an empty share is nothing to do, not an
	// error (it was exit 2, "no task found").
	stdout, stderr, code = benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--suite", "selftest", "--task", "saxpy",
		"--compile-only", "--format", "json", "--shard", "3/3", "--runs-dir", runs)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "this share of the 2 candidates selected is empty") {
		t.Errorf("--shard 3/3 of 2 candidates: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}

// TestBenchNoDevice: without a GPU a run must say so and exit 3.
func TestBenchNoDevice(t *testing.T) {
	if s, err := device.Open(); err == nil {
		s.Close()
		t.Skip("a GPU is present")
	}
	if bench.DeviceNodesPresent() {
		t.Skip("GPU device nodes are present")
	}
	_, stderr, code := benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--suite", "selftest", "--task", "saxpy", "--runs-dir", t.TempDir())
	if code != 3 || !strings.Contains(stderr, "no CUDA device found") || !strings.Contains(stderr, "--compile-only") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestBenchBenchmarkerFlag: --benchmarker picks the plugin; an unknown
// name lists the installed ones.
func TestBenchBenchmarkerFlag(t *testing.T) {
	// A name given wrong, with others installed: a usage error naming
	// them, and no run folder left behind.
	runs := t.TempDir()
	_, stderr, code := benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--task", "saxpy", "--compile-only",
		"--benchmarker", "nope", "--runs-dir", runs)
	if code != 2 || !strings.Contains(stderr, `no benchmarker plugin "nope" (installed: cudaperf-benchmarker, recorded;`) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if left, _ := os.ReadDir(runs); len(left) != 0 {
		t.Errorf("the failed run left %v in the runs folder", left)
	}
}

// TestBenchRecorded: with --benchmarker recorded, bench answers the
// measured variants of a task without a GPU, each marked recorded, and a
// candidate nobody measured as not recorded (a failure, exit 1).
func TestBenchRecorded(t *testing.T) {
	// A task without sweep templates, whose every variant was measured.
	const task = "histogram_256"
	variants, _ := filepath.Glob(filepath.Join(selftestRoot, "c2cuda", task, "variants", "*.cu"))
	stdout, stderr, code := benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--suite", "c2cuda", "--task", task,
		"--benchmarker", "recorded", "--format", "json", "--runs-dir", t.TempDir())
	rs := records(t, stdout)
	if code != 0 || len(variants) == 0 || len(rs) != len(variants) {
		t.Fatalf("exit %d, %d records for %d variants\n%s", code, len(rs), len(variants), stderr)
	}
	for _, r := range rs {
		if !r.Recorded || r.Verdict == nil || !r.Verdict.Accepted {
			t.Errorf("%s: recorded %v verdict %+v error %q", r.Candidate, r.Recorded, r.Verdict, r.Error)
		}
	}
	stdout, _, code = benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--suite", "c2cuda", "--task", task,
		"--candidate", filepath.Join("testdata", "bench", "broken.cu"), "--benchmarker", "recorded", "--format", "json", "--runs-dir", t.TempDir())
	rs = records(t, stdout)
	if code != 1 || len(rs) != 1 || rs[0].Recorded || !strings.HasPrefix(rs[0].Error, bench.NotRecorded) {
		t.Errorf("unmeasured candidate: exit %d, records %+v", code, rs)
	}
}

// measured clears what a measurement or the machine's state decides: times,
// clocks, temperature and power, CPU times, the compile cache's state, the stated time
// limit (derived from the reference's time) and the seeds when drawn
// fresh. What is left must be equal on every path.
func measured(r *bench.Result) *bench.Result {
	c := *r
	c.Time, c.Seconds, c.RunWall, c.TimeLimit, c.Clocks = "", 0, 0, 0, nil
	c.GateWait, c.GateExclusive, c.GateShared, c.ContextSeconds, c.StartSeconds, c.ExitSeconds = 0, 0, 0, 0, 0, 0
	c.CPUUser, c.CPUSys = 0, 0
	c.BuildSeconds, c.ReferenceWait, c.SlotWait, c.JudgeSeconds, c.PrestartWait = 0, 0, 0, 0, 0
	c.Compile.Seconds, c.Compile.CPUSeconds, c.Compile.Cached = 0, 0, false
	if c.Device != nil {
		d := *c.Device
		d.SMClockMHz, d.MemClockMHz, d.TemperatureC, d.PowerW, d.Reasons = 0, 0, 0, 0, nil
		c.Device = &d
	}
	if c.Verdict != nil {
		v := *c.Verdict
		v.Configs = slices.Clone(v.Configs)
		v.Speedup = 0
		v.Warnings = slices.DeleteFunc(slices.Clone(v.Warnings), func(w verdict.Reason) bool {
			return w.ID == verdict.ClocksThrottled || w.ID == verdict.BelowBandwidthFloor
		})
		for i := range v.Configs {
			cr := &v.Configs[i]
			cr.Time, cr.RefTime, cr.TailMs, cr.Speedup, cr.FloorMs = nil, nil, 0, 0, 0
			cr.Detail = ""
		}
		c.Verdict = &v
	}
	return &c
}

// TestBenchSameRecords: the same seeds give the same result records through
// the CLI (which reaches the built-in benchmarker plugin through the host),
// through the plugin called directly, and through the bench.Evaluator in
// this process, equal in every field but the measured ones. Without a GPU
// the records are compile-only ones, including a compile failure; with a
// GPU the batch is also run and judged.
func TestBenchSameRecords(t *testing.T) {
	dir := benchInstalled(t)
	cache := t.TempDir()
	nvccPath, _ := nvcc.Find()
	t.Setenv(nvcc.EnvCache, cache) // the plugin started below inherits them
	t.Setenv(nvcc.EnvNVCC, nvccPath)
	batch := filepath.Join("testdata", "bench", "batch.jsonl")
	items, err := bench.LoadBatch(batch)
	if err != nil {
		t.Fatal(err)
	}
	seeds := bench.Settings{Seeds: [2]uint64{11, 12}}

	h, err := pluginhost.New(pluginhost.Options{Dirs: []string{filepath.Join(dir, "plugins")}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	p, ok := h.Plugin("cudaperf-benchmarker")
	if !ok {
		t.Fatal("benchmarker plugin not installed")
	}
	ev, err := bench.NewEvaluator(bench.EvaluatorOptions{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()

	compare := func(t *testing.T, compileOnly bool) {
		args := []string{"bench", "--suites", selftestRoot, "--suite", "selftest", "--batch", batch, "--format", "json", "--seeds", "11,12", "--runs-dir", t.TempDir()}
		s := seeds
		if compileOnly {
			args = append(args, "--compile-only")
			s.CompileOnly = true
		}
		stdout, stderr, code := benchRun(t, cache, args...)
		if code != 0 {
			t.Fatalf("cudaperf %v: exit %d\n%s\n%s", args, code, stdout, stderr)
		}
		cli := records(t, stdout)
		if len(cli) != len(items) {
			t.Fatalf("%d records for %d candidates", len(cli), len(items))
		}
		for i, it := range items {
			c := it.Candidate(filepath.Dir(batch))
			src, err := os.ReadFile(c.Path)
			if err != nil {
				t.Fatal(err)
			}
			task, _ := filepath.Abs(filepath.Join(selftestRoot, "selftest", it.Task))
			j := bench.Job{TaskPath: task, Source: src, Filename: c.Path, Name: c.Name, Kind: c.Kind, Expect: c.Expect, Settings: s}
			viaPlugin, err := p.EvaluateJob(context.Background(), j)
			if err != nil {
				t.Fatal(err)
			}
			direct, err := ev.Run(context.Background(), j)
			if err != nil {
				t.Fatal(err)
			}
			want := measured(cli[i])
			for name, got := range map[string]*bench.Result{"plugin": viaPlugin, "evaluator": direct} {
				if g := measured(got); !reflect.DeepEqual(g, want) {
					a, _ := json.MarshalIndent(want, "", " ")
					b, _ := json.MarshalIndent(g, "", " ")
					t.Errorf("%s: CLI and %s records differ:\nCLI: %s\n%s: %s", c.Name, name, a, name, b)
				}
			}
		}
		// The records say what became of each class.
		if compileOnly {
			if cli[0].Compile.OK != true || cli[1].Compile.OK || cli[1].Verdict == nil || !cli[1].Verdict.Has(verdict.CompileError) {
				t.Errorf("compile-only records: honest ok=%v, broken ok=%v verdict %+v", cli[0].Compile.OK, cli[1].Compile.OK, cli[1].Verdict)
			}
			return
		}
		for i, r := range cli {
			if (items[i].Class == bench.ClassHonest) != (r.Verdict != nil && r.Verdict.Accepted) || (r.Kind == bench.KindCheat && !r.Caught) {
				t.Errorf("%s (%s): verdict %+v caught %v", r.Candidate, items[i].Class, r.Verdict, r.Caught)
			}
		}
	}
	t.Run("compile-only", func(t *testing.T) { compare(t, true) })
	t.Run("gpu", func(t *testing.T) {
		if err := ev.GPUError(); err != nil {
			t.Skipf("skipping the run on a GPU: %v (compile-only records were compared)", err)
		}
		compare(t, false)
	})
}

func TestBenchUsage(t *testing.T) {
	bad := t.TempDir()
	task := filepath.Join(bad, "mine", "broken")
	if err := os.MkdirAll(task, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(task, "task.yaml"), []byte("name: broken\nentry: 3x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "xml"}, `--format "xml"`},
		{[]string{"--seeds", "5"}, `--seeds "5"`},
		{[]string{"--profile", "fast"}, `profile "fast" is unknown`},
		{[]string{"--candidate", "x.cu"}, "needs exactly one --task"},
		{[]string{"--batch", "nope.jsonl"}, "nope.jsonl"},
		{[]string{"--suites", selftestRoot, "--task", "saxpy", "--shard", "3/2"}, `--shard "3/2"`},
		{[]string{"--suites", selftestRoot, "--task", "nope", "--compile-only"}, `no task "nope"`},
		{[]string{"--suites", selftestRoot, "--suite", "nope", "--compile-only"}, `no suite "nope"`},
		{[]string{"--suites", bad, "--compile-only"}, "task.yaml: entry: \"3x\" is not a C identifier"},
	} {
		_, stderr, code := runCudaperf(t, "", append([]string{"bench"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("bench %v: exit %d, stderr:\n%s\nwant exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestBenchKernelBenchUsage: --kernelbench names what it looked for when
// the folder is not a KernelBench checkout, and refuses flags that select
// other candidates.
func TestBenchKernelBenchUsage(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := benchRun(t, dir, "bench", "--kernelbench", dir, "--level", "3", "--runs-dir", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "no KernelBench level 3 under") || !strings.Contains(stderr, "KernelBench/level3") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, code = benchRun(t, dir, "bench", "--kernelbench", dir, "--suite", "c2cuda", "--runs-dir", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "drop --batch, --candidate and --suite") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestBenchItemsTorch2cuda: --suite and --task reach torch2cuda tasks (a
// folder with problem.py) as the README shows, each with its eager
// baseline first; a --task name that a c2cuda suite also has stays the
// c2cuda task unless --suite says otherwise.
func TestBenchItemsTorch2cuda(t *testing.T) {
	root := filepath.Join(plugintest.ModuleRoot(t), "bench", "suites")
	items := func(args ...string) ([]string, error) {
		var got []string
		cmd := benchCommand()
		cmd.Subcommands = nil
		cmd.Action = func(c *cli.Context) error {
			its, errs, err := benchItems(c)
			if err == nil && len(errs) > 0 {
				err = errs[0]
			}
			for _, it := range its {
				got = append(got, fmt.Sprintf("%s/%s/%s:%s", it.task.Suite, it.task.Name, it.cand.Name, it.kind))
			}
			return err
		}
		app := &cli.App{Commands: []*cli.Command{cmd}}
		err := app.Run(append([]string{"cudaperf", "bench", "--suites", root}, args...))
		return got, err
	}
	got, err := items("--suite", "torch2cuda", "--task", "softmax_rows")
	want := []string{"torch2cuda/softmax_rows/pytorch:torch2cuda", "torch2cuda/softmax_rows/block_online:torch2cuda",
		"torch2cuda/softmax_rows/thread_per_row:torch2cuda", "torch2cuda/softmax_rows/warp_per_row:torch2cuda"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("--suite torch2cuda --task softmax_rows: %v, %v; want %v", got, err, want)
	}
	got, err = items("--task", "softmax_rows")
	if err != nil || len(got) == 0 || !strings.HasPrefix(got[0], "c2cuda/softmax_rows/") || !strings.HasSuffix(got[0], ":") {
		t.Errorf("--task softmax_rows: %v, %v; want the c2cuda task's variants", got, err)
	}
	got, err = items("--task", "relu", "--cheats")
	if err != nil || len(got) < 3 || got[0] != "torch2cuda-selftest/relu/pytorch:torch2cuda" || !slices.Contains(got, "torch2cuda-selftest/relu/in_place:torch2cuda") {
		t.Errorf("--task relu --cheats: %v, %v; want the torch2cuda-selftest task with its cheats", got, err)
	}
	mine := filepath.Join(t.TempDir(), "mine.py")
	if err := os.WriteFile(mine, []byte("class ModelNew: pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = items("--suite", "torch2cuda-selftest", "--task", "relu", "--candidate", mine)
	if err != nil || !slices.Equal(got, []string{"torch2cuda-selftest/relu/pytorch:torch2cuda", "torch2cuda-selftest/relu/mine:torch2cuda"}) {
		t.Errorf("--task relu --candidate mine.py: %v, %v", got, err)
	}
	if _, err = items("--suite", "torch2cuda", "--task", "nosuch"); err == nil || !strings.Contains(err.Error(), `no task "nosuch" in suite torch2cuda`) {
		t.Errorf("--suite torch2cuda --task nosuch: %v", err)
	}
}

// TestBenchRefusesWhatItWouldIgnoreOrGuess: --task with --batch was
// ignored (all 128 candidates ran); --cheats with --candidate ran no cheat;
// a batch task two suites share (saxpy: c2cuda and selftest) went to the
// one sorted last. Each is a usage error before anything compiles.
func TestBenchRefusesWhatItWouldIgnoreOrGuess(t *testing.T) {
	root := plugintest.ModuleRoot(t)
	dir := t.TempDir()
	cand := filepath.Join(dir, "k.cu")
	os.WriteFile(cand, []byte("// strategy: x\n"), 0o644)
	manifest := filepath.Join(dir, "m.jsonl")
	os.WriteFile(manifest, []byte(`{"task":"saxpy","file":"k.cu","class":"honest"}`+"\n"), 0o644)
	suites := filepath.Join(root, "bench", "suites")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--batch", filepath.Join(root, "bench", "rlbatch", "manifest.jsonl"), "--task", "vector_add"}, "drop --candidate, --cheats and --task"},
		{[]string{"--suites", suites, "--task", "saxpy", "--candidate", cand, "--cheats"}, "--cheats runs the task's own cheats, --candidate your files"},
		{[]string{"--suites", suites, "--batch", manifest}, `task "saxpy" is in suites`},
	} {
		_, errOut, code := benchRun(t, t.TempDir(), append([]string{"bench", "--compile-only"}, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit %d and %q", c.args, code, errOut, exitUsage, c.want)
		}
	}
}

// TestSkipMeasuredBySuite: c2cuda and selftest share task names; a record
// of c2cuda's saxpy/naive skipped selftest's too. A record naming no suite
// still matches any.
func TestSkipMeasuredBySuite(t *testing.T) {
	items := []benchItem{
		{task: &task.Task{Suite: "c2cuda", Name: "saxpy"}, cand: bench.Candidate{Name: "naive"}},
		{task: &task.Task{Suite: "selftest", Name: "saxpy"}, cand: bench.Candidate{Name: "naive"}},
		{task: &task.Task{Suite: "selftest", Name: "gemm"}, cand: bench.Candidate{Name: "tiled"}},
	}
	file := filepath.Join(t.TempDir(), "results.jsonl")
	os.WriteFile(file, []byte(`{"suite":"c2cuda","task":"saxpy","candidate":"naive","compile":{"ok":true},"ran":true}`+"\n"+
		`{"task":"gemm","candidate":"tiled","compile":{"ok":false}}`+"\n"), 0o644)
	left, err := skipMeasured(items, []string{file})
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0].task.Suite != "selftest" || left[0].task.Name != "saxpy" {
		t.Errorf("left %d items (%v); want selftest/saxpy naive alone", len(left), left)
	}
}
