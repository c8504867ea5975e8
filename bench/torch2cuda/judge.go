package torch2cuda

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/cudaperf/cudaperf/bench/verdict"
)

// ConfigName names the one configuration of a torch2cuda verdict: a
// KernelBench problem has one size, the one get_inputs makes.
const ConfigName = "get_inputs"

// MinSeeds is the fewest input seeds a correctness check may use.
const MinSeeds = 5

// PyTorchOpFraction: a candidate whose device time is more than this
// fraction in kernels that eager PyTorch also launches for the reference
// (and that are not the candidate's own) is refused with pytorch_op.
const PyTorchOpFraction = 0.5

// JudgeOptions are what the checks compare against.
type JudgeOptions struct {
	Seeds      int                  // seeds the runner was asked to check
	Tolerances map[string]Tolerance // the table given to the runner
	OwnKernels []string             // __global__ names in the candidate's CUDA
	TimedOut   bool                 // the runner was killed at its time limit
	ExitError  string               // the runner process's failure, if any
}

// Judge turns a run's records into a verdict. The error is a run that
// could not judge the candidate (no GPU, the problem itself failing,
// records from another runner): that is the harness's failure, not the
// candidate's.
func Judge(recs []Record, opt JudgeOptions) (*verdict.Verdict, error) {
	v := &verdict.Verdict{}
	reject := func(id, format string, args ...any) {
		v.Reasons = append(v.Reasons, verdict.Reason{ID: id, Detail: fmt.Sprintf(format, args...)})
	}
	var checks []Record
	var kernels = map[string]*Record{}
	var timing = map[string]*Record{}
	done := false
	for i := range recs {
		r := &recs[i]
		switch r.Type {
		case "validate":
			if !r.OK {
				return verdictOf(verdict.InvalidCandidate, strings.Join(r.Errors, "; ")), nil
			}
		case "build":
			if !r.OK {
				return verdictOf(verdict.CompileError, firstLines(r.Error+"\n"+r.Traceback, 40)), nil
			}
		case "check":
			checks = append(checks, *r)
		case "kernels":
			kernels[r.Who] = r
		case "timing":
			timing[r.Who] = r
		case "done":
			done = true
		case "error":
			switch r.Stage {
			case "device", "load":
				return nil, fmt.Errorf("torch2cuda: runner stopped at %s: %s", r.Stage, r.Error)
			}
			reject(verdict.RuntimeError, "%s: %s", r.Stage, r.Error)
		}
	}
	cr := verdict.ConfigResult{Name: ConfigName, Primary: true, Pass: true}
	// Seeds per finding, so that each reason is given once, naming them.
	var failed, passed, unsynced, modified, cached, reused []string
	for i, c := range checks {
		seed := fmt.Sprint(c.Seed)
		if c.Error != "" {
			cr.Pass = false
			reject(verdict.RuntimeError, "seed %s: %s", seed, c.Error)
			continue
		}
		bad, detail, err := judgeOutputs(c.Outputs, opt.Tolerances, &cr)
		if err != nil {
			return nil, fmt.Errorf("torch2cuda: seed %s: %w", seed, err)
		}
		if bad {
			failed = append(failed, seed)
			cr.Pass = false
			cr.Detail = joinDetail(cr.Detail, "seed "+seed+": "+detail)
		} else {
			passed = append(passed, seed)
			if early := mismatches(c.Early); early > 0 {
				unsynced = append(unsynced, fmt.Sprintf("%s (%d elements)", seed, early))
			}
		}
		if len(c.InputsModified) > 0 {
			modified = append(modified, fmt.Sprintf("%s (%s)", seed, strings.Join(c.InputsModified, ", ")))
		}
		if i > 0 && isTrue(c.SameAsPrevious) && !isTrue(c.RefSameAsPrevious) {
			cached = append(cached, seed)
		}
		if isTrue(c.OverwrotePrevious) {
			reused = append(reused, seed)
		}
	}
	switch {
	case len(failed) > 0 && len(passed) > 0:
		reject(verdict.PartiallyCorrect, "correct for seeds %s, wrong for seeds %s", strings.Join(passed, ", "), strings.Join(failed, ", "))
	case len(failed) > 0:
		reject(verdict.WrongResult, "wrong for every seed (%s)", strings.Join(failed, ", "))
	}
	if len(unsynced) > 0 {
		reject(verdict.UnsyncedStream, "seeds %s: outputs read on the caller's stream right after forward returned were wrong, though right after a device synchronisation: the work ran on a stream the caller's stream does not wait for", strings.Join(unsynced, ", "))
	}
	if len(modified) > 0 {
		reject(verdict.InputModified, "forward changed its inputs (exact bytes compared) for seeds %s", strings.Join(modified, "; "))
	}
	if len(cached) > 0 {
		reject(verdict.InputIndependent, "seeds %s: outputs byte-identical to the previous seed's although the reference's differ (a cached or constant result)", strings.Join(cached, ", "))
	}
	if len(reused) > 0 {
		reject(verdict.OutputReused, "seeds %s: the call overwrote the tensors the previous call returned (an output buffer kept across calls)", strings.Join(reused, ", "))
	}
	if len(checks) < opt.Seeds && len(v.Reasons) == 0 && !opt.TimedOut {
		reject(verdict.RuntimeError, "the runner checked %d of %d seeds and stopped%s", len(checks), opt.Seeds, exitNote(opt))
	}
	judgeKernels(kernels["candidate"], kernels["eager"], opt.OwnKernels, reject)
	judgeTiming(timing, &cr, v, reject)
	if !done && len(v.Reasons) == 0 {
		id := verdict.RuntimeError
		if opt.TimedOut {
			id = verdict.Timeout
		}
		reject(id, "the runner stopped before the end%s", exitNote(opt))
	}
	if opt.TimedOut && !v.Has(verdict.Timeout) {
		reject(verdict.Timeout, "the runner was killed at its time limit")
	}
	v.Configs = []verdict.ConfigResult{cr}
	v.Accepted = len(v.Reasons) == 0
	if v.Accepted || cr.Speedup > 0 {
		v.Speedup = cr.Speedup
		v.SpeedupCompiled = cr.SpeedupCompiled
	}
	return v, nil
}

