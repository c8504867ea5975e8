package grpo

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/cudaperf/cudaperf/host/reward"
)

// The run folder, runs/<name>/:
//
//	config.yaml                  the resolved configuration (defaults filled in)
//	start.json                   policy.init and its content's digest (Start)
//	metrics.jsonl                one Metrics per completed step
//	rollouts/step-NNNNNN.jsonl.gz one RolloutRecord per candidate
//	checkpoints/step-NNNNNN/     state.json and policy/ (the policy's Save)
//	checkpoints/latest           the name of the newest complete checkpoint
//	pending/step-NNNNNN-turn-T.jsonl.gz  the candidates of a step not ended yet (Pending)
//	events.out.tfevents.cudaperf TensorBoard scalars (rewritten each step)
//	reward.png, rates.png        learning curves
//
// Every file is written to a temporary name and renamed, and the latest
// pointer moves only after its checkpoint is complete, so an interrupted
// run resumes from a consistent state.
type runDir struct {
	dir  string
	cfg  *Config
	keep int
	// prev is config.yaml as the run folder held it before this process
	// (nil for a new run): what a refused resume is compared with.
	prev []byte
	// created is set when this process made the folder: a run that fails
	// before its first step removes it (abandon), so that the corrected
	// command is not refused as a second run of the same name.
	created bool
}

// abandon removes a run folder this process made, before any step.
func (r *runDir) abandon() {
	if r.created {
		os.RemoveAll(r.dir)
	}
}

// ErrRunExists is returned when a new run would overwrite one.
var ErrRunExists = errors.New("the folder already holds a run")

// ErrConfig marks what NewTrainer refuses in the configuration itself (a
// task the side does not have, a resume with other settings): a usage
// error, which the command reports as such.
var ErrConfig = errors.New("configuration")

// configErr marks an error as ErrConfig without changing its text.
type configErr struct{ error }

func (e configErr) Is(target error) bool { return target == ErrConfig }
func (e configErr) Unwrap() error        { return e.error }

// State is a checkpoint's host-side state.
type State struct {
	Step       int64        `json:"step"`
	ConfigHash string       `json:"config_hash"`
	Sampler    samplerState `json:"sampler"`
	Reward     reward.State `json:"reward"`
	Policy     string       `json:"policy"`
}

func openRun(cfg *Config, resume bool) (*runDir, error) {
	r := &runDir{dir: cfg.Dir(), cfg: cfg, keep: cfg.KeepCheckpoints}
	prev, err := os.ReadFile(filepath.Join(r.dir, "config.yaml"))
	if err == nil && !resume {
		return nil, fmt.Errorf("grpo: %s: %w: continue it with --resume, or choose another name", r.dir, ErrRunExists)
	}
	r.prev = prev
	if _, err := os.Stat(r.dir); errors.Is(err, fs.ErrNotExist) {
		r.created = true
	}
	for _, d := range []string{r.dir, filepath.Join(r.dir, "rollouts"), filepath.Join(r.dir, "checkpoints")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("grpo: %w", err)
		}
	}
	if r.prev == nil {
		return r, r.saveConfig()
	}
	return r, nil // a resume: saved once latest has accepted it
}

// saveConfig writes the run's configuration into its folder.
func (r *runDir) saveConfig() error {
	b, _ := yaml.Marshal(r.cfg)
	return writeAtomic(filepath.Join(r.dir, "config.yaml"), b)
}

// hash ignores the number of steps, which a resumed run may raise, and
// the run folder's name and place, which may change when it is copied.
func (r *runDir) hash() string {
	c := *r.cfg
	c.Steps, c.Root, c.Name = 0, "", ""
	// How many checkpoints are kept decides nothing a run computes, so it
	// may change on --resume; hashed as its default, so that runs made
	// before it could keep the hash they recorded.
	c.KeepCheckpoints = defaultKeepCheckpoints
	return c.Hash()
}

func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("grpo: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("grpo: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("grpo: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("grpo: write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("grpo: %w", err)
	}
	return nil
}

func stepName(step int64) string { return fmt.Sprintf("step-%06d", step) }

func (r *runDir) writeRollouts(step int64, recs []RolloutRecord) error {
	return writeJSONLGz(filepath.Join(r.dir, "rollouts", stepName(step)+".jsonl.gz"), recs)
}

func writeJSONLGz[T any](path string, items []T) error {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	enc := json.NewEncoder(zw)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			return fmt.Errorf("grpo: %s: %w", filepath.Base(path), err)
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return writeAtomic(path, buf.Bytes())
}

// Pending is a candidate written before it is judged (pending/step-N-turn-T.jsonl.gz).
// Rollouts are written only when a step ends, so a step that never ended
// left nothing to look at: lease 7 of 2026-12-03 lost three calls to one
// that waited on the analyzer, and which candidate did it was never known.
// The step's rollouts replace its pending files when it ends.
type Pending struct {
	Step int64 `json:"step"`
	Turn int   `json:"turn"`
	// Index is the candidate's place among the turn's (the order Judge
	// receives them in).
	Index int    `json:"index"`
	Task  string `json:"task"`
	Text  string `json:"text"`
}

