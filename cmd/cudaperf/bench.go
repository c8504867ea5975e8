package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/dataset"
	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/results"
	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/bench/torch2cuda"
	"github.com/cudaperf/cudaperf/bench/verdict"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// defaultBenchmarker is the built-in benchmarker plugin (plugins/benchmarker).
const defaultBenchmarker = "cudaperf-benchmarker"

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:      "bench",
		Usage:     "compile, run and check CUDA candidates of c2cuda tasks (and KernelBench problems) on a GPU",
		ArgsUsage: " ",
		Description: "For every selected task (bench/suites/<suite>/<task>/) and candidate (the task's\n" +
			"variants/*.cu, --candidate FILE.cu, or the candidates of a --batch manifest) bench asks a\n" +
			"benchmarker plugin (the built-in one, or --benchmarker NAME) to compile with nvcc -O3\n" +
			"-arch=sm_<cc> -Xptxas -v (parallel, cached), run each candidate in its own process against\n" +
			"the C reference (gcc -O2) on every configuration with fresh random inputs, poisoned outputs,\n" +
			"warm-up, timed repetitions with an L2 flush between them, and reject cheats with a reason.\n" +
			"Candidates are spread over every visible GPU (CUDA_VISIBLE_DEVICES): one at a time per GPU\n" +
			"in the report profile; in the rl profile up to 8 processes per GPU ($CUDAPERF_GPU_SLOTS)\n" +
			"overlap all but their timed calls, which still run one at a time.\n" +
			"Results are appended as JSON lines to <runs-dir>/bench-<UTC>/results.jsonl.\n\n" +
			"Profiles: report (default) runs every configuration with 3 warm-up and 20 timed calls, 30 s\n" +
			"per configuration; rl runs the task's RL configurations (the primary and an odd size, or those\n" +
			"marked rl: true) with 1 warm-up and 5 timed calls, each configuration limited to\n" +
			"max(1 s, 20x the C reference's time for one call), plus 5 s to start CUDA (its timed\n" +
			"calls, which hold the GPU alone, to max(0.25 s, 20x the reference's); --timeout sets both), and gives\n" +
			"candidates CUDA_DEVICE_MAX_CONNECTIONS=1 unless it is set (contexts start about twice as fast\n" +
			"when many start at once). Both run the same checks.\n\n" +
			"KernelBench: --kernelbench DIR --level N runs the problems of a KernelBench checkout\n" +
			"unchanged (torch2cuda tasks: Model, get_inputs, get_init_inputs): for each problem the eager\n" +
			"PyTorch and torch.compile times (CUDA events, L2 flushed), and, where --kernelbench-candidates\n" +
			"DIR holds a ModelNew file of the problem's name, that candidate: built with load_inline,\n" +
			"checked over 5 seeds against Model, timed and screened for cheats (bench/torch2cuda).\n" +
			"The benchmarker's machine needs python3 with torch ($CUDAPERF_PYTHON) and a GPU.\n" +
			"  cudaperf bench --kernelbench ~/KernelBench --level 1 --limit 20\n" +
			"The suites' torch2cuda tasks (a folder with problem.py) are selected like c2cuda ones, each\n" +
			"with its eager baseline first, then its variants/*.py (--cheats: cheats/*.py) or --candidate:\n" +
			"  cudaperf bench --suite torch2cuda --task softmax_rows\n\n" +
			"Exit codes: 0 all candidates accepted (cheats rejected), 1 some variant or candidate\n" +
			"failed to compile or was rejected, 2 usage or task errors, 3 no GPU or tool failure.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "suites", Value: filepath.Join("bench", "suites"), Usage: "root `DIR` of the task suites"},
			&cli.StringFlag{Name: "suite", Usage: "only the suite `S` (default: all)"},
			&cli.StringSliceFlag{Name: "task", Usage: "only task `T` (repeatable)"},
			&cli.StringSliceFlag{Name: "candidate", Usage: "evaluate `FILE.cu` instead of the task's variants (repeatable; needs one --task)"},
			&cli.StringFlag{Name: "kernelbench", Usage: "run the problems of a KernelBench checkout `DIR` unchanged (torch2cuda: eager and torch.compile times, and candidates from --kernelbench-candidates); needs python3 with torch on the benchmarker's machine"},
			&cli.IntFlag{Name: "level", Value: 1, Usage: "KernelBench `LEVEL` for --kernelbench"},
			&cli.IntFlag{Name: "limit", Usage: "with --kernelbench: only the first `N` problems of the level"},
			&cli.StringFlag{Name: "kernelbench-candidates", Usage: "with --kernelbench: `DIR` of candidates (ModelNew files) named like the problems they implement"},
			&cli.StringFlag{Name: "batch", Usage: "evaluate the candidates of a batch `MANIFEST` (JSON lines: task, file, class; e.g. bench/rlbatch/manifest.jsonl)"},
			&cli.BoolFlag{Name: "cheats", Usage: "also evaluate cheats/*.cu (selftest suites); they must be rejected"},
			&cli.BoolFlag{Name: "compile-only", Usage: "compile only (and check that each task's programs build): no GPU needed"},
			&cli.StringFlag{Name: "profile", Value: string(bench.ProfileReport), Usage: "evaluation `PROFILE`: report (full rigour) or rl (RL configurations, fewer calls, the RL time limit)"},
			&cli.IntFlag{Name: "repeats", DefaultText: "the profile's, 20 or 5", Usage: "timed calls per configuration"},
			&cli.IntFlag{Name: "warmup", DefaultText: "the profile's, 3 or 1", Usage: "untimed calls before timing"},
			&cli.DurationFlag{Name: "timeout", DefaultText: "the profile's, 30s or the RL rule", Usage: "wall-time limit per configuration"},
			&cli.StringFlag{Name: "arch", Usage: "nvcc `ARCH` such as sm_90 (default: the GPU's, else " + device.DefaultArch + ")"},
			&cli.StringFlag{Name: "nvcc", Usage: "nvcc `PATH` (default: $CUDAPERF_NVCC, PATH, /usr/local/cuda/bin, .venv)"},
			&cli.IntFlag{Name: "jobs", DefaultText: "CPUs", Usage: "parallel compiles"},
			&cli.IntFlag{Name: "in-flight", DefaultText: "8 per CPU", Usage: "candidates sent to the benchmarker at once; it compiles --jobs of them and runs its GPU slots' worth at a time, so more in flight keep both busy while a task's reference program runs, fewer keep fewer tasks' inputs staged at once"},
			&cli.StringFlag{Name: "seeds", Usage: "input seeds `A,B` (default: fresh random ones); reproduce a result with the seeds it recorded"},
			&cli.StringFlag{Name: "cache", Usage: "compile cache `DIR` (default: $XDG_CACHE_HOME/cudaperf)"},
			&cli.StringSliceFlag{Name: "skip-measured", Usage: "skip candidates that a results `FILE` (repeatable; globs allowed) already holds a finished record of (same task and candidate): resume a measurement cut short"},
			&cli.DurationFlag{Name: "time-budget", Usage: "send no new candidate after `DURATION` (the ones in flight finish, up to --time-grace more), so a run in a time-limited slot stops cleanly; resume with --skip-measured"},
			&cli.DurationFlag{Name: "time-grace", Value: time.Minute, Usage: "with --time-budget: after the budget, how long candidates in flight may still finish before they are cancelled (and left for the next run)"},
			&cli.StringFlag{Name: "shard", Usage: "evaluate only share `K/N` (every N-th candidate from the K-th) of the selection: split the work over N hosts"},
			&cli.StringFlag{Name: "benchmarker", Value: defaultBenchmarker, Usage: "benchmarker plugin `NAME` that evaluates (see `cudaperf plugins list`)"},
			&cli.StringFlag{Name: "runs-dir", Value: "runs", Usage: "results go to `DIR`/bench-<UTC>/results.jsonl"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json (one result per line)"},
		},
		Action:      benchAction,
		Subcommands: []*cli.Command{benchReportCommand()},
	}
}

