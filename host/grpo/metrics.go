package grpo

import (
	"math"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/rank"
	"github.com/cudaperf/cudaperf/host/reward"
)

// Metrics are one step's numbers, one line of metrics.jsonl.
type Metrics struct {
	Step int64  `json:"step"`
	Time string `json:"time"`
	Mode string `json:"mode"`
	// Reward is the total reward under the run's mode; Ver and Str its
	// parts (Str is the real ranker score, whatever the mode); StrUsed the
	// structural term that entered the reward.
	RewardMean  float64 `json:"reward_mean"`
	RewardStd   float64 `json:"reward_std"`
	VerMean     float64 `json:"ver_mean"`
	VerStd      float64 `json:"ver_std"`
	StrMean     float64 `json:"str_mean"`
	StrStd      float64 `json:"str_std"`
	StrUsedMean float64 `json:"str_used_mean"`
	StrUsedStd  float64 `json:"str_used_std"`
	// Candidates counts every completion of the step (all turns).
	Candidates int `json:"candidates"`
	NoCode     int `json:"no_code"`
	// Shared counts candidates identical to an earlier one of their batch,
	// whose evaluation they reused (not measured again).
	Shared int `json:"shared,omitempty"`
	// NotRecorded counts candidates a recorded benchmarker could not
	// judge (they get the compile-failure reward).
	NotRecorded int     `json:"not_recorded,omitempty"`
	CompileRate float64 `json:"compile_rate"`
	CorrectRate float64 `json:"correct_rate"`
	// GeomeanSpeedup is over correct candidates (primary configuration,
	// over the C reference); 0 when none was correct.
	GeomeanSpeedup float64 `json:"geomean_speedup"`
	// Per turn (index 0 is the first attempt): mean reward and correct
	// rate, so improvement through refinement is visible.
	TurnReward  []float64 `json:"turn_reward"`
	TurnCorrect []float64 `json:"turn_correct"`
	// StrSpeedupRho is the mean within-group Spearman ρ between the real
	// Rstr and the measured speedup, over groups (task, turn) with at
	// least 3 correct candidates; RhoGroups counts them.
	StrSpeedupRho float64 `json:"str_speedup_rho"`
	RhoGroups     int     `json:"rho_groups"`
	// Groups and ZeroVarianceGroups: groups whose returns were all equal
	// are skipped (not sent to Update).
	Groups             int   `json:"groups"`
	ZeroVarianceGroups int   `json:"zero_variance_groups"`
	Rollouts           int   `json:"rollouts"`
	PromptTokens       int64 `json:"prompt_tokens"`
	CompletionTokens   int64 `json:"completion_tokens"`
	// Stage holds seconds per stage: generate_s, evaluate_s, update_s,
	// checkpoint_s, step_s.
	Stage  map[string]float64 `json:"stage"`
	Update map[string]float64 `json:"update,omitempty"`
}

func (m *Metrics) fill(trajs [][]*trajectory, turns int) {
	var total, ver, str, used, logs []float64
	compiled, correct := 0, 0
	turnR := make([][]float64, turns)
	turnC := make([]int, turns)
	turnN := make([]int, turns)
	var rhoSum float64
	for _, group := range trajs {
		for turn := 0; turn < turns; turn++ {
			var xs, ys []float64
			for _, tr := range group {
				j, s := tr.judged[turn], tr.scores[turn]
				m.Candidates++
				total = append(total, s.Total)
				ver = append(ver, s.Ver)
				used = append(used, s.StrUsed)
				if !math.IsNaN(s.Str) {
					str = append(str, s.Str)
				}
				turnR[turn] = append(turnR[turn], s.Total)
				turnN[turn]++
				if j.Shared {
					m.Shared++
				}
				if !j.HasCode {
					m.NoCode++
				}
				if j.Eval != nil && j.Eval.NotRecorded {
					m.NotRecorded++
				}
				if j.HasCode && j.Eval != nil && j.Eval.Compiled {
					compiled++
				}
				if j.Correct() {
					correct++
					turnC[turn]++
					if sp := j.Speedup(); sp > 0 {
						logs = append(logs, math.Log(sp))
						if !math.IsNaN(s.Str) {
							xs, ys = append(xs, s.Str), append(ys, sp)
						}
					}
				}
			}
			// ρ needs spread on both sides (ok is false otherwise).
			if len(xs) >= 3 {
				if rho, ok := rank.Spearman(xs, ys); ok {
					rhoSum += rho
					m.RhoGroups++
				}
			}
		}
	}
	m.RewardMean, m.RewardStd = MeanStd(total)
	m.VerMean, m.VerStd = MeanStd(ver)
	m.StrMean, m.StrStd = MeanStd(str)
	m.StrUsedMean, m.StrUsedStd = MeanStd(used)
	if m.Candidates > 0 {
		m.CompileRate = float64(compiled) / float64(m.Candidates)
		m.CorrectRate = float64(correct) / float64(m.Candidates)
	}
	if len(logs) > 0 {
		mean, _ := MeanStd(logs)
		m.GeomeanSpeedup = math.Exp(mean)
	}
	for turn := range turns {
		mean, _ := MeanStd(turnR[turn])
		m.TurnReward = append(m.TurnReward, mean)
		c := 0.0
		if turnN[turn] > 0 {
			c = float64(turnC[turn]) / float64(turnN[turn])
		}
		m.TurnCorrect = append(m.TurnCorrect, c)
	}
	if m.RhoGroups > 0 {
		m.StrSpeedupRho = rhoSum / float64(m.RhoGroups)
	}
}

// RolloutRecord is one line of rollouts/step-NNNNNN.jsonl.gz: everything an
// external trainer needs (the prompt, the completion, its reward, return
// and advantage) and what the judge saw.
type RolloutRecord struct {
	Step       int64              `json:"step"`
	Turn       int                `json:"turn"`
	Member     int                `json:"member"`
	Group      string             `json:"group"`
	Task       string             `json:"task"`
	Prompt     pluginhost.Prompt  `json:"prompt"`
	Completion string             `json:"completion"`
	HasCode    bool               `json:"has_code"`
	NoCode     string             `json:"no_code,omitempty"`
	Compiled   bool               `json:"compiled"`
	Correct    bool               `json:"correct"`
	Failed     int                `json:"failed"`
	Total      int                `json:"total"`
	Speedup    float64            `json:"speedup"`
	Reward     reward.Scored      `json:"reward"`
	Str        *float64           `json:"str,omitempty"`
	Return     float64            `json:"return"`
	Advantage  float64            `json:"advantage"`
	Used       bool               `json:"used"`
	Features   map[string]float64 `json:"features,omitempty"`
	Tokens     int                `json:"completion_tokens"`
}

func newRecord(step int64, turn, member int, group string, tr *trajectory, ret, adv float64, used bool) RolloutRecord {
	j, s, c := tr.judged[turn], tr.scores[turn], tr.comps[turn]
	r := RolloutRecord{Step: step, Turn: turn, Member: member, Group: group, Task: j.Task.Name,
		Prompt: tr.prompts[turn], Completion: c.Text, HasCode: j.HasCode, NoCode: j.NoCode,
		Compiled: j.Eval != nil && j.Eval.Compiled, Correct: j.Correct(), Failed: j.Outcome.Failed,
		Total: j.Outcome.Total, Speedup: j.Outcome.Speedup, Reward: s, Return: ret, Advantage: adv,
		Used: used, Features: j.Structure.Features, Tokens: c.CompletionTokens}
	if !math.IsNaN(s.Str) {
		v := s.Str
		r.Str = &v
	}
	return r
}
