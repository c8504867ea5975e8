package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/nvml"
	"github.com/cudaperf/cudaperf/bench/results"
	"github.com/cudaperf/cudaperf/bench/task"
)

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:      "bench",
		Usage:     "compile, run and check CUDA candidates of c2cuda tasks on a GPU",
		ArgsUsage: " ",
		Description: "For every selected task (bench/suites/<suite>/<task>/) and candidate (the task's\n" +
			"variants/*.cu, or --candidate FILE.cu) bench compiles with nvcc -O3 -arch=sm_<cc> -Xptxas -v\n" +
			"(parallel, cached), runs each candidate in its own process against the C reference\n" +
			"(gcc -O2) on every configuration with fresh random inputs, poisoned outputs, warm-up,\n" +
			"timed repetitions with an L2 flush between them, and rejects cheats with a reason.\n" +
			"Results are appended as JSON lines to <runs-dir>/bench-<UTC>/results.jsonl.\n\n" +
			"Exit codes: 0 all candidates accepted (cheats rejected), 1 some variant or candidate\n" +
			"failed to compile or was rejected, 2 usage or task errors, 3 no GPU or tool failure.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "suites", Value: filepath.Join("bench", "suites"), Usage: "root `DIR` of the task suites"},
			&cli.StringFlag{Name: "suite", Usage: "only the suite `S` (default: all)"},
			&cli.StringSliceFlag{Name: "task", Usage: "only task `T` (repeatable)"},
			&cli.StringSliceFlag{Name: "candidate", Usage: "evaluate `FILE.cu` instead of the task's variants (repeatable; needs one --task)"},
			&cli.BoolFlag{Name: "cheats", Usage: "also evaluate cheats/*.cu (selftest suites); they must be rejected"},
			&cli.BoolFlag{Name: "compile-only", Usage: "compile only: no GPU needed"},
			&cli.IntFlag{Name: "repeats", Value: 20, Usage: "timed calls per configuration"},
			&cli.IntFlag{Name: "warmup", Value: 3, Usage: "untimed calls before timing"},
			&cli.DurationFlag{Name: "timeout", Value: 2 * time.Minute, Usage: "wall-time limit per candidate run"},
			&cli.StringFlag{Name: "arch", Usage: "nvcc `ARCH` such as sm_90 (default: the GPU's, else sm_90)"},
			&cli.StringFlag{Name: "nvcc", Usage: "nvcc `PATH` (default: $CUDAPERF_NVCC, PATH, /usr/local/cuda/bin, .venv)"},
			&cli.IntFlag{Name: "jobs", Usage: "parallel compiles (default: CPUs)"},
			&cli.StringFlag{Name: "seeds", Usage: "input seeds `A,B` (default: fresh random ones); reproduce a result with the seeds it recorded"},
			&cli.StringFlag{Name: "cache", Usage: "compile cache `DIR` (default: $XDG_CACHE_HOME/cudaperf)"},
			&cli.StringFlag{Name: "runs-dir", Value: "runs", Usage: "results go to `DIR`/bench-<UTC>/results.jsonl"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json (one result per line)"},
		},
		Action:      benchAction,
		Subcommands: []*cli.Command{benchReportCommand()},
	}
}

