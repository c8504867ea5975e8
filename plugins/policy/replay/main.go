package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cudaperf/cudaperf/bench/dataset"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

var version = "dev"

// noCode is the arm that answers without a code block.
const noCode = "I am not sure how to write this kernel in CUDA."

type arms struct {
	names  []string // variant names, then "(no code)"
	texts  []string
	logits []float64
}

type server struct {
	pluginv1.UnimplementedPolicyServiceServer
	suite    string
	mu       sync.Mutex
	tasks    map[string]*arms
	measured map[string]bool // "task/variant" measured in the suite; nil: no measurements file
}

// loadMeasured reads which variants the suite's measurements.jsonl holds:
// replay proposes known kernels, and a variant never measured (a new sweep
// instance) is not known to any benchmarker that answers from records.
func loadMeasured(suite string) (map[string]bool, error) {
	f, err := os.Open(filepath.Join(suite, "measurements.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r struct{ Task, Candidate, Kind string }
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Kind == "variant" {
			out[r.Task+"/"+r.Candidate] = true
		}
	}
	return out, sc.Err()
}

func main() {
	suite := os.Getenv("CUDAPERF_REPLAY_SUITE")
	if suite == "" {
		suite = filepath.Join("bench", "suites", "c2cuda")
	}
	measured, err := loadMeasured(suite)
	if err != nil {
		sdk.Logger().Error("replay: reading the suite's measurements", "error", err)
	}
	sdk.ServePolicy(&server{suite: suite, tasks: map[string]*arms{}, measured: measured})
}

func (s *server) Describe(context.Context, *pluginv1.DescribePolicyRequest) (*pluginv1.DescribePolicyResponse, error) {
	return &pluginv1.DescribePolicyResponse{
		Plugin:    &pluginv1.PluginInfo{Name: "replay", Version: version, Description: "known variants from a learnt softmax"},
		CanUpdate: true, Model: "replay:" + s.suite,
	}, nil
}

// arms loads a task's variants on first use; s.mu is held.
func (s *server) armsOf(task string) (*arms, error) {
	if a, ok := s.tasks[task]; ok {
		return a, nil
	}
	if strings.ContainsAny(task, `/\`) || task == "" || task == "." || task == ".." {
		return nil, status.Errorf(codes.InvalidArgument, "replay: prompt id must start with a task name, got %q", task)
	}
	// CUDA variants (c2cuda) or KernelBench-format Python files (torch2cuda).
	paths, _ := filepath.Glob(filepath.Join(s.suite, task, "variants", "*.cu"))
	py, _ := filepath.Glob(filepath.Join(s.suite, task, "variants", "*.py"))
	paths = append(paths, py...)
	if len(paths) == 0 {
		return nil, status.Errorf(codes.InvalidArgument, "replay: task %q has no variants in %s (set $CUDAPERF_REPLAY_SUITE to the suite folder)", task, s.suite)
	}
	sort.Strings(paths)
	a := &arms{}
	for _, p := range paths {
		ext := filepath.Ext(p)
		name := strings.TrimSuffix(filepath.Base(p), ext)
		if s.measured != nil && !s.measured[task+"/"+name] {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, status.Errorf(codes.Internal, "replay: %v", err)
		}
		a.names = append(a.names, name)
		src := string(dataset.AsExample(b)) // as the host shows and teaches it
		if !strings.HasSuffix(src, "\n") {
			src += "\n"
		}
		// The same text as the host's grpo.Answer, so SFT examples of
		// known variants are recognised.
		lang := "cuda"
		if ext == ".py" {
			lang = "python"
		}
		a.texts = append(a.texts, "```"+lang+"\n"+src+"```")
	}
	// A task with variants but none measured yet (added to the suite
	// before its first GPU run) has only the "(no code)" arm: replaying an
	// unmeasured kernel would send the recorded benchmarker a source it
	// cannot answer.
	a.names = append(a.names, "(no code)")
	a.texts = append(a.texts, noCode)
	a.logits = make([]float64, len(a.texts))
	s.tasks[task] = a
	return a, nil
}

func taskOf(promptID string) string {
	t, _, _ := strings.Cut(promptID, ":")
	return t
}

func softmax(l []float64) []float64 {
	m := math.Inf(-1)
	for _, v := range l {
		m = max(m, v)
	}
	p := make([]float64, len(l))
	var z float64
	for i, v := range l {
		p[i] = math.Exp(v - m)
		z += p[i]
	}
	for i := range p {
		p[i] /= z
	}
	return p
}

func (s *server) Generate(_ context.Context, req *pluginv1.GenerateRequest) (*pluginv1.GenerateResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := &pluginv1.GenerateResponse{}
	for _, p := range req.GetPrompts() {
		a, err := s.armsOf(taskOf(p.GetId()))
		if err != nil {
			return nil, err
		}
		h := fnv.New64a()
		h.Write([]byte(p.GetId()))
		rng := rand.New(rand.NewPCG(uint64(req.GetSampling().GetSeed()), h.Sum64()))
		probs := softmax(a.logits)
		promptTokens := 0
		for _, m := range p.GetMessages() {
			promptTokens += len(strings.Fields(m.GetContent()))
		}
		for i := range req.GetGroupSize() {
			u, k := rng.Float64(), 0
			for ; k < len(probs)-1 && u >= probs[k]; k++ {
				u -= probs[k]
			}
			out.Completions = append(out.Completions, &pluginv1.Completion{PromptId: p.GetId(), Index: i, Text: a.texts[k],
				FinishReason: "stop", PromptTokens: int32(promptTokens), CompletionTokens: int32(len(strings.Fields(a.texts[k])))})
		}
	}
	return out, nil
}

func (s *server) Update(_ context.Context, req *pluginv1.UpdateRequest) (*pluginv1.UpdateResponse, error) {
	lr := 0.5
	if v, ok := req.GetHyperparameters()["learning_rate"]; ok {
		lr = v
	}
	sft := req.GetObjective() == pluginv1.UpdateObjective_UPDATE_OBJECTIVE_SFT
	s.mu.Lock()
	defer s.mu.Unlock()
	// The gradient of every rollout is taken at the logits before the
	// step, as a batch gradient step would; arms are found by their text.
	type grad struct {
		a *arms
		g []float64
		n int
	}
	grads := map[string]*grad{}
	var order []string
	for _, r := range req.GetRollouts() {
		task := taskOf(r.GetPrompt().GetId())
		a, err := s.armsOf(task)
		if err != nil {
			return nil, err
		}
		k := -1
		for i, t := range a.texts {
			if t == r.GetCompletion() {
				k = i
			}
		}
		if k < 0 {
			return nil, status.Errorf(codes.InvalidArgument, "replay: rollout for %s holds a completion that is none of the task's variants", task)
		}
		g := grads[task]
		if g == nil {
			g = &grad{a: a, g: make([]float64, len(a.logits))}
			grads[task] = g
			order = append(order, task)
		}
		g.n++
		// GRPO weighs the log-likelihood gradient by the advantage, SFT
		// by the example's weight (0 means 1).
		scale := r.GetAdvantage()
		if sft {
			scale = r.GetWeight()
			if scale == 0 {
				scale = 1
			}
		}
		p := softmax(a.logits)
		for i := range g.g {
			ind := 0.0
			if i == k {
				ind = 1
			}
			g.g[i] += scale * (ind - p[i])
		}
	}
	var norm float64
	for _, task := range order {
		g := grads[task]
		for i := range g.g {
			g.a.logits[i] += lr * g.g[i] / float64(g.n)
			norm += g.g[i] * g.g[i]
		}
	}
	return &pluginv1.UpdateResponse{Stats: map[string]float64{"grad_norm": math.Sqrt(norm), "tasks": float64(len(order))}}, nil
}

type saved struct {
	Suite string               `json:"suite"`
	Tasks map[string]savedTask `json:"tasks"`
}

type savedTask struct {
	Variants []string  `json:"variants"`
	Logits   []float64 `json:"logits"`
}

func (s *server) Save(_ context.Context, req *pluginv1.SaveRequest) (*pluginv1.SaveResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := saved{Suite: s.suite, Tasks: map[string]savedTask{}}
	for name, a := range s.tasks {
		st.Tasks[name] = savedTask{Variants: a.names, Logits: a.logits}
	}
	b, _ := json.MarshalIndent(st, "", " ")
	if err := os.MkdirAll(req.GetPath(), 0o755); err != nil {
		return nil, status.Errorf(codes.Internal, "replay: %v", err)
	}
	if err := os.WriteFile(filepath.Join(req.GetPath(), "replay.json"), b, 0o644); err != nil {
		return nil, status.Errorf(codes.Internal, "replay: %v", err)
	}
	return &pluginv1.SaveResponse{}, nil
}

func (s *server) Load(_ context.Context, req *pluginv1.LoadRequest) (*pluginv1.LoadResponse, error) {
	b, err := os.ReadFile(filepath.Join(req.GetPath(), "replay.json"))
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "replay: %v (Load takes a folder written by Save)", err)
	}
	var st saved
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "replay: %s: %v", req.GetPath(), err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tasks = map[string]*arms{}
	for name, t := range st.Tasks {
		a, err := s.armsOf(name)
		if err != nil {
			return nil, err
		}
		if fmt.Sprint(a.names) != fmt.Sprint(t.Variants) {
			return nil, status.Errorf(codes.FailedPrecondition, "replay: task %s: the saved variants %v differ from the suite's %v", name, t.Variants, a.names)
		}
		copy(a.logits, t.Logits)
	}
	return &pluginv1.LoadResponse{}, nil
}
