package pluginhost

import (
	"context"
	"fmt"
	"math"
	"slices"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// The policy contract in plain Go types. The RL loop works with these; the
// conversion to and from proto happens here, once.

// Message is one chat turn ("system", "user" or "assistant").
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Prompt is a conversation to complete; ID is echoed in each Completion.
type Prompt struct {
	ID       string    `json:"id"`
	Messages []Message `json:"messages"`
}

// Sampling are the generation settings of one Generate call.
type Sampling struct {
	Temperature float64  `json:"temperature" yaml:"temperature"`
	TopP        float64  `json:"top_p" yaml:"top_p"`
	MaxTokens   int      `json:"max_tokens" yaml:"max_tokens"`
	Seed        int64    `json:"seed,omitempty" yaml:"-"`
	Stop        []string `json:"stop,omitempty" yaml:"stop"`
	Logprobs    bool     `json:"logprobs,omitempty" yaml:"-"`
}

// TokenLogprob is one sampled token and its log-probability.
type TokenLogprob struct {
	Token   string  `json:"token"`
	TokenID int     `json:"token_id"`
	Logprob float64 `json:"logprob"`
}

// Completion is one sampled answer to a prompt.
type Completion struct {
	PromptID         string         `json:"prompt_id"`
	Index            int            `json:"index"`
	Text             string         `json:"text"`
	Logprobs         []TokenLogprob `json:"logprobs,omitempty"`
	FinishReason     string         `json:"finish_reason,omitempty"`
	PromptTokens     int            `json:"prompt_tokens,omitempty"`
	CompletionTokens int            `json:"completion_tokens,omitempty"`
}

// Rollout is a scored completion sent back to the policy's Update.
type Rollout struct {
	Prompt     Prompt         `json:"prompt"`
	Completion string         `json:"completion"`
	Reward     float64        `json:"reward"`
	Advantage  float64        `json:"advantage"`
	Logprobs   []TokenLogprob `json:"logprobs,omitempty"`
	GroupID    string         `json:"group_id"`
	// Weight is an SFT example's weight (0 means 1); GRPO ignores it.
	Weight float64 `json:"weight,omitempty"`
}

// PolicyInfo is a policy plugin's Describe answer.
type PolicyInfo struct {
	Name, Version, Model string
	CanUpdate            bool
	CanLogprobs          bool
	MaxContextTokens     int
}

// PolicyClient calls a policy plugin with plain types.
type PolicyClient struct{ P *Plugin }

// Policy returns p's plain-typed policy client.
func (p *Plugin) Policy() PolicyClient { return PolicyClient{p} }

// Describe returns the plugin's identity and capabilities.
func (c PolicyClient) Describe(ctx context.Context) (PolicyInfo, error) {
	d, err := c.P.DescribePolicy(ctx)
	if err != nil {
		return PolicyInfo{}, err
	}
	return PolicyInfo{Name: d.GetPlugin().GetName(), Version: d.GetPlugin().GetVersion(), Model: d.GetModel(),
		CanUpdate: d.GetCanUpdate(), CanLogprobs: d.GetCanLogprobs(), MaxContextTokens: int(d.GetMaxContextTokens())}, nil
}

// Generate samples group completions per prompt, returned grouped:
// out[i] holds prompt i's completions ordered by index.
func (c PolicyClient) Generate(ctx context.Context, prompts []Prompt, group int, s Sampling) ([][]Completion, error) {
	req := &pluginv1.GenerateRequest{GroupSize: int32(group), Sampling: &pluginv1.SamplingParams{
		Temperature: s.Temperature, TopP: s.TopP, MaxTokens: int32(s.MaxTokens), Seed: s.Seed, Stop: s.Stop, Logprobs: s.Logprobs}}
	pos := make(map[string]int, len(prompts))
	for i, p := range prompts {
		if _, dup := pos[p.ID]; dup {
			return nil, fmt.Errorf("policy %s: two prompts share the id %q", c.P.Name(), p.ID)
		}
		pos[p.ID] = i
		req.Prompts = append(req.Prompts, promptProto(p))
	}
	resp, err := c.P.Generate(ctx, req)
	if err != nil {
		return nil, err
	}
	out := make([][]Completion, len(prompts))
	for _, pc := range resp.GetCompletions() {
		i, ok := pos[pc.GetPromptId()]
		if !ok {
			return nil, c.P.newError("Generate", fmt.Errorf("completion for unknown prompt id %q", pc.GetPromptId()),
				"this is a bug in the plugin: completions must echo the prompt ids")
		}
		comp := Completion{PromptID: pc.GetPromptId(), Index: int(pc.GetIndex()), Text: pc.GetText(),
			FinishReason: pc.GetFinishReason(), PromptTokens: int(pc.GetPromptTokens()), CompletionTokens: int(pc.GetCompletionTokens())}
		for _, lp := range pc.GetLogprobs() {
			comp.Logprobs = append(comp.Logprobs, TokenLogprob{Token: lp.GetToken(), TokenID: int(lp.GetTokenId()), Logprob: lp.GetLogprob()})
		}
		out[i] = append(out[i], comp)
	}
	for i, g := range out {
		if len(g) != group {
			return nil, c.P.newError("Generate", fmt.Errorf("prompt %q got %d completions, want %d", prompts[i].ID, len(g), group),
				"this is a bug in the plugin: Generate must return group_size completions per prompt")
		}
		slices.SortFunc(g, func(a, b Completion) int { return a.Index - b.Index })
	}
	return out, nil
}

func promptProto(p Prompt) *pluginv1.Prompt {
	out := &pluginv1.Prompt{Id: p.ID}
	for _, m := range p.Messages {
		out.Messages = append(out.Messages, &pluginv1.Message{Role: m.Role, Content: m.Content})
	}
	return out
}

// Update sends one GRPO step's rollouts (with advantages) and returns the
// plugin's statistics.
func (c PolicyClient) Update(ctx context.Context, step int64, rollouts []Rollout, hyper map[string]float64) (map[string]float64, error) {
	return c.update(ctx, pluginv1.UpdateObjective_UPDATE_OBJECTIVE_GRPO, step, rollouts, hyper)
}

// SFT sends one supervised step: raise the likelihood of each example's
// completion given its prompt, weighted by Rollout.Weight.
func (c PolicyClient) SFT(ctx context.Context, step int64, examples []Rollout, hyper map[string]float64) (map[string]float64, error) {
	return c.update(ctx, pluginv1.UpdateObjective_UPDATE_OBJECTIVE_SFT, step, examples, hyper)
}

func (c PolicyClient) update(ctx context.Context, obj pluginv1.UpdateObjective, step int64, rollouts []Rollout, hyper map[string]float64) (map[string]float64, error) {
	req := &pluginv1.UpdateRequest{Step: step, Hyperparameters: hyper, Objective: obj}
	for _, r := range rollouts {
		pr := &pluginv1.Rollout{Prompt: promptProto(r.Prompt), Completion: r.Completion, Reward: r.Reward,
			Advantage: r.Advantage, GroupId: r.GroupID, Weight: r.Weight}
		for _, lp := range r.Logprobs {
			pr.Logprobs = append(pr.Logprobs, &pluginv1.TokenLogprob{Token: lp.Token, TokenId: int32(lp.TokenID), Logprob: lp.Logprob})
		}
		req.Rollouts = append(req.Rollouts, pr)
	}
	resp, err := c.P.Update(ctx, req)
	if err != nil {
		return nil, err
	}
	return finiteStats(resp.GetStats()), nil
}

// NonFinitePrefix marks a statistic the plugin reported as NaN or ±Inf:
// stats["nonfinite.loss"] = 1 stands for a NaN loss. JSON (metrics.jsonl,
// sft.jsonl) has no NaN, and a non-finite value is news, not a number to
// average.
const NonFinitePrefix = "nonfinite."

func finiteStats(in map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(in))
	for k, v := range in {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			out[NonFinitePrefix+k] = 1
			continue
		}
		out[k] = v
	}
	return out
}

// Save asks the policy to write its state under path.
func (c PolicyClient) Save(ctx context.Context, path string) error { return c.P.Save(ctx, path) }

// Load asks the policy to restore state written by Save.
func (c PolicyClient) Load(ctx context.Context, path string, weightsOnly bool) error {
	return c.P.Load(ctx, path, weightsOnly)
}
