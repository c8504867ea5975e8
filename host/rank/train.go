package rank

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Options configure training. The zero value of a field means its default
// (see Defaults).
type Options struct {
	Kind   string `json:"kind"`             // "mlp" (default) or "linear"
	Hidden []int  `json:"hidden,omitempty"` // hidden layer widths of the MLP
	// Features restricts the inputs to these features (nil: every feature
	// of the schema).
	Features   []string `json:"features,omitempty"`
	Featurizer string   `json:"featurizer,omitempty"`
	Pairs      PairRule `json:"pairs"`
	// AllConfigs trains on every configuration whose fastest variant runs
	// at least MinMs, not only the primary one.
	AllConfigs bool    `json:"all_configs,omitempty"`
	MinMs      float64 `json:"min_ms,omitempty"`
	LR         float64 `json:"lr"`
	L2         float64 `json:"l2"`
	MaxEpochs  int     `json:"max_epochs"`
	Patience   int     `json:"patience"`
	Ensemble   int     `json:"ensemble"`
	Seed       uint64  `json:"seed"`
	// ShuffleLabels permutes the measured times within each task and
	// configuration before pairing: the random-label control.
	ShuffleLabels bool `json:"shuffle_labels,omitempty"`
	// Unbound also trains on the variants' vectors computed without
	// problem sizes (Variant.Unbound), paired as at the primary
	// configuration, so a model trained with sizes bound still scores a
	// file whose sizes are unknown (lint): the size-dependent features are
	// then missing and their mask inputs say so.
	Unbound bool `json:"unbound,omitempty"`
}

// Defaults fills unset options.
func (o Options) Defaults() Options {
	if o.Kind == "" {
		o.Kind = "mlp"
	}
	if o.Kind == "mlp" && o.Hidden == nil {
		o.Hidden = []int{16}
	}
	if o.Kind == "linear" {
		o.Hidden = nil
	}
	if o.LR == 0 {
		o.LR = 0.01
	}
	if o.L2 == 0 {
		o.L2 = 1e-3
	}
	if o.MaxEpochs == 0 {
		o.MaxEpochs = 1000
	}
	if o.Patience == 0 {
		o.Patience = 100
	}
	if o.Ensemble == 0 {
		o.Ensemble = 1
	}
	return o
}

// Configs returns the configurations of t that pairs are drawn from.
func (o Options) Configs(t *Task) []string {
	if !o.AllConfigs {
		return []string{t.Primary}
	}
	var out []string
	for _, c := range t.Configs {
		idx := t.timed(c)
		if len(idx) >= 2 && t.Variants[idx[0]].Times[c] >= o.MinMs {
			out = append(out, c)
		}
	}
	return out
}

// examples are the variants of a set of tasks as model inputs, and their
// weighted pairs.
type examples struct {
	x     [][]float64
	pairs []wpair
}

type wpair struct {
	fast, slow int // into x
	w          float64
}

// Train fits a model on train's pairs, stopping early on val's (with no
// validation pairs it runs MaxEpochs). schema describes the features the
// vectors carry.
func Train(schema Schema, train, val []Task, opt Options) (*Model, error) {
	opt = opt.Defaults()
	if opt.Kind != "mlp" && opt.Kind != "linear" {
		return nil, fmt.Errorf("rank: model kind %q: use mlp or linear", opt.Kind)
	}
	m := &Model{Format: FormatVersion, Kind: opt.Kind, Featurizer: opt.Featurizer, Schema: schema.Sorted()}
	if opt.Featurizer != "" && opt.Featurizer != FeaturizerPaperProxies {
		return nil, fmt.Errorf("rank: featurizer %q: use %q or none", opt.Featurizer, FeaturizerPaperProxies)
	}
	if err := m.fitInputs(train, opt); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5eed))
	tr := m.examples(train, opt, rng)
	va := m.examples(val, opt, nil)
	if len(tr.pairs) == 0 {
		return nil, fmt.Errorf("rank: the training tasks give no pairs (%s): are they measured?", opt.Pairs)
	}
	sizes := append(append([]int{m.width()}, opt.Hidden...), 1)
	for e := 0; e < opt.Ensemble; e++ {
		net, best := fit(sizes, tr, va, opt, opt.Seed+uint64(e))
		m.Members = append(m.Members, *net)
		m.Training.Epochs = append(m.Training.Epochs, best)
	}
	m.roundParams()
	m.Training.Options = opt
	m.Training.DataHash = Hash(append(slices.Clone(train), val...))
	m.Training.Train = names(train)
	m.Training.Validation = names(val)
	m.Training.Pairs = len(tr.pairs)
	return m, nil
}

func names(ts []Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	sort.Strings(out)
	return out
}

// fitInputs chooses the inputs and their normalization from the training
// variants.
func (m *Model) fitInputs(train []Task, opt Options) error {
	cands := opt.Features
	if cands == nil {
		if m.Featurizer == FeaturizerPaperProxies {
			cands = PaperFeatures
		} else {
			cands = m.Schema.Names()
		}
	}
	unbounded := map[string]bool{}
	for _, f := range m.Schema {
		unbounded[f.Name] = f.Unbounded() && m.Featurizer == ""
	}
	var vecs []Vector
	for _, t := range train {
		for _, v := range t.Variants {
			kss := [][]Kernel{v.Kernels}
			if opt.Unbound && v.Unbound != nil {
				kss = append(kss, v.Unbound)
			}
			for _, ks := range kss {
				fv := FileVector(ks)
				if m.Featurizer == FeaturizerPaperProxies {
					fv = PaperProxies(fv)
				}
				vecs = append(vecs, fv)
			}
		}
	}
	for _, name := range cands {
		in := Input{Feature: name, Log: unbounded[name]}
		var xs []float64
		for _, v := range vecs {
			if x, ok := observed(v, name); ok {
				xs = append(xs, transform(x, in.Log))
			} else {
				in.Mask = true
			}
		}
		if len(xs) == 0 {
			continue // never observed: not an input
		}
		in.Mean, in.Std = stat.PopMeanStdDev(xs, nil)
		if in.Std < 1e-9 {
			in.Std = 1
		}
		m.Inputs = append(m.Inputs, in)
	}
	if len(m.Inputs) == 0 {
		return fmt.Errorf("rank: none of the features %v is observed in the training tasks", cands)
	}
	return nil
}

