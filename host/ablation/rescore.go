package ablation

import (
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/host/reward"
)

// RescoreRow is one trained run's training signal as recorded and as it
// would have been under other weights of the structural term (mode both),
// from the run's rollouts (grpo.Rescore).
type RescoreRow struct {
	Run                string
	Recorded, Rescored ClassOrder
	// CorrRecorded and CorrRescored are the Pearson correlations of the
	// candidates' advantages with those Rver alone gives (mode ver, same
	// records), over candidates sent to Update in both: how much of the
	// signal is still the benchmark's. NaN with fewer than 3 candidates.
	CorrRecorded, CorrRescored float64
}

// Rescore replays every trained run's rollouts under weights w in mode
// both. Runs without rollouts are left out. As for Collect, c must be the
// configuration the runs were made with.
func Rescore(c *Config, w reward.Weights) ([]RescoreRow, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	if err := c.checkMade(); err != nil {
		return nil, err
	}
	var rows []RescoreRow
	for _, r := range c.Runs() {
		if r.Mode == StartMode {
			continue
		}
		recs, err := grpo.RunRollouts(r.Cfg.Dir())
		if err != nil {
			return nil, fmt.Errorf("ablation: %s: %w", r.Cfg.Name, err)
		}
		if len(recs) == 0 {
			continue
		}
		discount := *r.Cfg.Discount
		res, err := grpo.Rescore(recs, reward.ModeBoth, w, discount)
		if err != nil {
			return nil, fmt.Errorf("ablation: %s: %w", r.Cfg.Name, err)
		}
		ver, err := grpo.Rescore(recs, reward.ModeVer, r.Cfg.Reward.Weights, discount)
		if err != nil {
			return nil, fmt.Errorf("ablation: %s: %w", r.Cfg.Name, err)
		}
		rows = append(rows, RescoreRow{Run: r.Cfg.Name,
			Recorded: orderOf(recs, r.Cfg.Reward.Weights.Compile), Rescored: orderOf(res, w.Compile),
			CorrRecorded: advCorr(recs, ver), CorrRescored: advCorr(res, ver)})
	}
	return rows, nil
}

// advCorr is the correlation of a's and b's advantages over the records
// both sent to Update (a and b are the same records, rescored).
func advCorr(a, b []grpo.RolloutRecord) float64 {
	var x, y []float64
	for i := range a {
		if a[i].Used && b[i].Used {
			x, y = append(x, a[i].Advantage), append(y, b[i].Advantage)
		}
	}
	if len(x) < 3 {
		return math.NaN()
	}
	return stat.Correlation(x, y, nil)
}

// WriteRescore writes the rows as a Markdown table, with what was replayed.
func WriteRescore(out io.Writer, rows []RescoreRow, w reward.Weights, command string) {
	bound := "unbounded"
	if w.StrBound > 0 {
		bound = fmt.Sprintf("squashed into ±%g", w.StrBound)
	}
	fmt.Fprintf(out, "# The runs' training signal, replayed\n\nBy `%s`: each trained run's recorded candidates (their Rver and real Rstr kept) rescored as mode both with λ = %g on Rstr, %s, str_on = %s; returns and group advantages as the trainer computes them. Recorded → replayed. The correlation is that of the candidates' advantages with those Rver alone gives.\n\n",
		command, w.Lambda, bound, w.StrOn)
	fmt.Fprintf(out, "| run | compiled candidates | scored below a compile failure | mean advantage, compiled / not compiled | correlation with Rver's advantages |\n|---|---|---|---|---|\n")
	pct := func(o ClassOrder) string {
		if o.Compiled == 0 {
			return "—"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(o.Below)/float64(o.Compiled))
	}
	corr := func(v float64) string {
		if math.IsNaN(v) {
			return "—"
		}
		return fmt.Sprintf("%.2f", v)
	}
	for _, r := range rows {
		fmt.Fprintf(out, "| %s | %d | %s → %s | %+.2f / %+.2f → %+.2f / %+.2f | %s → %s |\n", r.Run, r.Recorded.Compiled,
			pct(r.Recorded), pct(r.Rescored), r.Recorded.AdvCompiled, r.Recorded.AdvOther, r.Rescored.AdvCompiled, r.Rescored.AdvOther,
			corr(r.CorrRecorded), corr(r.CorrRescored))
	}
	if len(rows) == 0 {
		fmt.Fprintln(out, "\nNo trained run has rollouts yet.")
	}
}