// benchItem is one candidate of one task to send to the benchmarker.
type benchItem struct {
	task *task.Task
	cand bench.Candidate
	kind string // task kind: "" (c2cuda) or torch2cuda.Kind
}

// loadErrorsHint names the task folders that failed to load, which may be
// why a task is "not under" the suites (a task.yaml with a typo).
func loadErrorsHint(errs []error) string {
	if len(errs) == 0 {
		return ""
	}
	return fmt.Sprintf(" (some task folders did not load: %v)", errors.Join(errs...))
}

// benchItems lists what the flags select, in order.
func benchItems(c *cli.Context) ([]benchItem, []error, error) {
	if kb := c.String("kernelbench"); kb != "" {
		return kernelBenchItems(c, kb)
	}
	if b := c.String("batch"); b != "" {
		if len(c.StringSlice("candidate")) > 0 || c.Bool("cheats") || len(c.StringSlice("task")) > 0 {
			return nil, nil, usageErrorf("bench: --batch gives the candidates and their tasks; drop --candidate, --cheats and --task (--task was ignored)")
		}
		items, err := bench.LoadBatch(b)
		if err != nil {
			return nil, nil, usageErrorf("%v", err)
		}
		tasks, errs := bench.LoadTasks(c.String("suites"), c.String("suite"), nil)
		byName := map[string][]*task.Task{}
		for _, t := range tasks {
			byName[t.Name] = append(byName[t.Name], t)
		}
		var out []benchItem
		for _, it := range items {
			ts := byName[it.Task]
			switch {
			case len(ts) == 0:
				return nil, errs, usageErrorf("bench: --batch %s: task %q is not under %s%s", b, it.Task, c.String("suites"), loadErrorsHint(errs))
			case len(ts) > 1:
				// Two suites share the name (c2cuda and selftest: saxpy):
				// the one sorted last had been taken without a word.
				var suites []string
				for _, t := range ts {
					suites = append(suites, t.Suite)
				}
				return nil, nil, usageErrorf("bench: --batch %s: task %q is in suites %s: name one with --suite", b, it.Task, strings.Join(suites, " and "))
			}
			out = append(out, benchItem{task: ts[0], cand: it.Candidate(filepath.Dir(b))})
		}
		return out, nil, nil
	}
	userCands := c.StringSlice("candidate")
	if len(userCands) > 0 && len(c.StringSlice("task")) != 1 {
		return nil, nil, usageErrorf("bench: --candidate needs exactly one --task naming the task it implements")
	}
	if len(userCands) > 0 && c.Bool("cheats") {
		// The task's cheats are not what --candidate runs: accepted, the
		// flag ran nothing.
		return nil, nil, usageErrorf("bench: --cheats runs the task's own cheats, --candidate your files: give one of them")
	}
	for _, cand := range userCands {
		if _, err := os.Stat(cand); err != nil {
			return nil, nil, usageErrorf("bench: --candidate: %v", err)
		}
	}
	t2c, names, err := torch2cudaItems(c, userCands)
	if err != nil {
		return nil, nil, err
	}
	if len(t2c) > 0 && len(names) == 0 && (c.String("suite") != "" || len(c.StringSlice("task")) > 0) {
		return t2c, nil, nil // every task asked for is a torch2cuda one
	}
	tasks, errs := bench.LoadTasks(c.String("suites"), c.String("suite"), names)
	out := t2c
	for _, t := range tasks {
		if len(userCands) > 0 {
			for _, cand := range userCands {
				out = append(out, benchItem{task: t, cand: bench.Candidate{Name: strings.TrimSuffix(filepath.Base(cand), ".cu"), Path: cand, Kind: bench.KindCandidate}})
			}
			continue
		}
		for _, cd := range bench.Variants(t) {
			out = append(out, benchItem{task: t, cand: cd})
		}
		if c.Bool("cheats") {
			for _, cd := range bench.Cheats(t) {
				out = append(out, benchItem{task: t, cand: cd})
			}
		}
	}
	return out, errs, nil
}

