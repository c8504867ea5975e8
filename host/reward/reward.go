package reward

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Mode selects how Rver and Rstr are combined.
type Mode string

// The reward modes (see the package doc).
const (
	ModeVer    Mode = "ver"
	ModeStr    Mode = "str"
	ModeBoth   Mode = "both"
	ModeRandom Mode = "random"
)

// Modes lists the modes in documentation order.
var Modes = []Mode{ModeVer, ModeStr, ModeBoth, ModeRandom}

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	if i := slices.Index(Modes, Mode(s)); i >= 0 {
		return Modes[i], nil
	}
	return "", fmt.Errorf("reward: unknown mode %q: use one of ver, str, both, random", s)
}

// UsesStr reports whether the mode needs the ranker's score in the reward.
func (m Mode) UsesStr() bool { return m == ModeStr || m == ModeBoth || m == ModeRandom }

// Gate says which candidates receive a structural term.
type Gate string

// The gates, from the most permissive (the paper's literal reward) to the
// strictest.
const (
	// GateCode gives Rstr to every candidate with a code block, compiled or
	// not: the paper's Rver + Rstr taken literally.
	GateCode Gate = "code"
	// GateCompiled gives Rstr only to candidates that compiled (the default).
	GateCompiled Gate = "compiled"
	// GateCorrect gives Rstr only to candidates that passed every
	// configuration.
	GateCorrect Gate = "correct"
)

// Gates lists the gates in documentation order.
var Gates = []Gate{GateCode, GateCompiled, GateCorrect}

// ParseGate checks a gate name; "" is the default, GateCompiled.
func ParseGate(s string) (Gate, error) {
	if s == "" {
		return GateCompiled, nil
	}
	if i := slices.Index(Gates, Gate(s)); i >= 0 {
		return Gates[i], nil
	}
	return "", fmt.Errorf("reward: unknown str_on %q: use one of code, compiled, correct", s)
}

// admits reports whether a candidate with this outcome gets a structural term.
func (g Gate) admits(o Outcome) bool {
	switch g {
	case GateCode:
		return o.HasCode
	case GateCorrect:
		return o.Correct()
	default:
		return o.HasCode && o.Compiled
	}
}

// Weights are the reward's coefficients; the YAML keys are those of the
// `reward:` section of a run configuration.
type Weights struct {
	// Compile is αc, the penalty for a candidate that does not compile or
	// has no code block.
	Compile float64 `yaml:"compile" json:"compile"`
	// Tests is αt, the penalty scale for failed configurations.
	Tests float64 `yaml:"tests" json:"tests"`
	// Speedup is αs, the weight of the clipped log2 speedup.
	Speedup float64 `yaml:"speedup" json:"speedup"`
	// Clip is L, the bound of |log2(s/b)|.
	Clip float64 `yaml:"clip" json:"clip"`
	// Variance is αv, the weight of the runtime's coefficient of variation.
	Variance float64 `yaml:"variance" json:"variance"`
	// MaxCV caps the cv that is penalised, so one noisy measurement cannot
	// push a correct kernel below an incorrect one.
	MaxCV float64 `yaml:"max_cv" json:"max_cv"`
	// CorrectBonus is β, added to every correct candidate.
	CorrectBonus float64 `yaml:"correct_bonus" json:"correct_bonus"`
	// Lambda is λ, the weight of Rstr.
	Lambda float64 `yaml:"lambda" json:"lambda"`
	// StrOn is the gate: which candidates get λ·Rstr (see Gate).
	StrOn Gate `yaml:"str_on" json:"str_on"`
	// StrBound, when > 0, squashes the structural term into (−b, b):
	// b·tanh(λ·Rstr/b), which keeps the ranker's order and is λ·Rstr near
	// 0. At most OrderBound, so no Rstr can move a candidate across the
	// classes compile failure < wrong < correct (the unbounded term did:
	// see DefaultWeights). 0, the default, is the paper's λ·Rstr.
	StrBound float64 `yaml:"str_bound,omitempty" json:"str_bound,omitempty"`
}

