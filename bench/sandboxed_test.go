package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/bench/runner"
	"github.com/cudaperf/cudaperf/bench/sandbox"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

// stamped builds records lines arriving at the given milliseconds.
func stamped(lines ...any) []sandbox.Record {
	var out []sandbox.Record
	for i := 0; i < len(lines); i += 2 {
		out = append(out, sandbox.Record{Line: []byte(lines[i].(string) + "\n"), At: time.Duration(lines[i+1].(int)) * time.Millisecond})
	}
	return out
}

func TestCheckRecords(t *testing.T) {
	const (
		hdr = `{"config":-1,"device":"X","sms":1}`
		a0  = `{"config":0,"seed":"a","ms":[1,1],"host_ms":[40,40]}`
		b0  = `{"config":0,"seed":"b","ms":[1],"host_ms":[1]}`
		a1  = `{"config":1,"seed":"a","ms":[1],"host_ms":[1]}`
		e1  = `{"config":1,"seed":"a","error":"kernel: boom"}`
	)
	cases := []struct {
		name  string
		lines []sandbox.Record
		want  string // "" for no problem
	}{
		{"honest", stamped(hdr, 100, a0, 200, b0, 210, a1, 220), ""},
		{"honest stop at an error", stamped(hdr, 100, a0, 200, b0, 210, e1, 220), ""},
		{"repeated", stamped(hdr, 100, a0, 200, a0, 300, b0, 310), "out of order or repeated"},
		{"forged ahead", stamped(hdr, 100, a1, 150, a0, 250, b0, 260), "out of order or repeated"},
		{"after the error", stamped(hdr, 100, e1, 150, a0, 250), "after the driver's error"},
		{"garbage", stamped(hdr, 100, "pwned", 110, a0, 250), "not a record"},
		// 80 ms of timed calls claimed 1 ms after the header: written in advance.
		{"faster than the clock", stamped(hdr, 100, a0, 101, b0, 102), "supervisor's clock"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(checkRecords(c.lines), "; ")
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("checkRecords = %q, want %q", got, c.want)
			}
		})
	}
	torn := stamped(hdr, 100, a0, 200)
	torn = append(torn, sandbox.Record{Line: []byte(`{"config":0,"se`), At: 300 * time.Millisecond})
	if p := checkRecords(torn); len(p) != 0 {
		t.Errorf("a last line torn by a kill is not forgery: %v", p)
	}
}

func TestJudgeSandbox(t *testing.T) {
	rep := &sandbox.Report{Sandboxed: true, Violations: []sandbox.Violation{{Kind: "fork", Detail: "clone: no"}}}
	v := judgeSandbox(rep, &runner.Outcome{}, nil)
	if v == nil || v.Accepted || !v.Has(verdict.SandboxViolation) {
		t.Fatalf("a violation in a run that could not be judged: %+v, want rejected for %s", v, verdict.SandboxViolation)
	}
	ok := &verdict.Verdict{Accepted: true}
	v = judgeSandbox(&sandbox.Report{Mechanisms: []sandbox.Mechanism{{Name: sandbox.Landlock, Detail: "skipped"}}}, &runner.Outcome{}, ok)
	if !v.Accepted || !v.Has(verdict.NotSandboxed) || !strings.Contains(v.Warnings[0].Detail, "landlock") {
		t.Errorf("an unsandboxed clean run: %+v, want accepted with a %s warning naming landlock", v, verdict.NotSandboxed)
	}
	v = judgeSandbox(&sandbox.Report{Sandboxed: true}, &runner.Outcome{Signal: "bad system call"}, &verdict.Verdict{})
	if v.Accepted || !v.Has(verdict.SandboxViolation) {
		t.Errorf("killed by the filter: %+v, want %s", v, verdict.SandboxViolation)
	}
}