func benchSettings(c *cli.Context) (bench.Settings, error) {
	prof, err := bench.ParseProfile(c.String("profile"))
	if err != nil {
		return bench.Settings{}, usageErrorf("%v", err)
	}
	if c.Int("repeats") < 0 || c.Int("warmup") < 0 || c.Duration("timeout") < 0 {
		return bench.Settings{}, usageErrorf("bench: --repeats, --warmup and --timeout must not be negative")
	}
	s := bench.Settings{Profile: prof, Warmup: c.Int("warmup"), Repeats: c.Int("repeats"), TimeLimit: c.Duration("timeout"),
		Arch: c.String("arch"), CompileOnly: c.Bool("compile-only")}
	if v := c.String("seeds"); v != "" {
		a, b, ok := strings.Cut(v, ",")
		var errA, errB error
		s.Seeds[0], errA = strconv.ParseUint(strings.TrimSpace(a), 10, 63)
		s.Seeds[1], errB = strconv.ParseUint(strings.TrimSpace(b), 10, 63)
		if !ok || errA != nil || errB != nil || s.Seeds[0] == s.Seeds[1] || s.Seeds[0] == 0 || s.Seeds[1] == 0 {
			return s, usageErrorf("bench: --seeds %q: want two different positive integers A,B below 2^63", v)
		}
	}
	return s, nil
}

