package grpo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/reward"
)

// Trainer runs GRPO steps and owns the run folder.
type Trainer struct {
	cfg    *Config
	pol    Policy
	info   pluginhost.PolicyInfo
	bench  Benchmarker
	scorer Scorer
	tasks  []*Task // the tasks trained on
	train  []*Task // few-shot pool
	comb   *reward.Combiner
	samp   *sampler
	step   int64
	run    *runDir

	// Progress, when set, is told about each stage of a step.
	Progress func(step int64, stage string, done, total int)
}

// Options are a Trainer's parts.
type Options struct {
	Policy      Policy
	Benchmarker Benchmarker
	// Scorer gives features, diagnostics and, with a ranker, Rstr; nil
	// without analyzers. Modes other than ver need a ranked Scorer.
	Scorer  Scorer
	Dataset *Dataset
}

// NewTrainer prepares a run. With resume, it continues from the run
// folder's latest checkpoint (the same configuration is required, except
// for steps, which may grow); without, the run folder must not hold a run.
func NewTrainer(ctx context.Context, cfg *Config, o Options, resume bool) (*Trainer, error) {
	mode, _ := reward.ParseMode(cfg.Reward.Mode)
	if mode != reward.ModeVer && (o.Scorer == nil || !o.Scorer.Ranked()) {
		return nil, fmt.Errorf("grpo: reward mode %s needs the structural score (analyzers and a ranker); use mode ver without them", mode)
	}
	tasks, err := o.Dataset.Side(cfg.Side, cfg.Tasks)
	if err != nil {
		return nil, configErr{err}
	}
	train, _ := o.Dataset.Side("train", nil)
	info, err := o.Policy.Describe(ctx)
	if err != nil {
		return nil, err
	}
	comb, err := reward.NewCombiner(mode, cfg.Reward.Weights, cfg.Seed)
	if err != nil {
		return nil, err
	}
	if cfg.Policy.Init != "" {
		// Before the run folder exists: a mistyped start left a folder
		// that refused the corrected command ("continue it with --resume").
		if _, err := os.Stat(cfg.Policy.Init); err != nil {
			return nil, configErr{fmt.Errorf("grpo: policy.init %s: %w: name the start checkpoint's folder (an SFT epoch-N, or runs/<name>/checkpoints/step-N/policy)", cfg.Policy.Init, err)}
		}
	}
	t := &Trainer{cfg: cfg, pol: o.Policy, info: info, bench: o.Benchmarker, scorer: o.Scorer,
		tasks: tasks, train: train, comb: comb, samp: newSampler(len(tasks), cfg.Seed)}
	t.run, err = openRun(cfg, resume)
	if err != nil {
		return nil, err
	}
	if resume {
		st, dir, err := t.run.latest()
		if err != nil {
			return nil, err
		}
		if st != nil {
			if err := RecordStart(t.run.dir, cfg.Policy.Init, false); err != nil {
				return nil, err
			}
			if err := t.restore(ctx, st, dir); err != nil {
				return nil, err
			}
			return t, nil
		}
		// Nothing checkpointed yet: start from the beginning, without the
		// records of a first step whose checkpoint was never written.
		if err := t.run.keepThrough(0); err != nil {
			return nil, err
		}
		if err := t.run.saveConfig(); err != nil {
			return nil, err
		}
	}
	if err := LoadInit(ctx, o.Policy, t.run.dir, cfg.Policy.Init); err != nil {
		// The start did not load (another LoRA rank, a broken folder):
		// the run never began, and its folder would refuse the fix.
		t.run.abandon()
		return nil, err
	}
	return t, nil
}

// LoadInit begins the run in dir from its start checkpoint (policy.init):
// records the start (RecordStart) and loads it into the policy; it loads
// nothing when init is "" (the policy's initial weights).
func LoadInit(ctx context.Context, p Policy, dir, init string) error {
	if err := RecordStart(dir, init, true); err != nil {
		return err
	}
	if init == "" {
		return nil
	}
	// The plugin may run elsewhere than the working directory.
	abs, err := filepath.Abs(init)
	if err != nil {
		return err
	}
	// A start: the weights, not the optimiser that made them.
	if err := p.Load(ctx, abs, true); err != nil {
		return fmt.Errorf("grpo: load the initial policy %s: %w", init, err)
	}
	return nil
}

// Step is the number of steps completed.
func (t *Trainer) Step() int64 { return t.step }

// judgeOptions are the benchmark settings of step's evaluations (the step
// seeds the benchmarker's inputs).
func (t *Trainer) judgeOptions(step int64) JudgeOptions {
	b := t.cfg.Benchmarker
	return JudgeOptions{Concurrency: b.Concurrency, Seed: step, Profile: bench.Profile(b.Profile), CandidateTimeout: b.CandidateLimit()}
}

