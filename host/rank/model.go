package rank

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
)

// FormatVersion is the model file's format; Load refuses others.
const FormatVersion = 1

// Model is a trained ranker and everything needed to score with it.
type Model struct {
	Format int    `json:"format"`
	Kind   string `json:"kind"` // "mlp" or "linear"
	// Featurizer turns the analyzer's vector into the model's features
	// before the inputs are built: "" (none) or FeaturizerPaperProxies.
	Featurizer string   `json:"featurizer,omitempty"`
	Schema     Schema   `json:"schema"`
	Inputs     []Input  `json:"inputs"`
	Members    []Net    `json:"members"` // an ensemble averages their scores
	Training   Training `json:"training"`
}

// Input is one feature's normalization: x → (log1p(x) if Log, else x) −
// Mean) / Std. With Mask, a second input (after all value inputs) is 1
// when the feature is missing and 0 otherwise.
type Input struct {
	Feature string  `json:"feature"`
	Log     bool    `json:"log,omitempty"`
	Mean    float64 `json:"mean"`
	Std     float64 `json:"std"`
	Mask    bool    `json:"mask,omitempty"`
}

// Training records how a model was made and how it did.
type Training struct {
	Options  Options `json:"options"`
	DataHash string  `json:"data_hash"`
	// Arch is the device the features were computed for (occupancy
	// depends on it); scoring uses the same unless told otherwise.
	Arch string `json:"arch,omitempty"`
	// Sizes is "task" when the features were computed with each task
	// configuration's problem sizes bound (scoring then needs the sizes
	// too), "none" when without.
	Sizes string `json:"sizes,omitempty"`
	// Split names the tasks trained on and those early stopping used.
	Train      []string `json:"train"`
	Validation []string `json:"validation"`
	Pairs      int      `json:"pairs"`
	// Epochs is each member's best epoch (early stopping).
	Epochs []int `json:"epochs"`
	// Metrics maps a split side to its evaluation (mean over tasks at the
	// primary configuration, with 95% bootstrap intervals).
	Metrics map[string]Summary `json:"metrics,omitempty"`
}

func (m *Model) width() int {
	n := len(m.Inputs)
	for _, in := range m.Inputs {
		if in.Mask {
			n++
		}
	}
	return n
}

// observed is v's value of feature name when it has a finite one. A NaN or
// an infinity (a third-party analyzer may report one) counts as missing,
// in training and scoring alike: as a value it made every weight NaN.
func observed(v Vector, name string) (float64, bool) {
	x, ok := v[name]
	if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false
	}
	return x, true
}

// x writes the model's input vector for v into dst.
func (m *Model) x(v Vector, dst []float64) []float64 {
	if m.Featurizer == FeaturizerPaperProxies {
		v = PaperProxies(v)
	}
	dst = dst[:0]
	for _, in := range m.Inputs {
		val, ok := observed(v, in.Feature)
		if !ok {
			dst = append(dst, 0)
			continue
		}
		dst = append(dst, (transform(val, in.Log)-in.Mean)/in.Std)
	}
	for _, in := range m.Inputs {
		if !in.Mask {
			continue
		}
		if _, ok := observed(v, in.Feature); ok {
			dst = append(dst, 0)
		} else {
			dst = append(dst, 1)
		}
	}
	return dst
}

func transform(x float64, log bool) float64 {
	if log {
		return math.Log1p(math.Max(x, 0))
	}
	return x
}

// Scorer scores vectors with a model, reusing its buffers; it is not safe
// for concurrent use (make one per goroutine).
type Scorer struct {
	m    *Model
	x    []float64
	work []*work
}

// NewScorer returns a scorer for m.
func (m *Model) NewScorer() *Scorer {
	s := &Scorer{m: m, x: make([]float64, 0, m.width())}
	for i := range m.Members {
		s.work = append(s.work, m.Members[i].newWork())
	}
	return s
}