// openBenchmarker starts the benchmarker plugin named by --benchmarker,
// passing --nvcc, --cache and --jobs to it through its environment.
func openBenchmarker(c *cli.Context, prof bench.Profile) (*pluginhost.Host, *pluginhost.Plugin, error) {
	for flag, env := range map[string]string{"nvcc": nvcc.EnvNVCC, "cache": nvcc.EnvCache, "jobs": bench.EnvJobs} {
		if c.IsSet(flag) {
			os.Setenv(env, fmt.Sprint(c.Value(flag)))
		}
	}
	h, err := openHost(c)
	if err != nil {
		return nil, nil, err
	}
	name := c.String("benchmarker")
	p, ok := h.Plugin(name)
	if err := leftOutError(h, name); !ok && err != nil {
		h.Close()
		return nil, nil, err
	}
	if !ok || p.Kind() != sdk.KindBenchmarker {
		var have []string
		for _, q := range h.OfKind(sdk.KindBenchmarker) {
			have = append(have, q.Name())
		}
		h.Close()
		if len(have) > 0 { // a name given wrong
			return nil, nil, usageErrorf("bench: no benchmarker plugin %q (installed: %s; see 'cudaperf plugins list')", name, strings.Join(have, ", "))
		}
		return nil, nil, failuref("bench: no benchmarker plugin %q, nor any other; build them with `make build`, or point --plugin-dir or $%s at them",
			name, pluginhost.PathEnv)
	}
	d, err := p.DescribeBenchmarker(c.Context)
	if err != nil {
		h.Close()
		return nil, nil, failuref("bench: %v", err)
	}
	if prof != bench.ProfileReport && !slices.Contains(d.GetProfiles(), string(prof)) {
		h.Close()
		return nil, nil, usageErrorf("bench: benchmarker %s has no profile %q (it has: %s)", name, prof, strings.Join(d.GetProfiles(), ", "))
	}
	return h, p, nil
}

// checkBenchFlags refuses values bench would otherwise ignore or misread:
// KernelBench's flags without --kernelbench, and negative counts and
// durations (each had been accepted and done nothing, or the default).
func checkBenchFlags(c *cli.Context) error {
	if c.String("kernelbench") == "" {
		for _, f := range []string{"level", "limit", "kernelbench-candidates"} {
			if c.IsSet(f) {
				return usageErrorf("bench: --%s goes with --kernelbench DIR (a KernelBench checkout); without it, it does nothing", f)
			}
		}
	}
	for _, f := range []string{"jobs", "in-flight", "limit"} {
		if n := c.Int(f); n < 0 {
			return usageErrorf("bench: --%s %d: give 1 or more (or leave it out for the default)", f, n)
		}
	}
	if d := c.Duration("time-budget"); d < 0 {
		return usageErrorf("bench: --time-budget %v: give a positive duration, or leave it out for none", d)
	}
	return nil
}

// benchRequestTimeout bounds the wait for one candidate's answer: the
// reference may take minutes the first time, and candidates queue for the
// compile pool and the GPUs.
const benchRequestTimeout = 30 * time.Minute