// Info is the policy's Describe answer.
func (t *Trainer) Info() pluginhost.PolicyInfo { return t.info }

// Run runs steps until cfg.Steps are done or ctx ends. Each completed step
// is checkpointed before the next starts, so an interruption loses at most
// the step in progress.
func (t *Trainer) Run(ctx context.Context) error {
	for t.step < int64(t.cfg.Steps) {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		if _, err := t.RunStep(ctx); err != nil {
			return err
		}
	}
	return nil
}

// trajectory is one member of a group across turns.
type trajectory struct {
	prompts []pluginhost.Prompt
	comps   []pluginhost.Completion
	judged  []Judged
	scores  []reward.Scored
}

// RunStep runs one step: sample, judge, refine, advantages, update,
// metrics, checkpoint.
func (t *Trainer) RunStep(ctx context.Context) (*Metrics, error) {
	step := t.step + 1
	m := &Metrics{Step: step, Mode: string(t.comb.Mode()), Stage: map[string]float64{}}
	start := time.Now()
	batch := t.samp.next(t.cfg.Batch)
	G, T := t.cfg.Group, t.cfg.Turns
	trajs := make([][]*trajectory, len(batch)) // [task][member]
	for b := range batch {
		trajs[b] = make([]*trajectory, G)
		for i := range trajs[b] {
			trajs[b][i] = &trajectory{}
		}
	}
	for turn := 0; turn < T; turn++ {
		// Generate: turn 0 has one prompt per task and G samples each;
		// a refinement has one prompt per member (its own feedback).
		var prompts []pluginhost.Prompt
		for b, ti := range batch {
			task := t.tasks[ti]
			ex := FewShot(task, t.train, *t.cfg.FewShot)
			if turn == 0 {
				p := pluginhost.Prompt{ID: fmt.Sprintf("%s:s%d:b%d:t0", task.Name, step, b), Messages: Prompt(task, ex)}
				prompts = append(prompts, p)
				for _, tr := range trajs[b] {
					tr.prompts = append(tr.prompts, p)
				}
				continue
			}
			for i, tr := range trajs[b] {
				last := len(tr.judged) - 1
				p := pluginhost.Prompt{ID: fmt.Sprintf("%s:s%d:b%d:t%d:m%d", task.Name, step, b, turn, i),
					Messages: Refine(task, ex, tr.comps[last].Text, tr.judged[last].Feedback())}
				prompts = append(prompts, p)
				tr.prompts = append(tr.prompts, p)
			}
		}
		n := G
		if turn > 0 {
			n = 1
		}
		s := t.cfg.Sampling
		s.Seed = int64(t.cfg.Seed%(1<<31))*1_000_003 + step*101 + int64(turn)
		s.Logprobs = t.info.CanLogprobs
		t.progress(step, fmt.Sprintf("turn %d/%d: generate", turn+1, T), 0, len(prompts)*n)
		t0 := time.Now()
		groups, err := t.pol.Generate(ctx, prompts, n, s)
		if err != nil {
			return nil, fmt.Errorf("grpo: step %d: generate: %w", step, err)
		}
		m.Stage["generate_s"] += time.Since(t0).Seconds()
		var tasks []*Task
		var texts []string
		var owners []*trajectory
		k := 0
		for b, ti := range batch {
			for i, tr := range trajs[b] {
				var c pluginhost.Completion
				if turn == 0 {
					c = groups[b][i]
				} else {
					c = groups[k][0]
					k++
				}
				tr.comps = append(tr.comps, c)
				tasks = append(tasks, t.tasks[ti])
				texts = append(texts, c.Text)
				owners = append(owners, tr)
				m.PromptTokens += int64(c.PromptTokens)
				m.CompletionTokens += int64(c.CompletionTokens)
			}
		}
		if err := t.run.writePending(step, turn, tasks, texts); err != nil {
			return nil, err
		}
		t.progress(step, fmt.Sprintf("turn %d/%d: evaluate", turn+1, T), 0, len(texts))
		t0 = time.Now()
		judged, err := Judge(ctx, t.bench, t.scorer, t.judgeOptions(step), tasks, texts)
		if err != nil {
			return nil, fmt.Errorf("grpo: step %d: %w", step, err)
		}
		m.Stage["evaluate_s"] += time.Since(t0).Seconds()
		outs := make([]reward.Outcome, len(judged))
		var str []float64
		if t.scorer != nil && t.scorer.Ranked() {
			str = make([]float64, len(judged))
		}
		for i, j := range judged {
			outs[i] = j.Outcome
			if !j.HasCode {
				outs[i] = reward.Outcome{}
			}
			if str != nil {
				str[i] = j.Structure.Str
			}
		}
		scores, err := t.comb.Score(outs, str)
		if err != nil {
			return nil, err
		}
		for i, tr := range owners {
			tr.judged = append(tr.judged, judged[i])
			tr.scores = append(tr.scores, scores[i])
		}
	}

	// Returns and group advantages per (task, turn).
	var rollouts []pluginhost.Rollout
	var records []RolloutRecord
	for b, ti := range batch {
		task := t.tasks[ti]
		rewards := make([][]float64, G)
		for i, tr := range trajs[b] {
			for _, s := range tr.scores {
				rewards[i] = append(rewards[i], s.Total)
			}
		}
		rets := Returns(rewards, *t.cfg.Discount)
		for turn := 0; turn < T; turn++ {
			col := make([]float64, G)
			for i := range col {
				col[i] = rets[i][turn]
			}
			adv, ok := GroupAdvantages(col)
			m.Groups++
			if !ok {
				m.ZeroVarianceGroups++
			}
			group := groupName(task.Name, step, b, turn)
			for i, tr := range trajs[b] {
				a := 0.0
				if ok {
					a = adv[i]
					rollouts = append(rollouts, pluginhost.Rollout{Prompt: tr.prompts[turn], Completion: tr.comps[turn].Text,
						Reward: col[i], Advantage: a, Logprobs: tr.comps[turn].Logprobs, GroupID: group})
				}
				records = append(records, newRecord(step, turn, i, group, tr, col[i], a, ok))
			}
		}
	}
	m.fill(trajs, T)

	if t.info.CanUpdate && len(rollouts) > 0 {
		t.progress(step, "update", 0, len(rollouts))
		t0 := time.Now()
		var stats map[string]float64
		hyper := UpdateHyper(t.cfg)
		for range t.cfg.Policy.UpdatesPerStep {
			var err error
			stats, err = t.pol.Update(ctx, step, rollouts, hyper)
			if err != nil {
				return nil, fmt.Errorf("grpo: step %d: update: %w", step, err)
			}
		}
		m.Stage["update_s"] = time.Since(t0).Seconds()
		m.Update = stats
	}
	m.Rollouts = len(rollouts)

	t.progress(step, "checkpoint", 0, 1)
	t0 := time.Now()
	if err := t.run.writeRollouts(step, records); err != nil {
		return nil, err
	}
	t.run.clearPending(step)
	t.step = step
	m.Stage["checkpoint_s"] = time.Since(t0).Seconds() // before the write, so the file holds it
	m.Stage["step_s"] = time.Since(start).Seconds()
	m.Time = time.Now().UTC().Format(time.RFC3339)
	if err := t.checkpoint(ctx, m); err != nil {
		t.step--
		return nil, err
	}
	return m, nil
}

