package verdict

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/cudaperf/cudaperf/bench/task"
)

// Reason ids. They are stable: reports, tests and the RL reward key on them.
const (
	CompileError        = "compile_error"
	RuntimeError        = "runtime_error"
	Timeout             = "timeout"
	WrongResult         = "wrong_result"
	PartiallyCorrect    = "partially_correct"
	PoisonSurvived      = "poison_survived"
	InputIndependent    = "input_independent"
	HiddenWork          = "hidden_work"
	BelowBandwidthFloor = "below_bandwidth_floor"
	LeakedMemory        = "leaked_memory"
	ClocksThrottled     = "clocks_throttled"
	InputModified       = "input_modified"
	SandboxViolation    = "sandbox_violation"
	NotSandboxed        = "not_sandboxed"

	// torch2cuda (bench/torch2cuda) only.
	InvalidCandidate = "invalid_candidate" // the candidate file is not in KernelBench's format
	NoCustomKernel   = "no_custom_kernel"  // ModelNew launched none of its own kernels
	PyTorchOp        = "pytorch_op"        // most of ModelNew's device time is in the reference's PyTorch kernels
	OutputReused     = "output_reused"     // a call overwrote the tensors an earlier call returned
	UnsyncedStream   = "unsynced_stream"   // outputs not ready on the caller's stream when forward returned
)

// Thresholds of the hidden-work check: a legitimate candidate's device-wide
// synchronisation after its end event returns in a few microseconds; the
// absolute bound leaves room for slow system calls in sandboxed runtimes.
const (
	HiddenWorkMs       = 0.1
	HiddenWorkFraction = 0.10
)

// Reason is one rejection or warning.
type Reason struct {
	ID     string `json:"id"`
	Detail string `json:"detail"`
}

func (r Reason) String() string { return r.ID + ": " + r.Detail }

// Output is one output array of one configuration: the reference's and the
// candidate's bytes for seeds A and B (Got[k] nil when not produced).
type Output struct {
	Name   string
	Type   task.DType
	Tol    task.Tolerance
	Poison byte
	Ref    [2][]byte
	Got    [2][]byte
}

// ConfigRun is what the harness recorded for one configuration.
type ConfigRun struct {
	Name    string
	Primary bool
	Bytes   int64     // fewest bytes the task must move (floor)
	Outputs []Output  //
	Ms      []float64 // event times of the timed calls (seed A)
	TailMs  []float64 // device-wide sync wait after the end event, per call
	RefMs   []float64 // C reference times (seed A)
	Leak    int64     // device bytes lost across the calls
	Error   string    // the driver's error for this configuration
	NotRun  bool      // the driver stopped before this configuration
	// ModifiedInputs names the input arrays (with the seed) whose device
	// copy differed from what the driver loaded after the calls.
	ModifiedInputs []string
}

// Options tune the checks.
type Options struct {
	PeakBandwidth float64 // device bytes per second; 0 disables the floor check
	// SharedGPU: other processes allocated and freed device memory while
	// the candidate ran, so the device-wide free memory its driver reads
	// says nothing about its own leaks: leaked_memory is not judged.
	SharedGPU bool
	// Parallel runs part(0), ..., part(n-1) at once and returns when all
	// have returned; nil: a goroutine each. Compare splits a large output
	// into parts; the evaluator passes one that accounts their CPU time.
	Parallel func(n int, part func(i int))
}

// ConfigResult is the judgement of one configuration.
type ConfigResult struct {
	Name       string  `json:"config"`
	Primary    bool    `json:"primary,omitempty"`
	Pass       bool    `json:"pass"`
	Error      string  `json:"error,omitempty"`
	Elements   int64   `json:"elements"`
	Mismatches int64   `json:"mismatches"`
	PoisonLeft int64   `json:"poison_left,omitempty"`
	Unchanged  bool    `json:"outputs_unchanged,omitempty"`
	MaxAbsErr  Float   `json:"max_abs_err"`
	MaxRelErr  Float   `json:"max_rel_err"`
	Time       *Timing `json:"time,omitempty"`
	TailMs     float64 `json:"tail_ms"`
	RefTime    *Timing `json:"ref_time,omitempty"`
	Speedup    float64 `json:"speedup,omitempty"`
	// CompiledTime and SpeedupCompiled: torch.compile of the reference
	// (torch2cuda tasks; RefTime is eager PyTorch there).
	CompiledTime    *Timing `json:"compiled_time,omitempty"`
	SpeedupCompiled float64 `json:"speedup_compiled,omitempty"`
	FloorMs         float64 `json:"floor_ms,omitempty"`
	Detail          string  `json:"detail,omitempty"`
}