func benchAction(c *cli.Context) error {
	format := c.String("format")
	if format != "text" && format != "json" {
		return usageErrorf("bench: --format %q: want text or json", format)
	}
	if err := checkBenchFlags(c); err != nil {
		return err
	}
	settings, err := benchSettings(c)
	if err != nil {
		return err
	}
	items, taskErrs, err := benchItems(c)
	if err != nil {
		return err
	}
	selected := len(items)
	if items, err = shard(items, c.String("shard")); err != nil {
		return err
	}
	if len(items) == 0 && selected > 0 {
		// More hosts than candidates: this share is empty, which a script
		// splitting work over N hosts meets as a normal case (it was exit
		// 2, "no task found").
		fmt.Fprintf(os.Stderr, "cudaperf: bench: --shard %s: this share of the %d candidates selected is empty; nothing to do\n", c.String("shard"), selected)
		return nil
	}
	if files := c.StringSlice("skip-measured"); len(files) > 0 {
		before := len(items)
		if items, err = skipMeasured(items, files); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "cudaperf: bench: %d of %d candidates already measured in %s; %d left\n", before-len(items), before, strings.Join(files, ", "), len(items))
		if len(items) == 0 {
			return nil
		}
	}
	for _, err := range taskErrs {
		fmt.Fprintf(os.Stderr, "cudaperf: %v\n", err)
	}
	if len(items) == 0 {
		if len(taskErrs) > 0 {
			return usageErrorf("bench: no valid task selected")
		}
		return usageErrorf("bench: no task found under %s (suite %q, tasks %v)", c.String("suites"), c.String("suite"), c.StringSlice("task"))
	}

	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	h, p, err := openBenchmarker(c, settings.Profile)
	if err != nil {
		return err
	}
	defer h.Close()
	w, err := results.OpenNew(c.String("runs-dir"), time.Now())
	if err != nil {
		return failuref("%v", err)
	}
	defer w.CloseDropEmpty()

	bar := newBar(len(items), "bench", format == "text")
	out := c.App.Writer
	bad := 0
	emit := func(r *bench.Result) {
		if err := w.Append(r); err != nil {
			fmt.Fprintf(os.Stderr, "cudaperf: %v\n", err)
		}
		bar.clear()
		if format == "json" {
			b, _ := json.Marshal(r)
			fmt.Fprintf(out, "%s\n", b)
		} else {
			printResult(out, r, settings.CompileOnly)
		}
		bar.add()
		if failed(r, settings.CompileOnly) {
			bad++
		}
	}
	// Every candidate is a concurrent request: the plugin compiles up to
	// one per CPU at once and runs up to its slots per GPU at once, so a
	// bounded number in flight keeps both busy. Bounded, because each task
	// in flight has its inputs and reference outputs staged (hundreds of
	// MB for a large configuration); 8 per CPU, so that an RL-sized batch
	// (128 candidates on the 16-CPU H200 machine) goes at once and its
	// compiles run ahead of the GPU slots. Measured there against 2 per
	// CPU: the same candidates/min, a higher latency per candidate
	// (bench/RESULTS.md, lease 10). Results are printed in order.
	// A time budget stops the dispatch, and budget + grace cancels what is
	// still in flight; both leave the rest for a run with --skip-measured.
	dispatch, hard := ctx, ctx
	budget := c.Duration("time-budget")
	if budget > 0 {
		var cancelDispatch, cancelHard context.CancelFunc
		dispatch, cancelDispatch = context.WithTimeout(ctx, budget)
		defer cancelDispatch()
		hard, cancelHard = context.WithTimeout(ctx, budget+max(c.Duration("time-grace"), 0))
		defer cancelHard()
	}
	rctx := pluginhost.WithRequestTimeout(hard, benchRequestTimeout)
	type slot struct {
		r    *bench.Result
		err  error
		done chan struct{}
	}
	slots := make([]*slot, len(items))
	for i := range slots {
		slots[i] = &slot{done: make(chan struct{})}
	}
	inFlight := c.Int("in-flight")
	if inFlight <= 0 {
		inFlight = max(8, 8*runtime.NumCPU())
	}
	sem := make(chan struct{}, inFlight)
	go func() {
		for i, it := range items {
			sl := slots[i]
			if dispatch.Err() != nil { // a full semaphore must not win the race with the budget
				sl.err = dispatch.Err()
				close(sl.done)
				continue
			}
			select {
			case sem <- struct{}{}:
			case <-dispatch.Done():
				sl.err = dispatch.Err()
				close(sl.done)
				continue
			}
			go func() {
				defer func() { <-sem; close(sl.done) }()
				sl.r, sl.err = evaluateItem(rctx, p, it, settings)
			}()
		}
	}()
	left := 0
	for i, sl := range slots {
		<-sl.done
		if sl.err != nil {
			if ctx.Err() != nil {
				break
			}
			if budget > 0 && (dispatch.Err() != nil || hard.Err() != nil) {
				left++ // not sent, or cancelled in flight: the next run measures it
				continue
			}
			if isNoGPU(sl.err) {
				return failuref("bench: %v; use --compile-only on a machine without a GPU, or --benchmarker recorded for recorded measurements", sl.err)
			}
			if !errors.Is(sl.err, bench.ErrBadJob) {
				return failuref("bench: %v", sl.err)
			}
			it := items[i]
			emit(&bench.Result{Time: time.Now().UTC().Format(time.RFC3339), Suite: it.task.Suite, Task: it.task.Name,
				Candidate: it.cand.Name, Kind: it.cand.Kind, Path: it.cand.Path, Expect: it.cand.Expect, Error: sl.err.Error()})
			continue
		}
		emit(sl.r)
	}
	bar.finish()
	fmt.Fprintf(os.Stderr, "cudaperf: results appended to %s\n", w.Path)
	if left > 0 {
		fmt.Fprintf(os.Stderr, "cudaperf: bench: time budget %s reached: %d of %d candidates evaluated, %d left; run again with --skip-measured to resume\n",
			budget, len(items)-left, len(items), left)
	}
	if ctx.Err() != nil {
		return failuref("bench: interrupted")
	}
	if len(taskErrs) > 0 {
		return usageErrorf("bench: %d task(s) could not be loaded (see above)", len(taskErrs))
	}
	if bad > 0 {
		return findings("bench: %d candidate(s) failed", bad)
	}
	return nil
}

// shard keeps share "K/N" of items: every N-th from the K-th (1-based).
func shard(items []benchItem, spec string) ([]benchItem, error) {
	if spec == "" {
		return items, nil
	}
	a, b, ok := strings.Cut(spec, "/")
	k, errK := strconv.Atoi(a)
	n, errN := strconv.Atoi(b)
	if !ok || errK != nil || errN != nil || n < 1 || k < 1 || k > n {
		return nil, usageErrorf("bench: --shard %q: want K/N with 1 <= K <= N, e.g. 2/4 for the second of four hosts", spec)
	}
	var out []benchItem
	for i := k - 1; i < len(items); i += n {
		out = append(out, items[i])
	}
	return out, nil
}