func (t *Trainer) progress(step int64, stage string, done, total int) {
	if t.Progress != nil {
		t.Progress(step, stage, done, total)
	}
}

// sampler walks the tasks in a fresh random order each epoch.
type sampler struct {
	n     int
	order []int
	pos   int
	pcg   *rand.PCG
}

func newSampler(n int, seed uint64) *sampler {
	return &sampler{n: n, pcg: rand.NewPCG(seed, 0x5851f42d4c957f2d)}
}

func (s *sampler) next(k int) []int {
	out := make([]int, 0, k)
	for len(out) < k {
		if s.pos >= len(s.order) {
			s.order = rand.New(s.pcg).Perm(s.n)
			s.pos = 0
		}
		out = append(out, s.order[s.pos])
		s.pos++
	}
	return out
}

type samplerState struct {
	Order []int  `json:"order"`
	Pos   int    `json:"pos"`
	RNG   []byte `json:"rng"`
}

func (s *sampler) state() (samplerState, error) {
	b, err := s.pcg.MarshalBinary()
	return samplerState{Order: s.order, Pos: s.pos, RNG: b}, err
}

func (s *sampler) restore(st samplerState) error {
	if err := s.pcg.UnmarshalBinary(st.RNG); err != nil {
		return err
	}
	for _, i := range st.Order {
		if i < 0 || i >= s.n {
			return errors.New("the checkpoint's task order does not fit this task list")
		}
	}
	s.order, s.pos = st.Order, st.Pos
	return nil
}

// UpdateHyper is what every Update gets: the configured hyperparameters and
// the sampling temperature as "temperature" (unless set there), so that a
// policy scores its rollouts' log-probabilities under the tempered policy
// that drew them, as it reported them from Generate.
func UpdateHyper(c *Config) map[string]float64 {
	h := make(map[string]float64, len(c.Policy.Hyperparameters)+1)
	for k, v := range c.Policy.Hyperparameters {
		h[k] = v
	}
	if _, set := h["temperature"]; !set {
		h["temperature"] = c.Sampling.Temperature
	}
	return h
}