func (r *runDir) writePending(step int64, turn int, tasks []*Task, texts []string) error {
	if err := os.MkdirAll(filepath.Join(r.dir, "pending"), 0o755); err != nil {
		return fmt.Errorf("grpo: %w", err)
	}
	ps := make([]Pending, len(texts))
	for i, text := range texts {
		ps[i] = Pending{Step: step, Turn: turn, Index: i, Task: tasks[i].Name, Text: text}
	}
	return writeJSONLGz(filepath.Join(r.dir, "pending", fmt.Sprintf("%s-turn-%d.jsonl.gz", stepName(step), turn)), ps)
}

// clearPending removes the pending files of the steps up to step (an
// earlier process's, cut in the middle of a step that has now ended).
func (r *runDir) clearPending(step int64) {
	files, _ := filepath.Glob(filepath.Join(r.dir, "pending", "step-*-turn-*.jsonl.gz"))
	for _, f := range files {
		var s int64
		var turn int
		if _, err := fmt.Sscanf(filepath.Base(f), "step-%d-turn-%d.jsonl.gz", &s, &turn); err == nil && s <= step {
			os.Remove(f)
		}
	}
}

// checkpoint appends the step's metrics, saves the state and the policy,
// moves the latest pointer, then refreshes the event file and plots.
func (t *Trainer) checkpoint(ctx context.Context, m *Metrics) error {
	r := t.run
	line, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("grpo: metrics: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(r.dir, "metrics.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("grpo: %w", err)
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("grpo: metrics: %w", err)
	}

	ss, err := t.samp.state()
	if err != nil {
		return err
	}
	rs, err := t.comb.State()
	if err != nil {
		return err
	}
	st := State{Step: m.Step, ConfigHash: r.hash(), Sampler: ss, Reward: rs, Policy: t.info.Name + " " + t.info.Version}
	ckDir := filepath.Join(r.dir, "checkpoints")
	final := filepath.Join(ckDir, stepName(m.Step))
	tmp := filepath.Join(ckDir, ".tmp-"+stepName(m.Step))
	os.RemoveAll(tmp)
	if err := os.MkdirAll(filepath.Join(tmp, "policy"), 0o755); err != nil {
		return fmt.Errorf("grpo: %w", err)
	}
	abs, err := filepath.Abs(filepath.Join(tmp, "policy"))
	if err != nil {
		return err
	}
	if err := t.pol.Save(ctx, abs); err != nil {
		return fmt.Errorf("grpo: step %d: save the policy: %w", m.Step, err)
	}
	b, _ := json.MarshalIndent(st, "", "  ")
	if err := writeAtomic(filepath.Join(tmp, "state.json"), b); err != nil {
		return err
	}
	os.RemoveAll(final)
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("grpo: %w", err)
	}
	if err := writeAtomic(filepath.Join(ckDir, "latest"), []byte(stepName(m.Step)+"\n")); err != nil {
		return err
	}
	r.prune(m.Step)
	return r.refreshViews()
}

// prune keeps the newest r.keep checkpoints.
func (r *runDir) prune(step int64) {
	ents, _ := os.ReadDir(filepath.Join(r.dir, "checkpoints"))
	var steps []int64
	for _, e := range ents {
		if n, ok := strings.CutPrefix(e.Name(), "step-"); ok && e.IsDir() {
			if s, err := strconv.ParseInt(n, 10, 64); err == nil && s <= step {
				steps = append(steps, s)
			}
		}
	}
	slices.Sort(steps)
	for len(steps) > r.keep {
		os.RemoveAll(filepath.Join(r.dir, "checkpoints", stepName(steps[0])))
		steps = steps[1:]
	}
}

// latest reads the newest complete checkpoint (nil when there is none).
func (r *runDir) latest() (*State, string, error) {
	b, err := os.ReadFile(filepath.Join(r.dir, "checkpoints", "latest"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("grpo: %w", err)
	}
	dir := filepath.Join(r.dir, "checkpoints", strings.TrimSpace(string(b)))
	sb, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		return nil, "", fmt.Errorf("grpo: the latest checkpoint is unreadable (%w); point %s/checkpoints/latest at a complete step-N folder there (its name on one line) to resume from it, or remove it to start over", err, r.dir)
	}
	var st State
	if err := json.Unmarshal(sb, &st); err != nil {
		return nil, "", fmt.Errorf("grpo: %s/state.json: %w", dir, err)
	}
	if st.ConfigHash != r.hash() {
		now, _ := yaml.Marshal(r.cfg)
		what := ""
		// steps may grow; the folder may be renamed or moved.
		if d, _ := DiffConfigs(r.prev, now, []string{"steps", "root", "name", "benchmarker.candidate_timeout", "keep_checkpoints"}); len(d) > 0 {
			var s []string
			for _, c := range d {
				s = append(s, fmt.Sprintf("%s: %s, now %s", c.Key, c.Was, c.Now))
			}
			what = ": " + strings.Join(s, "; ")
		}
		return nil, "", configErr{fmt.Errorf("grpo: %s was made with another configuration%s (only steps may change on --resume): restore those keys, or start a new run with another name", r.dir, what)}
	}
	return &st, dir, r.saveConfig()
}

