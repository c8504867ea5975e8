package grpo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"time"

	"github.com/cudaperf/cudaperf/host/lint"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/rank"
	"github.com/cudaperf/cudaperf/host/report"
)

// Ranker scores one file's kernels (its feature rows, as `cudaperf
// features` prints them); ok is false when it cannot (no kernel).
type Ranker func(kernels []report.KernelFeatures) (score float64, ok bool)

// AnalyzerScorer is the Scorer of a real run: the analyzer plugins give
// features and diagnostics (through package lint, the same path as
// `cudaperf lint`), and the ranker, when set, gives Rstr.
type AnalyzerScorer struct {
	Analyzers lint.Analyzers
	Rank      Ranker // nil: no Rstr (reward mode ver only)
	// Timeout bounds each analyzer request (0: DefaultStructureTimeout),
	// in place of the host's --plugin-timeout, which a run sets long for
	// the policy's generate calls.
	Timeout time.Duration
	// Need are the analyzer plugins Rank reads (with Rank set): one of
	// them failing a whole batch fails it. Another analyzer failing only
	// takes its features and diagnostics from that batch's feedback, with
	// a warning, as lint goes on without it.
	Need []string
}

// DefaultStructureTimeout is the analyzers' request limit in a run. A
// step's batch of 64-128 candidates is analysed in seconds (ptxas
// included); an analyzer stuck on one candidate is stopped at this limit
// and restarted for the others (pluginhost.Host.AnalyzeWith), and that
// candidate goes without Rstr, instead of holding the step for the 20
// minutes a run gives a generate call (lease 7 lost two device calls to
// such a wait).
const DefaultStructureTimeout = 2 * time.Minute

// Ranked reports whether a ranker is set.
func (s *AnalyzerScorer) Ranked() bool { return s.Rank != nil }

// Structure analyzes a batch of candidate sources of one task.
func (s *AnalyzerScorer) Structure(ctx context.Context, t *Task, sources []string) ([]Structure, error) {
	// A torch2cuda candidate is a Python file: the analyzers see the CUDA
	// in its load_inline strings, as `cudaperf lint model_new.py` does (one
	// without any gets no features and no Rstr).
	var inputs []lint.Input
	byFile := map[string]int{} // input path -> index in sources
	for i, src := range sources {
		in := lint.Input{Path: fmt.Sprintf("%s/candidate-%d.cu", t.Name, i), Content: []byte(src)}
		if t.Kind == KindTorch2CUDA {
			var ok bool
			if in, ok = lint.PythonInput(fmt.Sprintf("%s/candidate-%d.py", t.Name, i), []byte(src)); !ok {
				continue
			}
		}
		byFile[in.Path] = i
		inputs = append(inputs, in)
	}
	limit := s.Timeout
	if limit <= 0 {
		limit = DefaultStructureTimeout
	}
	res := lint.Run(pluginhost.WithRequestTimeout(ctx, limit), s.Analyzers, inputs, lint.Options{})
	for _, f := range res.Failures {
		// A candidate an analyzer could not read (it hung or died on
		// it): that candidate has no Rstr; the others keep theirs. The
		// hash finds its completion in the step's rollouts.
		if i, ok := byFile[f.File]; ok {
			sum := sha256.Sum256([]byte(sources[i]))
			slog.Warn("grpo: structural score: an analyzer failed on a candidate; it has no Rstr", "task", t.Name,
				"source_sha256", hex.EncodeToString(sum[:6]), "plugin", f.Plugin, "error", f.Message)
		}
	}
	var fatal []error
	for _, err := range res.PluginErrors {
		// An analyzer the ranker reads that fails the whole batch would
		// leave Rstr missing for every candidate: a broken run, not a
		// property of them. Any other only thins the feedback.
		var pe *pluginhost.PluginError
		if s.Rank != nil && (!errors.As(err, &pe) || len(s.Need) == 0 || slices.Contains(s.Need, pe.Plugin)) {
			fatal = append(fatal, err)
			continue
		}
		slog.Warn("grpo: structural feedback: an analyzer failed the batch; its features and diagnostics are left out", "task", t.Name, "error", err)
	}
	if len(fatal) > 0 {
		return nil, errors.Join(fatal...)
	}
	out := make([]Structure, len(sources))
	rows := make([][]report.KernelFeatures, len(sources))
	for _, r := range res.Features {
		if i, ok := byFile[r.File]; ok {
			rows[i] = append(rows[i], r)
		}
	}
	diags := make([][]report.Diagnostic, len(sources))
	for _, d := range res.Diagnostics {
		if i, ok := byFile[d.File]; ok {
			diags[i] = append(diags[i], d)
		}
	}
	for i := range out {
		ks := make([]rank.Kernel, len(rows[i]))
		for k, r := range rows[i] {
			ks[k] = rank.Kernel{Name: r.Kernel, Vector: r.Features}
		}
		out[i] = Structure{Str: math.NaN(), Features: rank.FileVector(ks)}
		if s.Rank != nil {
			if v, ok := s.Rank(rows[i]); ok {
				out[i].Str = v
			}
		}
		slices.SortStableFunc(diags[i], func(a, b report.Diagnostic) int { return severityRank(a.Severity) - severityRank(b.Severity) })
		for _, d := range diags[i] {
			out[i].Diagnostics = append(out[i].Diagnostics, fmt.Sprintf("line %d: %s: %s [%s]", d.Line, d.Severity, d.Message, d.Check))
		}
	}
	return out, nil
}

func severityRank(s report.Severity) int {
	switch s {
	case report.Error:
		return 0
	case report.Warning:
		return 1
	}
	return 2
}