// Score is the model's score of v: higher means predicted faster. Scores
// compare variants of one task; their scale has no unit.
func (s *Scorer) Score(v Vector) float64 {
	s.x = s.m.x(v, s.x)
	var sum float64
	for i := range s.m.Members {
		sum += s.m.Members[i].forward(s.x, s.work[i])
	}
	return sum / float64(len(s.m.Members))
}

// ScoreFile scores a file from its kernels' vectors.
func (s *Scorer) ScoreFile(ks []Kernel) float64 { return s.Score(FileVector(ks)) }

// Validate checks that the model is internally consistent.
func (m *Model) Validate() error {
	if m.Format != FormatVersion {
		return fmt.Errorf("format %d, this cudaperf reads format %d: retrain the model with `cudaperf rank train`", m.Format, FormatVersion)
	}
	if len(m.Members) == 0 {
		return fmt.Errorf("no network")
	}
	// What scoring reads besides the network: each was taken on trust, and
	// an edited file scored (or printed nothing) without a word.
	if m.Kind != "mlp" && m.Kind != "linear" {
		return fmt.Errorf("kind %q: mlp or linear", m.Kind)
	}
	if m.Featurizer != "" && m.Featurizer != FeaturizerPaperProxies {
		return fmt.Errorf("featurizer %q: none or %q", m.Featurizer, FeaturizerPaperProxies)
	}
	if len(m.Schema) == 0 {
		return fmt.Errorf("schema is empty: the model names no feature it was trained on")
	}
	if m.Featurizer == "" {
		names := m.Schema.Names()
		for _, in := range m.Inputs {
			if !slices.Contains(names, in.Feature) {
				return fmt.Errorf("input %s is not a feature of the model's schema", in.Feature)
			}
		}
	}
	w := m.width()
	for i, n := range m.Members {
		if len(n.Sizes) < 2 || n.Sizes[0] != w || n.Sizes[len(n.Sizes)-1] != 1 {
			return fmt.Errorf("member %d: layer sizes %v do not take %d inputs to 1 score", i, n.Sizes, w)
		}
		want := 0
		for l := 0; l+1 < len(n.Sizes); l++ {
			want += n.Sizes[l]*n.Sizes[l+1] + n.Sizes[l+1]
		}
		if len(n.Params) != want {
			return fmt.Errorf("member %d: %d parameters, sizes %v need %d", i, len(n.Params), n.Sizes, want)
		}
	}
	for _, in := range m.Inputs {
		if in.Std <= 0 {
			return fmt.Errorf("input %s: std %v must be > 0", in.Feature, in.Std)
		}
	}
	return nil
}

// Parse reads a model from JSON and validates it; name says where it came
// from in errors.
func Parse(data []byte, name string) (*Model, error) {
	var m Model
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("rank: model %s: %v (is it a file written by `cudaperf rank train`?)", name, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("rank: model %s: %v", name, err)
	}
	return &m, nil
}

// Load reads a model file.
func Load(path string) (*Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	return Parse(b, path)
}

// roundParams rounds every parameter to 7 significant digits (training
// resolves far less), so the saved file is small and a loaded model scores
// exactly as the one that was evaluated before saving.
func (m *Model) roundParams() {
	for _, n := range m.Members {
		for j, v := range n.Params {
			n.Params[j], _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 7, 64), 64)
		}
	}
	for i := range m.Inputs {
		in := &m.Inputs[i]
		in.Mean, _ = strconv.ParseFloat(strconv.FormatFloat(in.Mean, 'g', 7, 64), 64)
		in.Std, _ = strconv.ParseFloat(strconv.FormatFloat(in.Std, 'g', 7, 64), 64)
	}
}

// Marshal writes the model as indented JSON.
func (m *Model) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Save writes the model to path atomically (a temporary file renamed).
func (m *Model) Save(path string) error {
	b, err := m.Marshal()
	if err != nil {
		return fmt.Errorf("rank: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("rank: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rank: %w", err)
	}
	return nil
}