// skipMeasured drops the items that the results files already hold a
// finished record of (dataset.Finished); a record cut short by a kill, or
// one that ended in a harness error, is measured again. Matching is by
// suite, task and candidate name.
func skipMeasured(items []benchItem, patterns []string) ([]benchItem, error) {
	var files []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			return nil, usageErrorf("bench: --skip-measured %q: %v", p, err)
		}
		files = append(files, m...)
	}
	for _, p := range patterns {
		if m, _ := filepath.Glob(p); len(m) == 0 && !strings.ContainsAny(p, "*?[") {
			// Not an error: a sweep's first run names the file it will
			// write. But a typo re-measures everything, so say so.
			fmt.Fprintf(os.Stderr, "cudaperf: bench: --skip-measured %s: no such file; nothing is skipped for it\n", p)
		}
	}
	if len(files) == 0 {
		return items, nil // nothing measured yet: the first run of a sweep
	}
	rs, err := dataset.Load(files...)
	if err != nil {
		return nil, usageErrorf("bench: --skip-measured: %v", err)
	}
	// By suite too: c2cuda and selftest share task names (saxpy), and a
	// record of one skipped the other's candidate. A record that names no
	// suite matches any.
	done := map[[3]string]bool{}
	for i := range rs {
		if dataset.Finished(&rs[i]) {
			done[[3]string{rs[i].Suite, rs[i].Task, rs[i].Candidate}] = true
		}
	}
	var out []benchItem
	for _, it := range items {
		if !done[[3]string{it.task.Suite, it.task.Name, it.cand.Name}] && !done[[3]string{"", it.task.Name, it.cand.Name}] {
			out = append(out, it)
		}
	}
	return out, nil
}

// evaluateItem sends one candidate to the benchmarker.
func evaluateItem(ctx context.Context, p *pluginhost.Plugin, it benchItem, s bench.Settings) (*bench.Result, error) {
	var src []byte
	var err error
	if it.cand.Path != "" { // a torch2cuda baseline has no candidate
		if src, err = os.ReadFile(it.cand.Path); err != nil {
			return nil, err
		}
	}
	dir, err := filepath.Abs(it.task.Dir)
	if err != nil {
		return nil, err
	}
	return p.EvaluateJob(ctx, bench.Job{TaskPath: dir, Source: src, Filename: it.cand.Path, Name: it.cand.Name,
		Kind: it.cand.Kind, Expect: it.cand.Expect, Flags: it.cand.Flags, Settings: s, TaskKind: it.kind})
}

// failed reports whether r counts against the exit status: a variant or
// candidate that did not compile or was rejected, or a cheat that was
// accepted.
func failed(r *bench.Result, compileOnly bool) bool {
	if r.Error != "" {
		return true
	}
	if r.Kind == torch2cuda.KindReference {
		return false // timed the reference: nothing to accept or reject
	}
	if r.Kind == bench.KindCheat {
		if compileOnly {
			// A cheat meant not to compile must not; the others must compile.
			return r.Compile.OK == (r.Expect == verdict.CompileError)
		}
		return !r.Caught
	}
	if !r.Compile.OK {
		return true
	}
	return !compileOnly && (r.Verdict == nil || !r.Verdict.Accepted)
}

