package pluginhost

import (
	"context"
	"strings"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
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

// Evaluate runs one candidate and gathers the streamed events.
func (p *Plugin) Evaluate(ctx context.Context, req EvalRequest) (*Evaluation, error) {
	preq := &pluginv1.RunRequest{TaskKind: req.TaskKind, TaskPath: req.TaskPath, Source: req.Source,
		Filename: req.Filename, Configs: req.Configs, Seed: req.Seed, TimeReference: true}
	ev := &Evaluation{}
	err := p.Run(ctx, preq, func(e *pluginv1.RunEvent) error {
		switch x := e.GetEvent().(type) {
		case *pluginv1.RunEvent_Compiled:
			ev.Compiled = x.Compiled.GetOk()
			ev.CompileLog = x.Compiled.GetLog()
		case *pluginv1.RunEvent_Config:
			c := x.Config
			ev.Configs = append(ev.Configs, ConfigOutcome{Name: c.GetConfig(), Passed: c.GetPassed(),
				Speedup: c.GetSpeedup(), CV: c.GetTiming().GetCv(), Reasons: c.GetReasons()})
		case *pluginv1.RunEvent_Done:
			ev.GeomeanSpeedup = x.Done.GetGeomeanSpeedup()
			for _, r := range x.Done.GetReasons() {
				if w, ok := strings.CutPrefix(r, "warning "); ok {
					ev.Warnings = append(ev.Warnings, w)
				} else {
					ev.Reasons = append(ev.Reasons, r)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ev, nil
}