func verdictOf(id, detail string) *verdict.Verdict {
	return &verdict.Verdict{Reasons: []verdict.Reason{{ID: id, Detail: detail}}}
}

// judgeOutputs checks one seed's comparisons: each used the tolerance of
// its dtype from the table given to the runner (a runner that compared
// with another bound is refused as an error, not trusted).
func judgeOutputs(outs []Compare, tol map[string]Tolerance, cr *verdict.ConfigResult) (bad bool, detail string, err error) {
	if len(outs) == 0 {
		return true, "no output compared", nil
	}
	var parts []string
	for k, o := range outs {
		cr.Elements += o.Elements
		cr.Mismatches += o.Mismatches
		cr.MaxAbsErr = verdict.Float(math.Max(float64(cr.MaxAbsErr), float64(o.MaxAbs)))
		cr.MaxRelErr = verdict.Float(math.Max(float64(cr.MaxRelErr), float64(o.MaxRel)))
		if o.Error != "" {
			bad = true
			parts = append(parts, fmt.Sprintf("output %d: %s", k, o.Error))
			continue
		}
		want, ok := tol[o.DType]
		if !ok {
			return false, "", fmt.Errorf("output %d has dtype %q, which the tolerance table lacks", k, o.DType)
		}
		if want.RTol != o.RTol || want.ATol != o.ATol {
			return false, "", fmt.Errorf("output %d (%s) compared with rtol %g atol %g, want rtol %g atol %g", k, o.DType, o.RTol, o.ATol, want.RTol, want.ATol)
		}
		if o.GotDType != "" && o.GotDType != o.DType {
			bad = true
			parts = append(parts, fmt.Sprintf("output %d: dtype %s, want %s", k, o.GotDType, o.DType))
			continue
		}
		if o.Mismatches > 0 {
			bad = true
			parts = append(parts, fmt.Sprintf("output %d: %d of %d elements out of tolerance (rtol %g, atol %g), first at flat index %d, max abs error %g", k, o.Mismatches, o.Elements, o.RTol, o.ATol, o.FirstBad, float64(o.MaxAbs)))
		}
	}
	return bad, strings.Join(parts, "; "), nil
}

func mismatches(outs []Compare) int64 {
	var n int64
	for _, o := range outs {
		n += o.Mismatches
	}
	return n
}

// kernelName matches a __global__ name inside a profiler kernel name
// ("void add_kernel<float>(float const*, ...)").
func ownKernel(profiled string, own []string) bool {
	for _, k := range own {
		if regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(k) + `($|[^A-Za-z0-9_])`).MatchString(profiled) {
			return true
		}
	}
	return false
}