func printResult(w io.Writer, r *bench.Result, compileOnly bool) {
	head := fmt.Sprintf("%s/%s %s", r.Suite, r.Task, r.Candidate)
	if r.Kind != bench.KindVariant {
		head += " [" + r.Kind + "]"
	}
	if r.Error != "" && !r.Compile.OK && r.Compile.Log == "" {
		fmt.Fprintf(w, "%s: error: %s\n", head, r.Error)
		return
	}
	if r.Kind == torch2cuda.KindReference && r.Verdict != nil && len(r.Verdict.Configs) == 1 {
		cr := r.Verdict.Configs[0]
		line := fmt.Sprintf("%s: eager %s", head, msOrDash(cr.RefTime))
		if cr.CompiledTime != nil {
			line += "  torch.compile " + msOrDash(cr.CompiledTime)
		} else if cr.Detail != "" {
			line += "  " + cr.Detail
		}
		fmt.Fprintln(w, line)
		return
	}
	state := "compiled"
	if !r.Compile.OK {
		state = "compile FAILED"
	}
	if r.Compile.Cached {
		state += " (cached)"
	} else {
		state += fmt.Sprintf(" (%.1fs)", r.Compile.Seconds)
	}
	fmt.Fprintf(w, "%s: %s %s\n", head, state, r.Compile.Arch)
	if !r.Compile.OK {
		for _, l := range strings.Split(strings.TrimSpace(r.Compile.Log), "\n") {
			fmt.Fprintf(w, "    | %s\n", l)
		}
	}
	for _, k := range r.Compile.Kernels {
		fmt.Fprintf(w, "  kernel %s: %d registers, %d B shared, %d B local, spills %d/%d B\n", k.Name, k.Registers, k.SharedBytes, k.LocalBytes, k.SpillStores, k.SpillLoads)
	}
	if r.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", r.Error)
	}
	if compileOnly || r.Verdict == nil {
		return
	}
	if r.Device != nil {
		line := fmt.Sprintf("  device %s (cc %s)", r.Device.Name, r.Device.CC)
		if r.Clocks != nil && r.Clocks.Samples > 0 {
			line += fmt.Sprintf(", SM clock %d-%d MHz, up to %d C during the run", r.Clocks.MinSMClockMHz, r.Clocks.MaxSMClockMHz, r.Clocks.MaxTempC)
		}
		fmt.Fprintln(w, line)
	}
	for _, cr := range r.Verdict.Configs {
		status := "pass"
		if !cr.Pass {
			status = "FAIL"
		}
		line := fmt.Sprintf("  %-12s %s max err %.3g", cr.Name, status, cr.MaxAbsErr)
		if cr.Time != nil {
			line += fmt.Sprintf("  median %.4f ms (min %.4f, max %.4f, cv %.1f%%)", cr.Time.Median, cr.Time.Min, cr.Time.Max, 100*cr.Time.CV)
		}
		if cr.Time != nil {
			line += fmt.Sprintf("  tail %.3f ms", cr.TailMs)
		}
		if cr.Speedup > 0 {
			line += fmt.Sprintf("  speedup %.2fx", cr.Speedup)
		}
		if cr.Primary {
			line += "  [primary]"
		}
		if cr.Error != "" {
			line += "  " + cr.Error
		} else if cr.Detail != "" {
			line += "  " + cr.Detail
		}
		fmt.Fprintln(w, line)
	}
	if r.Recorded {
		fmt.Fprintf(w, "  recorded: measured earlier (%s), not now\n", r.Time)
	}
	if r.Verdict.Accepted && r.Compile.Arch == torch2cuda.CompileArch {
		fmt.Fprintf(w, "  ACCEPTED speedup %.2fx over eager PyTorch, %.2fx over torch.compile\n", r.Verdict.Speedup, r.Verdict.SpeedupCompiled)
	} else if r.Verdict.Accepted {
		fmt.Fprintf(w, "  ACCEPTED speedup %.2fx over the C reference\n", r.Verdict.Speedup)
	} else {
		fmt.Fprintf(w, "  REJECTED\n")
	}
	if r.Kind == bench.KindCheat {
		if r.Caught {
			fmt.Fprintf(w, "  cheat caught: %s\n", r.Expect)
		} else {
			fmt.Fprintf(w, "  CHEAT NOT CAUGHT: expected rejection %q\n", r.Expect)
		}
	}
	for _, x := range r.Verdict.Reasons {
		fmt.Fprintf(w, "    reason %s\n", x)
	}
	for _, x := range r.Verdict.Warnings {
		fmt.Fprintf(w, "    warning %s\n", x)
	}
	if r.RunLog != "" {
		for _, l := range strings.Split(strings.TrimSpace(r.RunLog), "\n") {
			fmt.Fprintf(w, "    | %s\n", l)
		}
	}
}

// progress draws a bar on stderr, only when show is set and stderr is a
// terminal.
type progress struct{ bar *progressbar.ProgressBar }

