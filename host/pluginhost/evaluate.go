package pluginhost

import (
	"context"
	"strings"

	"github.com/cudaperf/cudaperf/bench"
)

// EvalRequest asks a benchmarker to compile, check and time one candidate
// for one task, in plain types.
type EvalRequest struct {
	TaskKind string // e.g. "c2cuda"
	TaskPath string // the task folder
	Source   []byte
	Filename string // name of the source in compiler messages
	Configs  []string
	Seed     int64
	Profile  bench.Profile // "" or bench.ProfileReport, or bench.ProfileRL
}

// Evaluation is a benchmarker's whole answer for one candidate.
type Evaluation struct {
	Compiled   bool
	CompileLog string
	Configs    []ConfigOutcome
	// Reasons are run-level refusals and errors ("hidden_work: …"); a
	// candidate with any is not correct even if every configuration passed.
	Reasons []string
	// Warnings are run-level notes that do not reject the candidate.
	Warnings []string
	// Recorded is true when the answer comes from recorded measurements
	// (the `recorded` benchmarker), not from a run now.
	Recorded bool
	// NotRecorded is true when a recorded benchmarker had no measurement
	// for this source: nothing was judged (Compiled is false).
	NotRecorded bool
	// GeomeanSpeedup is over the passing configurations (0 when none).
	GeomeanSpeedup float64
}

// ConfigOutcome is one configuration's result.
type ConfigOutcome struct {
	Name    string
	Passed  bool
	Speedup float64 // reference median / candidate median; 0 when not timed
	CV      float64 // of the candidate's runtime
	Reasons []string
}

// Evaluate runs one candidate and summarises its result record (see
// EvaluateJob, the one conversion of the Run stream).
func (p *Plugin) Evaluate(ctx context.Context, req EvalRequest) (*Evaluation, error) {
	j := bench.Job{TaskKind: req.TaskKind, TaskPath: req.TaskPath, Source: req.Source, Filename: req.Filename,
		Settings: bench.Settings{Configs: req.Configs, Profile: req.Profile}}
	if req.Seed != 0 {
		j.Seeds[0] = uint64(req.Seed)
	}
	r, err := p.EvaluateJob(ctx, j)
	if err != nil {
		return nil, err
	}
	return evaluationOf(r), nil
}

// evaluationOf summarises a result record.
func evaluationOf(r *bench.Result) *Evaluation {
	ev := &Evaluation{Compiled: r.Compile.OK, CompileLog: r.Compile.Log, GeomeanSpeedup: r.GeomeanSpeedup(), Recorded: r.Recorded}
	if r.Error != "" {
		ev.Reasons = append(ev.Reasons, "error: "+r.Error)
		ev.NotRecorded = strings.HasPrefix(r.Error, bench.NotRecorded)
	}
	if v := r.Verdict; v != nil {
		for _, c := range v.Configs {
			co := ConfigOutcome{Name: c.Name, Passed: c.Pass, Speedup: c.Speedup}
			if c.Time != nil {
				co.CV = c.Time.CV
			}
			for _, x := range []string{c.Error, c.Detail} {
				if x != "" {
					co.Reasons = append(co.Reasons, x)
				}
			}
			ev.Configs = append(ev.Configs, co)
		}
		for _, x := range v.Reasons {
			ev.Reasons = append(ev.Reasons, x.String())
		}
		for _, x := range v.Warnings {
			ev.Warnings = append(ev.Warnings, x.String())
		}
	}
	return ev
}