// judgeKernels refuses a ModelNew that launched none of its own kernels,
// or whose device time is mostly in the kernels eager PyTorch runs for
// the reference.
func judgeKernels(cand, eager *Record, own []string, reject func(string, string, ...any)) {
	if cand == nil || cand.Error != "" {
		return // no profile (an error already judged, or the profiler failed)
	}
	ref := map[string]bool{}
	if eager != nil {
		for _, k := range eager.Kernels {
			ref[k.Name] = true
		}
	}
	var total, shared float64
	var launchedOwn bool
	var sharedNames []string
	for _, k := range cand.Kernels {
		total += k.Ms
		switch {
		case ownKernel(k.Name, own):
			launchedOwn = true
		case ref[k.Name]:
			shared += k.Ms
			sharedNames = append(sharedNames, k.Name)
		}
	}
	if !launchedOwn {
		var ran []string
		for _, k := range cand.Kernels {
			ran = append(ran, k.Name)
		}
		what := "no CUDA kernel at all"
		if len(ran) > 0 {
			what = "only " + strings.Join(firstN(ran, 5), ", ")
		}
		reject(verdict.NoCustomKernel, "ModelNew launched none of its own kernels (%s); it ran %s", orNone(own), what)
		return
	}
	if total > 0 && shared/total > PyTorchOpFraction {
		reject(verdict.PyTorchOp, "%.0f%% of ModelNew's device time is in kernels eager PyTorch launches for the reference (%s): the work is PyTorch's, not the candidate's", 100*shared/total, strings.Join(firstN(sharedNames, 5), ", "))
	}
}

// judgeTiming fills the times and speedups and checks for work the timer
// did not see (the c2cuda thresholds).
func judgeTiming(timing map[string]*Record, cr *verdict.ConfigResult, v *verdict.Verdict, reject func(string, string, ...any)) {
	c := timing["candidate"]
	if c == nil {
		return
	}
	if c.Error != "" {
		reject(verdict.RuntimeError, "timed calls: %s", c.Error)
		return
	}
	cr.Time = verdict.Summarize(c.Ms)
	if len(c.TailMs) > 0 && cr.Time != nil {
		cr.TailMs = verdict.Median(c.TailMs)
		if cr.TailMs > verdict.HiddenWorkMs && cr.TailMs > verdict.HiddenWorkFraction*cr.Time.Median {
			reject(verdict.HiddenWork, "the device was still busy %.3f ms (median) after the end event of a %.3f ms call: work ran where the timer could not see it", cr.TailMs, cr.Time.Median)
		}
	}
	if e := timing["eager"]; e != nil && e.Error == "" {
		cr.RefTime = verdict.Summarize(e.Ms)
		if cr.RefTime != nil && cr.Time != nil && cr.Time.Median > 0 {
			cr.Speedup = cr.RefTime.Median / cr.Time.Median
		}
	}
	if k := timing["compile"]; k != nil {
		if k.Error != "" {
			cr.Detail = joinDetail(cr.Detail, "torch.compile baseline failed: "+firstLines(k.Error, 3))
		} else if cr.CompiledTime = verdict.Summarize(k.Ms); cr.CompiledTime != nil && cr.Time != nil && cr.Time.Median > 0 {
			cr.SpeedupCompiled = cr.CompiledTime.Median / cr.Time.Median
		}
	}
}

func isTrue(b *bool) bool { return b != nil && *b }

func joinDetail(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func exitNote(opt JudgeOptions) string {
	if opt.ExitError == "" {
		return ""
	}
	return " (" + opt.ExitError + ")"
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("and %d more", len(s)-n))
	}
	return s
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none found in its source"
	}
	return strings.Join(s, ", ")
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

// KindReference is the result kind of a baseline run: no candidate, the
// reference's eager and torch.compile times only.
const KindReference = "reference"

// JudgeBaseline reads a baseline run (runner.py run without --candidate):
// the configuration's RefTime is eager PyTorch's and CompiledTime
// torch.compile's (absent, with the reason in Detail, where it fails).
// The verdict is accepted when eager PyTorch was timed; the error is a run
// that could not time the reference.
func JudgeBaseline(recs []Record) (*verdict.Verdict, error) {
	cr := verdict.ConfigResult{Name: ConfigName, Primary: true, Pass: true}
	for _, r := range recs {
		switch {
		case r.Type == "error":
			return nil, fmt.Errorf("torch2cuda: runner stopped at %s: %s", r.Stage, r.Error)
		case r.Type == "timing" && r.Who == "eager":
			if r.Error != "" {
				return nil, fmt.Errorf("torch2cuda: eager PyTorch: %s", r.Error)
			}
			cr.RefTime = verdict.Summarize(r.Ms)
		case r.Type == "timing" && r.Who == "compile":
			if r.Error != "" {
				cr.Detail = "torch.compile baseline failed: " + firstLines(r.Error, 3)
			} else {
				cr.CompiledTime = verdict.Summarize(r.Ms)
			}
		}
	}
	if cr.RefTime == nil {
		return nil, fmt.Errorf("torch2cuda: the runner timed no eager call (it stopped early)")
	}
	return &verdict.Verdict{Accepted: true, Configs: []verdict.ConfigResult{cr}}, nil
}