// OrderBound is the largest StrBound that keeps every compile failure
// below every compiled, wrong candidate and every wrong one below every
// correct one, whatever Rstr is; 0 when no bound can (Rver's own classes
// overlap, or the cv penalty is not capped). Rver's worst correct is
// β − αs·L − αv·max_cv and its best wrong is just below 0; a failure is
// −αc and the worst wrong −αt. A gap between two classes that both get
// the term must hold two bounds, one between a class with the term and
// one without holds one.
func (w Weights) OrderBound() float64 {
	gate, err := ParseGate(string(w.StrOn))
	if err != nil || (w.Variance > 0 && w.MaxCV == 0) {
		return 0
	}
	worstCorrect := w.CorrectBonus - w.Speedup*w.Clip - w.Variance*w.MaxCV
	failToWrong := w.Compile - w.Tests
	if worstCorrect <= 0 || failToWrong <= 0 {
		return 0
	}
	switch gate {
	case GateCode: // failures with a code block get the term too
		return min(failToWrong, worstCorrect) / 2
	case GateCorrect: // only the correct class gets it
		return worstCorrect
	default:
		return min(failToWrong, worstCorrect/2)
	}
}

// StrTerm is the structural part of a candidate's reward in mode both:
// the score that enters (str, when the gate admits the candidate and str
// is not NaN; else 0) and the term it adds to Rver.
func (w Weights) StrTerm(o Outcome, str float64) (used, term float64) {
	if !w.admitsStr(o, str) {
		return 0, 0
	}
	return str, w.structural(str)
}

// admitsStr reports whether a candidate gets a structural term: it has a
// score and the gate (str_on) admits it. The one test for both the term
// and the running statistics the random control draws from.
func (w Weights) admitsStr(o Outcome, str float64) bool {
	return !math.IsNaN(str) && w.StrOn.admits(o)
}

// structural is the term a candidate with real or drawn score x adds:
// λ·x, squashed by StrBound when one is set.
func (w Weights) structural(x float64) float64 {
	t := w.Lambda * x
	if w.StrBound > 0 {
		t = w.StrBound * math.Tanh(t/w.StrBound)
	}
	return t
}

// DefaultWeights are the defaults, chosen so that the reward's order is
// compile failure (−1) < wrong (−0.8·failed/total, at most −0.8/n for n
// configurations) < correct (0.5 ± 0.3 − 0.1·cv ≥ 0.17):
//   - αc = 1: the unit of the scale; the worst outcome.
//   - αt = 0.8: a kernel that compiles but fails every configuration still
//     scores above one that does not compile, so compiling is learnt first.
//   - αs = 0.1, L = 3: ±8× around the baseline covers the spread of the
//     known variants (median best/worst 16.75× in the c2cuda suite) and
//     keeps the speed term (±0.3) smaller than β.
//   - αv = 0.1, cv capped at 0.3: a noisy timing costs at most 0.03.
//   - β = 0.5: correct always beats incorrect (0.5 − 0.3 − 0.03 > 0).
//   - λ = 0.2: the ranker's scores are standardised logits (about ±2), so
//     λ·Rstr is of the order of the speed term, not of correctness. It is
//     not bounded, though: the order above is Rver's, and a compiled,
//     wrong candidate with Rstr < −(αc − αt)/λ = −1 scores below a compile
//     failure. In the reward ablation's `both` and `random` runs about half
//     the compiled candidates did, and the mean advantage of compiling fell
//     from +1.06 (ver) to +0.10 (bench/h200/2026-12-03-lease6; `cudaperf
//     ablate report` counts it). The ablation keeps the paper's unbounded
//     term, as pre-registered.
//   - str_on = compiled: only a candidate that compiled gets λ·Rstr. With
//     Rstr on every code block (str_on: code, the paper's reward taken
//     literally), a 30-step GRPO run on the H200 was taken over by the
//     ranker: in most groups nothing compiled, Rver was the same −1 for
//     all (178 of 240 groups), and the group normalisation turned λ·Rstr
//     alone into the advantage. Code blocks first scored below "no code"
//     (whose Rstr term is 0), so answers without code rose from 19 to 58
//     of 128 a step (steps 1–5 against 26–30); the ranker's score of code
//     that does not compile rose from −0.91 to +1.33 while compiling fell
//     from 10 % to 1.4 %, and pass@1 after GRPO was 0 on train and test
//     (bench/h200/2026-12-03-lease3; one run, one seed). The ranker was
//     trained on kernels that compile; its score of anything else is an
//     extrapolation that a policy can climb.
func DefaultWeights() Weights {
	return Weights{Compile: 1, Tests: 0.8, Speedup: 0.1, Clip: 3, Variance: 0.1, MaxCV: 0.3, CorrectBonus: 0.5, Lambda: 0.2, StrOn: GateCompiled}
}

