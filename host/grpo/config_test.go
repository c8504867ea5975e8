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