// restore brings the trainer to a checkpoint: host state, the policy's
// state, and the run files cut back to that step (a step that was
// interrupted after writing its metrics but before its checkpoint is
// dropped, and will be run again identically).
func (t *Trainer) restore(ctx context.Context, st *State, dir string) error {
	if err := t.samp.restore(st.Sampler); err != nil {
		return fmt.Errorf("grpo: resume: %w", err)
	}
	if err := t.comb.Restore(st.Reward); err != nil {
		return err
	}
	abs, err := filepath.Abs(filepath.Join(dir, "policy"))
	if err != nil {
		return err
	}
	if err := t.pol.Load(ctx, abs, false); err != nil {
		return fmt.Errorf("grpo: resume: load the policy from %s: %w", abs, err)
	}
	t.step = st.Step
	return t.run.keepThrough(st.Step)
}

// keepThrough drops the metrics and rollouts of the steps after step: a
// step's record is written before its checkpoint, so a run stopped between
// the two has records of a step that resuming makes again.
func (r *runDir) keepThrough(step int64) error {
	ms, err := ReadMetrics(filepath.Join(r.dir, "metrics.jsonl"))
	if err != nil {
		return err
	}
	var keep bytes.Buffer
	for _, m := range ms {
		if m.Step <= step {
			b, _ := json.Marshal(m)
			keep.Write(append(b, '\n'))
		}
	}
	if err := writeAtomic(filepath.Join(r.dir, "metrics.jsonl"), keep.Bytes()); err != nil {
		return err
	}
	ents, _ := os.ReadDir(filepath.Join(r.dir, "rollouts"))
	for _, e := range ents {
		n, _ := strings.CutSuffix(strings.TrimPrefix(e.Name(), "step-"), ".jsonl.gz")
		if s, err := strconv.ParseInt(n, 10, 64); err == nil && s > step {
			os.Remove(filepath.Join(r.dir, "rollouts", e.Name()))
		}
	}
	return nil
}

// ReadMetrics reads a metrics.jsonl; a torn last line (the process died
// while writing it) is ignored.
func ReadMetrics(path string) ([]Metrics, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("grpo: %w", err)
	}
	defer f.Close()
	var out []Metrics
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m Metrics
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

// refreshViews rewrites the TensorBoard event file and the plots from
// metrics.jsonl, so they always match it, across resumes too.
func (r *runDir) refreshViews() error {
	ms, err := ReadMetrics(filepath.Join(r.dir, "metrics.jsonl"))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := writeRecord(&buf, eventHeader(float64(time.Now().UnixNano())/1e9)); err != nil {
		return err
	}
	for _, m := range ms {
		tags, vals := m.Scalars()
		wall := float64(time.Now().UnixNano()) / 1e9
		if tm, err := time.Parse(time.RFC3339, m.Time); err == nil {
			wall = float64(tm.Unix())
		}
		if err := writeRecord(&buf, scalarEvent(wall, m.Step, tags, vals)); err != nil {
			return err
		}
	}
	if err := writeAtomic(filepath.Join(r.dir, "events.out.tfevents.cudaperf"), buf.Bytes()); err != nil {
		return err
	}
	return PlotCurves(ms, r.dir)
}

// Scalars are the metrics TensorBoard shows, as tag/value pairs.
func (m *Metrics) Scalars() ([]string, []float64) {
	tags := []string{"reward/mean", "reward/std", "reward/ver_mean", "reward/str_mean", "reward/str_used_mean",
		"rate/compile", "rate/correct", "speedup/geomean", "ranker/str_speedup_rho",
		"groups/zero_variance", "tokens/completion"}
	vals := []float64{m.RewardMean, m.RewardStd, m.VerMean, m.StrMean, m.StrUsedMean,
		m.CompileRate, m.CorrectRate, m.GeomeanSpeedup, m.StrSpeedupRho,
		float64(m.ZeroVarianceGroups), float64(m.CompletionTokens)}
	for i, r := range m.TurnReward {
		tags = append(tags, fmt.Sprintf("turn/reward_%d", i+1))
		vals = append(vals, r)
	}
	for _, k := range slices.Sorted(maps.Keys(m.Stage)) {
		tags = append(tags, "time/"+k)
		vals = append(vals, m.Stage[k])
	}
	return tags, vals
}