func newBar(total int, what string, show bool) *progress {
	if !show || !term.IsTerminal(int(os.Stderr.Fd())) {
		return &progress{}
	}
	return &progress{bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

func (p *progress) add() { p.addN(1) }

func (p *progress) addN(n int) {
	if p.bar != nil {
		_ = p.bar.Add(n)
	}
}

func (p *progress) clear() {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// torch2cudaItems lists the torch2cuda tasks (a folder with problem.py,
// KernelBench's format) that --suite and --task select, each with its
// eager PyTorch baseline first, then the --candidate files, or else its
// variants (and, with --cheats, its cheats). A torch2cuda task is taken
// only where asked for: by --suite naming a torch2cuda suite, or by a
// --task name that no c2cuda suite has (c2cuda and torch2cuda both have a
// softmax_rows). rest are the --task names left for the c2cuda suites.
func torch2cudaItems(c *cli.Context, userCands []string) (out []benchItem, rest []string, err error) {
	root, suite, names := c.String("suites"), c.String("suite"), c.StringSlice("task")
	var problems []string
	switch {
	case suite != "":
		problems, _ = filepath.Glob(filepath.Join(root, suite, "*", torch2cuda.ProblemFile))
		if len(problems) == 0 {
			return nil, names, nil // a c2cuda suite (or none: LoadTasks says so)
		}
		if len(names) > 0 {
			problems = slices.DeleteFunc(problems, func(p string) bool { return !slices.Contains(names, filepath.Base(filepath.Dir(p))) })
			for _, n := range names {
				if !slices.ContainsFunc(problems, func(p string) bool { return filepath.Base(filepath.Dir(p)) == n }) {
					return nil, nil, usageErrorf("bench: no task %q in suite %s (%s)", n, suite, filepath.Join(root, suite))
				}
			}
		}
	default:
		for _, n := range names {
			if c2, _ := filepath.Glob(filepath.Join(root, "*", n, task.File)); len(c2) > 0 {
				rest = append(rest, n)
				continue
			}
			found, _ := filepath.Glob(filepath.Join(root, "*", n, torch2cuda.ProblemFile))
			if len(found) == 0 {
				rest = append(rest, n) // LoadTasks says it does not exist
				continue
			}
			problems = append(problems, found...)
		}
	}
	slices.Sort(problems)
	for _, p := range problems {
		dir := filepath.Dir(p)
		t := &task.Task{Name: filepath.Base(dir), Suite: filepath.Base(filepath.Dir(dir)), Dir: dir}
		out = append(out, benchItem{task: t, kind: torch2cuda.Kind, cand: bench.Candidate{Name: "pytorch", Kind: torch2cuda.KindReference}})
		if len(userCands) > 0 {
			for _, f := range userCands {
				out = append(out, benchItem{task: t, kind: torch2cuda.Kind, cand: bench.Candidate{Name: strings.TrimSuffix(filepath.Base(f), ".py"), Path: f, Kind: bench.KindCandidate}})
			}
			continue
		}
		jobs, err := torch2cuda.TaskCandidates(dir)
		if err != nil {
			return nil, nil, failuref("bench: %v", err)
		}
		for _, j := range jobs {
			if j.Kind == bench.KindCheat && !c.Bool("cheats") {
				continue
			}
			out = append(out, benchItem{task: t, kind: torch2cuda.Kind, cand: bench.Candidate{Name: strings.TrimSuffix(filepath.Base(j.Candidate), ".py"), Path: j.Candidate, Kind: j.Kind, Expect: j.Expect}})
		}
	}
	return out, rest, nil
}

// kernelBenchItems lists a KernelBench level's problems, run unchanged:
// each problem's baseline (eager and torch.compile times) and, where
// --kernelbench-candidates holds a file of the problem's name, that
// candidate.
func kernelBenchItems(c *cli.Context, dir string) ([]benchItem, []error, error) {
	if c.String("batch") != "" || len(c.StringSlice("candidate")) > 0 || c.String("suite") != "" {
		return nil, nil, usageErrorf("bench: --kernelbench selects its own problems; drop --batch, --candidate and --suite")
	}
	problems, err := torch2cuda.KernelBenchLevel(dir, c.Int("level"))
	if err != nil {
		return nil, nil, usageErrorf("bench: --kernelbench: %v", err)
	}
	if n := c.Int("limit"); n > 0 && n < len(problems) {
		problems = problems[:n]
	}
	// KernelBench's problems are judged with KernelBench's own bound
	// (1e-2 for every float dtype): the benchmarker plugin started next
	// inherits this.
	os.Setenv(torch2cuda.EnvTolerance, "kernelbench")
	cands := c.String("kernelbench-candidates")
	suite := fmt.Sprintf("kernelbench-level%d", c.Int("level"))
	var out []benchItem
	for _, p := range problems {
		t := &task.Task{Name: strings.TrimSuffix(filepath.Base(p), ".py"), Suite: suite, Dir: p}
		out = append(out, benchItem{task: t, kind: torch2cuda.Kind, cand: bench.Candidate{Name: "pytorch", Kind: torch2cuda.KindReference}})
		if cands == "" {
			continue
		}
		if f := filepath.Join(cands, filepath.Base(p)); fileExists(f) {
			// Named as its result is (the file's base name), so that
			// --skip-measured finds it.
			name := strings.TrimSuffix(filepath.Base(f), ".py")
			out = append(out, benchItem{task: t, kind: torch2cuda.Kind, cand: bench.Candidate{Name: name, Path: f, Kind: bench.KindCandidate}})
		}
	}
	return out, nil, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func msOrDash(t *verdict.Timing) string {
	if t == nil {
		return "-"
	}
	return fmt.Sprintf("%.4f ms (cv %.1f%%)", t.Median, 100*t.CV)
}