// Validate reports weights that cannot be meant.
func (w Weights) Validate() error {
	var bad []string
	for _, f := range []struct {
		name string
		v    float64
	}{{"compile", w.Compile}, {"tests", w.Tests}, {"speedup", w.Speedup}, {"clip", w.Clip},
		{"variance", w.Variance}, {"max_cv", w.MaxCV}, {"correct_bonus", w.CorrectBonus}, {"lambda", w.Lambda}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			bad = append(bad, fmt.Sprintf("%s = %v (must be a finite number ≥ 0)", f.name, f.v))
		}
	}
	if _, err := ParseGate(string(w.StrOn)); err != nil {
		bad = append(bad, fmt.Sprintf("str_on = %q (use code, compiled or correct)", w.StrOn))
	}
	if w.StrBound < 0 || math.IsNaN(w.StrBound) || math.IsInf(w.StrBound, 0) {
		bad = append(bad, fmt.Sprintf("str_bound = %v (must be a finite number ≥ 0; 0 leaves λ·Rstr unbounded)", w.StrBound))
	} else if b := w.OrderBound(); w.StrBound > 0 && w.StrBound > b+1e-12 {
		if b == 0 {
			bad = append(bad, fmt.Sprintf("str_bound = %g, but with these weights no bound keeps compile failure < wrong < correct (cap the cv penalty with max_cv, keep compile > tests and correct_bonus > speedup·clip + variance·max_cv; or set str_bound 0)", w.StrBound))
		} else {
			bad = append(bad, fmt.Sprintf("str_bound = %g exceeds %.4g, the largest that keeps compile failure < wrong < correct with these weights (use at most %.4g, or 0 for the unbounded λ·Rstr)", w.StrBound, b, b))
		}
	}
	if w.Clip == 0 && w.Speedup > 0 {
		bad = append(bad, "clip = 0 with speedup > 0 (the speed term would always be 0; set clip, e.g. 3)")
	}
	if len(bad) > 0 {
		return fmt.Errorf("reward: %s", strings.Join(bad, "; "))
	}
	return nil
}

// Outcome is what the benchmarker said about one candidate, in plain terms.
type Outcome struct {
	// HasCode is false when the completion held no usable code block.
	HasCode bool
	// Compiled is true when the candidate compiled.
	Compiled bool
	// Failed and Total count the configurations run and those that failed.
	Failed, Total int
	// Speedup is the primary configuration's speedup over the C reference
	// (0 when not measured).
	Speedup float64
	// Baseline is the task's speedup baseline b (≤ 0: use 1, the C
	// reference itself).
	Baseline float64
	// CV is the coefficient of variation of the candidate's runtime.
	CV float64
}

// Correct reports whether every configuration passed.
func (o Outcome) Correct() bool {
	return o.HasCode && o.Compiled && o.Total > 0 && o.Failed == 0
}

// Ver is Rver for one outcome.
func Ver(o Outcome, w Weights) float64 {
	switch {
	case !o.HasCode || !o.Compiled:
		return -w.Compile
	case o.Total == 0:
		// Compiled but nothing ran (e.g. the runner crashed before the
		// first configuration): as bad as failing them all.
		return -w.Tests
	case o.Failed > 0:
		return -w.Tests * float64(o.Failed) / float64(o.Total)
	}
	r := w.CorrectBonus
	if o.Speedup > 0 {
		b := o.Baseline
		if b <= 0 {
			b = 1
		}
		r += w.Speedup * clip(math.Log2(o.Speedup/b), w.Clip)
	}
	cv := o.CV
	if w.MaxCV > 0 {
		cv = min(cv, w.MaxCV)
	}
	if cv > 0 {
		r -= w.Variance * cv
	}
	return r
}

func clip(x, l float64) float64 { return max(-l, min(l, x)) }

// Scored is one candidate's reward and its parts.
type Scored struct {
	Ver float64 `json:"ver"`
	// Str is the real ranker score (NaN when there is none: no code, or no
	// ranker); StrUsed is the structural term that entered the reward
	// (the real score, or the random one in ModeRandom; 0 when none).
	Str     float64 `json:"-"`
	StrUsed float64 `json:"str_used"`
	Total   float64 `json:"total"`
}

// Combiner turns outcomes and ranker scores into rewards under one mode. It
// keeps the running mean and variance of the real Rstr and, for
// ModeRandom, the random generator; both are in its State.
type Combiner struct {
	mode Mode
	w    Weights
	st   Running
	pcg  *rand.PCG
	rng  *rand.Rand
}

