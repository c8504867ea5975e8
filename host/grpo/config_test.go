package grpo

import (
	"strings"
	"testing"
	"time"
)

// TestCandidateTimeoutConfig: benchmarker.candidate_timeout is parsed and
// validated, and left out of Hash, so that a run interrupted by a stuck
// candidate can resume with a shorter limit.
func TestCandidateTimeoutConfig(t *testing.T) {
	base, err := ParseConfig("run.yaml", []byte("name: r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := base.Benchmarker.CandidateLimit(); d != 0 {
		t.Errorf("no candidate_timeout: limit %v; want 0 (Judge's default)", d)
	}
	c, err := ParseConfig("run.yaml", []byte("name: r\nbenchmarker: {candidate_timeout: 90s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := c.Benchmarker.CandidateLimit(); d != 90*time.Second {
		t.Errorf("candidate_timeout 90s: limit %v", d)
	}
	if c.Hash() != base.Hash() {
		t.Errorf("candidate_timeout changed the run's hash (%s, %s): a resume would be refused", c.Hash(), base.Hash())
	}
	for _, bad := range []string{"soon", "-1m", "0s"} {
		_, err := ParseConfig("run.yaml", []byte("name: r\nbenchmarker: {candidate_timeout: "+bad+"}\n"))
		if err == nil || !strings.Contains(err.Error(), "candidate_timeout") {
			t.Errorf("candidate_timeout %q: error %v; want one naming candidate_timeout", bad, err)
		}
	}
}

// TestConfigNumbers: a number the file gives is kept and checked, 0
// included (it used to be replaced by the default without a word), and a
// block that sets one key of a section keeps the section's other defaults.
func TestConfigNumbers(t *testing.T) {
	c, err := ParseConfig("run.yaml", []byte("name: r\nbenchmarker: {plugin: recorded}\nsampling: {max_tokens: 256}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Steps != 30 || c.Group != 16 || c.Turns != 5 || c.Benchmarker.Concurrency != 64 || c.Sampling.Temperature != 1 || c.Sampling.TopP != 1 || c.Sampling.MaxTokens != 256 {
		t.Errorf("defaults: steps %d group %d turns %d concurrency %d temperature %v top_p %v max_tokens %d",
			c.Steps, c.Group, c.Turns, c.Benchmarker.Concurrency, c.Sampling.Temperature, c.Sampling.TopP, c.Sampling.MaxTokens)
	}
	for _, bad := range []struct{ yaml, want string }{
		{"group: 0", "group = 0"},
		{"turns: 0", "turns = 0"},
		{"steps: 0", "steps = 0"},
		{"benchmarker: {concurrency: 0}", "benchmarker.concurrency = 0"},
		{"sampling: {temperature: 0}", "sampling.temperature = 0"},
		{"sampling: {top_p: 1.5}", "sampling.top_p = 1.5"},
		{"side: test", "side test: the test tasks are never trained on"},
		// NaN compared false with both bounds and failed every step's
		// record instead ("unsupported value: NaN", then --resume the same).
		{"discount: .nan", "discount = NaN: must be in [0, 1]"},
		{"few_shot: -1", "few_shot: must be ≥ 0"},
	} {
		_, err := ParseConfig("run.yaml", []byte("name: r\n"+bad.yaml+"\n"))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: error %v; want one saying %q", bad.yaml, err, bad.want)
		}
	}
}