// Verdict is the judgement of one candidate.
type Verdict struct {
	Accepted bool           `json:"accepted"`
	Reasons  []Reason       `json:"reasons,omitempty"`
	Warnings []Reason       `json:"warnings,omitempty"`
	Configs  []ConfigResult `json:"configs"`
	Speedup  float64        `json:"speedup,omitempty"` // on the primary configuration
	// SpeedupCompiled is the speedup over torch.compile of the reference
	// (torch2cuda tasks, where torch.compile works).
	SpeedupCompiled float64 `json:"speedup_compiled,omitempty"`
}

// Has reports whether v carries a rejection or warning with id.
// Caught reports whether a rejection matches a cheat's expectation: one
// reason id, or alternatives separated by "|" where the reason depends on
// the configurations run (a cheat that passes only small sizes is
// partially_correct in the report profile, but fails every configuration
// of the RL profile: wrong_result).
func (v *Verdict) Caught(expect string) bool {
	if v == nil || v.Accepted || expect == "" {
		return false
	}
	for _, id := range strings.Split(expect, "|") {
		if v.Has(id) {
			return true
		}
	}
	return false
}

func (v *Verdict) Has(id string) bool {
	for _, r := range append(append([]Reason{}, v.Reasons...), v.Warnings...) {
		if r.ID == id {
			return true
		}
	}
	return false
}

func (v *Verdict) reject(id, format string, args ...any) {
	v.Reasons = append(v.Reasons, Reason{id, fmt.Sprintf(format, args...)})
}

func (v *Verdict) warn(id, format string, args ...any) {
	v.Warnings = append(v.Warnings, Reason{id, fmt.Sprintf(format, args...)})
}

// Rejected builds the verdict of a candidate that never ran (compile error,
// timeout before any record).
func Rejected(id, detail string) *Verdict {
	v := &Verdict{}
	v.reject(id, "%s", detail)
	return v
}