// Running is Welford's running count, mean and sum of squared deviations.
type Running struct {
	N    int64   `json:"n"`
	Mean float64 `json:"mean"`
	M2   float64 `json:"m2"`
}

func (s *Running) add(x float64) {
	s.N++
	d := x - s.Mean
	s.Mean += d / float64(s.N)
	s.M2 += d * (x - s.Mean)
}

// variance is the population variance (0 with fewer than two values).
func (s *Running) variance() float64 {
	if s.N < 2 {
		return 0
	}
	return s.M2 / float64(s.N)
}

// NewCombiner makes a combiner; seed drives ModeRandom's draws.
func NewCombiner(mode Mode, w Weights, seed uint64) (*Combiner, error) {
	if _, err := ParseMode(string(mode)); err != nil {
		return nil, err
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	pcg := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	return &Combiner{mode: mode, w: w, pcg: pcg, rng: rand.New(pcg)}, nil
}

// Mode is the combiner's mode.
func (c *Combiner) Mode() Mode { return c.mode }

// Weights are the combiner's weights.
func (c *Combiner) Weights() Weights { return c.w }

// RunningStr returns the count, mean and population variance of the real
// Rstr values that the gate admitted so far.
func (c *Combiner) RunningStr() (n int64, mean, variance float64) {
	return c.st.N, c.st.Mean, c.st.variance()
}

// Score computes the rewards of a batch. str[i] is candidate i's real Rstr
// (NaN when it has none); str may be nil when no ranker is configured,
// which only ModeVer allows. Only the candidates the gate admits (StrOn)
// get a structural term, real or random, and only their real scores enter
// the running statistics, so the random control matches the distribution
// that "both" adds. The batch's scores update the statistics before
// ModeRandom draws, so its first batch already has the right scale; draws
// are made in candidate order.
func (c *Combiner) Score(outs []Outcome, str []float64) ([]Scored, error) {
	if str != nil && len(str) != len(outs) {
		return nil, fmt.Errorf("reward: %d outcomes but %d structural scores", len(outs), len(str))
	}
	if str == nil && c.mode != ModeVer {
		return nil, fmt.Errorf("reward: mode %s needs the ranker's score (configure a ranker model, or use mode ver)", c.mode)
	}
	// scored[i]: candidate i gets a structural term (NewCombiner
	// validated the gate).
	scored := make([]bool, len(outs))
	for i, o := range outs {
		if str != nil && c.w.admitsStr(o, str[i]) {
			scored[i] = true
			c.st.add(str[i])
		}
	}
	res := make([]Scored, len(outs))
	for i, o := range outs {
		s := math.NaN()
		if str != nil {
			s = str[i]
		}
		r := Scored{Ver: Ver(o, c.w), Str: s}
		switch c.mode {
		case ModeVer:
			r.Total = r.Ver
		case ModeStr:
			if !scored[i] {
				r.Total = -c.w.Compile
			} else {
				r.StrUsed = s
				r.Total = c.w.structural(s)
			}
		case ModeBoth:
			var term float64
			r.StrUsed, term = c.w.StrTerm(o, s)
			r.Total = r.Ver + term
		case ModeRandom:
			// A draw for every candidate that "both" would score, so the
			// control gets exactly as many structural terms.
			if scored[i] {
				r.StrUsed = c.st.Mean + math.Sqrt(c.st.variance())*c.rng.NormFloat64()
			}
			r.Total = r.Ver + c.w.structural(r.StrUsed)
		}
		res[i] = r
	}
	return res, nil
}

// State is the serialisable state of a Combiner.
type State struct {
	Stats Running `json:"str_stats"`
	RNG   []byte  `json:"rng"`
}

// State returns the combiner's state for a checkpoint.
func (c *Combiner) State() (State, error) {
	b, err := c.pcg.MarshalBinary()
	if err != nil {
		return State{}, fmt.Errorf("reward: %w", err)
	}
	return State{Stats: c.st, RNG: b}, nil
}

// Restore sets the combiner's state from a checkpoint.
func (c *Combiner) Restore(s State) error {
	if err := c.pcg.UnmarshalBinary(s.RNG); err != nil {
		return fmt.Errorf("reward: checkpoint's random state: %w", err)
	}
	c.st = s.Stats
	return nil
}