// examples turns tasks into inputs and pairs; rng != nil with
// ShuffleLabels permutes times first.
func (m *Model) examples(tasks []Task, opt Options, rng *rand.Rand) *examples {
	ex := &examples{}
	for _, t := range tasks {
		primary := len(ex.x)
		for _, v := range t.Variants {
			ex.x = append(ex.x, m.x(FileVector(v.Kernels), nil))
		}
		for _, c := range opt.Configs(&t) {
			base := primary
			if c != t.Primary && len(t.Variants) > 0 && t.Variants[0].At != nil {
				// Features bound at c's sizes: the variants at c are
				// examples of their own.
				base = len(ex.x)
				for _, v := range t.Variants {
					ex.x = append(ex.x, m.x(FileVector(v.atConfig(c).Kernels), nil))
				}
			}
			tt := t
			if opt.ShuffleLabels && rng != nil {
				tt = shuffled(t, c, rng)
			}
			ps := tt.Pairs(c, opt.Pairs)
			for _, p := range ps {
				ex.pairs = append(ex.pairs, wpair{base + p.Fast, base + p.Slow, 1 / float64(len(ps))})
			}
			if c == t.Primary && opt.Unbound && len(t.Variants) > 0 && t.Variants[0].Unbound != nil {
				base = len(ex.x)
				for _, v := range t.Variants {
					ex.x = append(ex.x, m.x(FileVector(v.Unbound), nil))
				}
				for _, p := range ps {
					ex.pairs = append(ex.pairs, wpair{base + p.Fast, base + p.Slow, 1 / float64(len(ps))})
				}
			}
		}
	}
	return ex
}

// shuffled returns t with the times of config permuted among the variants
// timed on it.
func shuffled(t Task, config string, rng *rand.Rand) Task {
	idx := t.timed(config)
	times := make([]float64, len(idx))
	for i, j := range idx {
		times[i] = t.Variants[j].Times[config]
	}
	rng.Shuffle(len(times), func(a, b int) { times[a], times[b] = times[b], times[a] })
	out := t
	out.Variants = slices.Clone(t.Variants)
	for i, j := range idx {
		v := &out.Variants[j]
		nt := make(map[string]float64, len(v.Times))
		for k, x := range v.Times {
			nt[k] = x
		}
		nt[config] = times[i]
		v.Times = nt
	}
	return out
}

// fit trains one network and returns it at its best validation epoch.
func fit(sizes []int, tr, va *examples, opt Options, seed uint64) (*Net, int) {
	rng := rand.New(rand.NewPCG(seed, 0xa11ce))
	net := newNet(sizes, rng)
	w := net.newWork() // for validation passes
	// One activation buffer per training example: the backward pass reuses
	// the epoch's forward pass instead of recomputing it.
	ws := make([]*work, len(tr.x))
	for i := range ws {
		ws[i] = net.newWork()
	}
	opt2 := newAdam(len(net.Params), opt.LR)
	grad := make([]float64, len(net.Params))
	scores := make([]float64, len(tr.x))
	gs := make([]float64, len(tr.x))
	var vscores []float64
	if len(va.pairs) > 0 {
		vscores = make([]float64, len(va.x))
	}
	var wsum float64
	for _, p := range tr.pairs {
		wsum += p.w
	}
	best := slices.Clone(net.Params)
	bestLoss, bestEpoch := math.Inf(1), 0
	for epoch := 1; epoch <= opt.MaxEpochs; epoch++ {
		for i, x := range tr.x {
			scores[i] = net.forward(x, ws[i])
			gs[i] = 0
		}
		for _, p := range tr.pairs {
			// d/dd log(1+exp(−d)) = −σ(−d), d = s_fast − s_slow
			g := -p.w * sigmoid(scores[p.slow]-scores[p.fast]) / wsum
			gs[p.fast] += g
			gs[p.slow] -= g
		}
		for i := range grad {
			grad[i] = 2 * opt.L2 * net.Params[i]
		}
		for i := range tr.x {
			if gs[i] != 0 {
				net.backward(gs[i], ws[i], grad)
			}
		}
		opt2.step(net.Params, grad)
		if vscores == nil {
			bestEpoch = epoch
			continue
		}
		for i, x := range va.x {
			vscores[i] = net.forward(x, w)
		}
		if l := pairLoss(vscores, va.pairs); l < bestLoss-1e-6 {
			bestLoss, bestEpoch = l, epoch
			copy(best, net.Params)
		} else if epoch-bestEpoch >= opt.Patience {
			break
		}
	}
	if vscores != nil {
		copy(net.Params, best)
	}
	return net, bestEpoch
}

func pairLoss(s []float64, ps []wpair) float64 {
	var l, w float64
	for _, p := range ps {
		l += p.w * softplus(s[p.slow]-s[p.fast])
		w += p.w
	}
	return l / w
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// softplus is log(1 + exp(x)) without overflow.
func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}