func benchAction(c *cli.Context) error {
	format := c.String("format")
	if format != "text" && format != "json" {
		return usageErrorf("bench: --format %q: want text or json", format)
	}
	if c.NArg() > 0 {
		return usageErrorf("bench: unexpected arguments %v; select tasks with --suite and --task", c.Args().Slice())
	}
	userCands := c.StringSlice("candidate")
	if len(userCands) > 0 && len(c.StringSlice("task")) != 1 {
		return usageErrorf("bench: --candidate needs exactly one --task naming the task it implements")
	}
	for _, cand := range userCands {
		if _, err := os.Stat(cand); err != nil {
			return usageErrorf("bench: --candidate: %v", err)
		}
	}
	if c.Int("repeats") < 1 || c.Int("warmup") < 0 {
		return usageErrorf("bench: --repeats must be >= 1 and --warmup >= 0")
	}
	var seeds [2]uint64
	if v := c.String("seeds"); v != "" {
		a, b, ok := strings.Cut(v, ",")
		var errA, errB error
		seeds[0], errA = strconv.ParseUint(strings.TrimSpace(a), 10, 64)
		seeds[1], errB = strconv.ParseUint(strings.TrimSpace(b), 10, 64)
		if !ok || errA != nil || errB != nil || seeds[0] == seeds[1] {
			return usageErrorf("bench: --seeds %q: want two different unsigned integers A,B", v)
		}
	}
	tasks, taskErrs := loadTasks(c.String("suites"), c.String("suite"), c.StringSlice("task"))
	for _, err := range taskErrs {
		fmt.Fprintf(os.Stderr, "cudaperf: %v\n", err)
	}
	if len(tasks) == 0 {
		if len(taskErrs) > 0 {
			return usageErrorf("bench: no valid task selected")
		}
		return usageErrorf("bench: no task found under %s (suite %q, tasks %v)", c.String("suites"), c.String("suite"), c.StringSlice("task"))
	}

	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	opt := bench.Options{
		Arch: c.String("arch"), Warmup: c.Int("warmup"), Repeats: c.Int("repeats"),
		Timeout: c.Duration("timeout"), CompileOnly: c.Bool("compile-only"), Seeds: seeds,
	}
	if !opt.CompileOnly {
		s, err := nvml.Open()
		switch {
		case err == nil:
			defer s.Close()
			opt.NVML = s
			if opt.Arch == "" {
				if info, err := s.Info(0); err == nil && info.CC != "" {
					opt.Arch = info.Arch()
				}
			}
		case nvml.DeviceNodesPresent():
			// Some sandboxes expose the GPU but not NVML: measure anyway,
			// without device information or clock monitoring.
			fmt.Fprintf(os.Stderr, "cudaperf: warning: %v; running without device information and clock monitoring\n", err)
		default:
			return failuref("bench: %v; use --compile-only on a machine without a GPU", err)
		}
	}
	cache, err := nvcc.OpenCache(c.String("cache"))
	if err != nil {
		return failuref("%v", err)
	}
	tc, err := nvcc.New(c.String("nvcc"), c.Int("jobs"), cache)
	if err != nil {
		return failuref("bench: %v", err)
	}
	opt.Toolchain = tc
	bench.CleanStale("")

	w, err := results.Open(results.NewRunDir(c.String("runs-dir"), time.Now()))
	if err != nil {
		return failuref("%v", err)
	}
	defer w.Close()

	type job struct {
		sess  *bench.Session
		cands []bench.Candidate
	}
	var jobs []job
	total := 0
	for _, t := range tasks {
		s, err := bench.NewSession(t, opt)
		if err != nil {
			taskErrs = append(taskErrs, err)
			fmt.Fprintf(os.Stderr, "cudaperf: %v\n", err)
			continue
		}
		defer s.Close()
		var cands []bench.Candidate
		if len(userCands) > 0 {
			for _, cand := range userCands {
				cands = append(cands, bench.Candidate{Name: strings.TrimSuffix(filepath.Base(cand), ".cu"), Path: cand, Kind: bench.KindCandidate})
			}
		} else {
			cands = bench.Variants(t)
			if c.Bool("cheats") {
				cands = append(cands, bench.Cheats(t)...)
			}
		}
		jobs = append(jobs, job{s, cands})
		total += len(cands)
	}

	bar := newBar(total, "bench", format == "text")
	out := c.App.Writer
	var mu sync.Mutex
	bad := 0
	emit := func(r *bench.Result) {
		mu.Lock()
		defer mu.Unlock()
		if err := w.Append(r); err != nil {
			fmt.Fprintf(os.Stderr, "cudaperf: %v\n", err)
		}
		bar.clear()
		if format == "json" {
			b, _ := json.Marshal(r)
			fmt.Fprintf(out, "%s\n", b)
		} else {
			printResult(out, r, opt.CompileOnly)
		}
		bar.add()
		if failed(r, opt.CompileOnly) {
			bad++
		}
	}
	// Build (compile and link) everything in the background, all tasks at
	// once: nvcc is the slow part and the toolchain bounds the parallelism.
	// The GPU runs candidates one at a time, in order, each as soon as it is
	// built.
	type slot struct {
		r     *bench.Result
		ready chan struct{}
	}
	slots := make([][]*slot, len(jobs))
	for i, j := range jobs {
		for _, cd := range j.cands {
			sl := &slot{ready: make(chan struct{})}
			slots[i] = append(slots[i], sl)
			go func() { defer close(sl.ready); sl.r = j.sess.Build(ctx, cd) }()
		}
	}
	for i, j := range jobs {
		if opt.CompileOnly {
			// The reference and the generated programs must build too.
			if err := j.sess.Prepare(ctx); err != nil {
				mu.Lock()
				bad++
				mu.Unlock()
				fmt.Fprintf(os.Stderr, "cudaperf: %v\n", err)
			}
		}
		// Candidate k+1 runs on the GPU while candidate k is judged.
		var prev *bench.Result
		prevWait := func() {}
		flush := func() error {
			prevWait()
			if prev == nil {
				return nil
			}
			emit(prev)
			if strings.HasPrefix(prev.Error, "no CUDA device found") {
				return failuref("bench: %s", prev.Error)
			}
			return nil
		}
		for _, sl := range slots[i] {
			<-sl.ready
			wait := func() {}
			if !opt.CompileOnly && ctx.Err() == nil {
				wait = j.sess.RunAsync(ctx, sl.r)
			}
			if err := flush(); err != nil {
				return err
			}
			prev, prevWait = sl.r, wait
		}
		if err := flush(); err != nil {
			return err
		}
	}
	bar.finish()
	fmt.Fprintf(os.Stderr, "cudaperf: results appended to %s\n", w.Path)
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

// failed reports whether r counts against the exit status: a variant or
// candidate that did not compile or was rejected, or a cheat that was
// accepted.
func failed(r *bench.Result, compileOnly bool) bool {
	if r.Error != "" {
		return true
	}
	if r.Kind == bench.KindCheat {
		return !compileOnly && !r.Caught
	}
	if !r.Compile.OK {
		return true
	}
	return !compileOnly && (r.Verdict == nil || !r.Verdict.Accepted)
}

// loadTasks finds root/<suite>/<task>/task.yaml folders matching the
// filters; a task that fails to load is reported and skipped.
func loadTasks(root, suite string, names []string) ([]*task.Task, []error) {
	pattern := filepath.Join(root, "*", "*", task.File)
	if suite != "" {
		if st, err := os.Stat(filepath.Join(root, suite)); err != nil || !st.IsDir() {
			return nil, []error{fmt.Errorf("bench: no suite %q under %s", suite, root)}
		}
		pattern = filepath.Join(root, suite, "*", task.File)
	}
	files, _ := filepath.Glob(pattern)
	sort.Strings(files)
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var tasks []*task.Task
	var errs []error
	seen := map[string]bool{}
	for _, f := range files {
		dir := filepath.Dir(f)
		name := filepath.Base(dir)
		if len(want) > 0 && !want[name] {
			continue
		}
		seen[name] = true
		t, err := task.Load(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		tasks = append(tasks, t)
	}
	for _, n := range names {
		if !seen[n] {
			errs = append(errs, fmt.Errorf("bench: no task %q under %s", n, root))
		}
	}
	return tasks, errs
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
	if r.Verdict.Accepted {
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