// Judge compares, checks and summarises a candidate's recorded run.
func Judge(runs []ConfigRun, opt Options) (*Verdict, error) {
	v := &Verdict{}
	var passed, failed, unchanged, poisoned, hidden, errored, modified []string
	for _, r := range runs {
		cr := ConfigResult{Name: r.Name, Primary: r.Primary, Error: r.Error, Time: Summarize(r.Ms), RefTime: Summarize(r.RefMs)}
		if r.Error != "" || r.NotRun {
			if r.NotRun && cr.Error == "" {
				cr.Error = "not run: the driver stopped at an earlier configuration"
			}
			errored = append(errored, r.Name)
			v.Configs = append(v.Configs, cr)
			continue
		}
		cr.Pass = true
		var details []string
		for _, o := range r.Outputs {
			for k := 0; k < 2; k++ {
				if o.Got[k] == nil {
					return nil, fmt.Errorf("verdict: config %s: no output %s for seed %c", r.Name, o.Name, "ab"[k])
				}
				c, err := compare(o.Type, o.Tol, o.Ref[k], o.Got[k], o.Poison, opt.Parallel)
				if err != nil {
					return nil, fmt.Errorf("verdict: config %s output %s: %w", r.Name, o.Name, err)
				}
				if k == 0 {
					cr.Elements += c.Elements
				}
				cr.Mismatches += c.Mismatches
				cr.PoisonLeft += c.PoisonLeft
				cr.MaxAbsErr = Float(math.Max(float64(cr.MaxAbsErr), c.MaxAbsErr))
				cr.MaxRelErr = Float(math.Max(float64(cr.MaxRelErr), c.MaxRelErr))
				if c.Mismatches > 0 {
					cr.Pass = false
					details = append(details, fmt.Sprintf("%s (seed %c): %d of %d elements out of tolerance, first at [%d]", o.Name, "AB"[k], c.Mismatches, c.Elements, c.FirstBad))
				}
			}
			if string(o.Got[0]) == string(o.Got[1]) && string(o.Ref[0]) != string(o.Ref[1]) {
				cr.Unchanged = true
			}
		}
		cr.Detail = strings.Join(details, "; ")
		if cr.Pass {
			passed = append(passed, r.Name)
		} else {
			failed = append(failed, r.Name)
		}
		if cr.Unchanged {
			unchanged = append(unchanged, r.Name)
		}
		if len(r.ModifiedInputs) > 0 {
			modified = append(modified, fmt.Sprintf("%s (%s)", r.Name, strings.Join(r.ModifiedInputs, ", ")))
		}
		if cr.PoisonLeft > 0 {
			poisoned = append(poisoned, fmt.Sprintf("%s (%d elements)", r.Name, cr.PoisonLeft))
		}
		if len(r.TailMs) > 0 {
			cr.TailMs = Median(r.TailMs)
			ev := 0.0
			if cr.Time != nil {
				ev = cr.Time.Median
			}
			if cr.TailMs > HiddenWorkMs && cr.TailMs > HiddenWorkFraction*ev {
				hidden = append(hidden, fmt.Sprintf("%s (%.3f ms after the end event, event time %.3f ms)", r.Name, cr.TailMs, ev))
			}
		}
		if cr.Time != nil && cr.RefTime != nil && cr.Time.Median > 0 {
			cr.Speedup = cr.RefTime.Median / cr.Time.Median
		}
		if opt.PeakBandwidth > 0 && r.Bytes > 0 && cr.Time != nil {
			cr.FloorMs = float64(r.Bytes) / opt.PeakBandwidth * 1e3
			if cr.Pass && cr.Time.Median < cr.FloorMs {
				v.warn(BelowBandwidthFloor, "%s: median %.4f ms is below the %.4f ms that %d bytes take at %.0f GB/s", r.Name, cr.Time.Median, cr.FloorMs, r.Bytes, opt.PeakBandwidth/1e9)
			}
		}
		if r.Leak > 0 && !opt.SharedGPU {
			v.warn(LeakedMemory, "%s: %d bytes of device memory not freed across the calls", r.Name, r.Leak)
		}
		if r.Primary {
			v.Speedup = cr.Speedup
		}
		v.Configs = append(v.Configs, cr)
	}
	for _, r := range runs {
		if r.Error != "" {
			v.reject(RuntimeError, "config %s: %s", r.Name, r.Error)
			break
		}
	}
	switch {
	case len(failed) > 0 && len(passed) > 0:
		v.reject(PartiallyCorrect, "passes %s but fails %s", strings.Join(passed, ", "), strings.Join(failed, ", "))
	case len(failed) > 0:
		v.reject(WrongResult, "fails every configuration it ran (%s)", strings.Join(failed, ", "))
	}
	if len(poisoned) > 0 {
		v.reject(PoisonSurvived, "outputs not written: the poison survived in %s", strings.Join(poisoned, ", "))
	}
	if len(unchanged) > 0 {
		v.reject(InputIndependent, "outputs did not change when the inputs did in %s", strings.Join(unchanged, ", "))
	}
	if len(modified) > 0 {
		v.reject(InputModified, "the inputs were changed by the calls in %s (exact bytes compared: restoring them with other rounding is a change)", strings.Join(modified, "; "))
	}
	if len(hidden) > 0 {
		v.reject(HiddenWork, "work the timer did not see: the device was still busy in %s", strings.Join(hidden, ", "))
	}
	v.Accepted = len(v.Reasons) == 0 && len(errored) == 0
	if !v.Accepted && len(v.Reasons) == 0 {
		v.reject(RuntimeError, "configurations %s did not run", strings.Join(errored, ", "))
	}
	return v, nil
}

// Float is a float64 that survives JSON when it is infinite or NaN (an
// error against a NaN output is +Inf): those are written as the strings
// "inf", "-inf" and "nan", which encoding/json cannot do for numbers.
type Float float64

// MarshalJSON writes finite values as numbers and the others as strings.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"nan"`), nil
	case math.IsInf(v, 1):
		return []byte(`"inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-inf"`), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Float) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"nan"`:
		*f = Float(math.NaN())
	case `"inf"`:
		*f = Float(math.Inf(1))
	case `"-inf"`:
		*f = Float(math.Inf(-1))
	default:
		var v float64
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("verdict: %s is not a number, \"inf\", \"-inf\" or \"nan\"", b)
		}
		*f = Float(v)
	}
	return nil
}
