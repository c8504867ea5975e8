package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cudaperf/cudaperf/bench/runner"
	"github.com/cudaperf/cudaperf/bench/sandbox"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

// sandboxPolicy confines one candidate run: it writes only outDir, reads
// the session's inputs (the reference outputs are gone by then), and its
// records come through the sandbox's pipe into records.
func (s *Session) sandboxPolicy(outDir, records string) sandbox.Policy {
	return sandbox.Policy{
		OutDir:  outDir,
		Inputs:  []string{s.dir + "/data"},
		Records: records,
		// The wall-time limit stops a hang; CPU time covers the host
		// threads a candidate may start.
		CPUTime: 2*s.ProcessLimit() + 10*time.Second,
	}
}

// modifiedInputs names the inputs the driver found changed after the calls
// of seed A and seed B.
func (s *Session) modifiedInputs(a, b record) []string {
	var out []string
	for k, rec := range []record{a, b} {
		for _, p := range rec.InputsModified {
			if p >= 0 && p < len(s.Task.Params) {
				out = append(out, fmt.Sprintf("%s (seed %c)", s.Task.Params[p].Name, "AB"[k]))
			}
		}
	}
	return out
}

// Record-clock check: the timed calls a seed-A record claims must fit in
// the time the supervisor saw pass since the previous record, with room
// for a late wake-up of the reader.
const (
	recordSlack       = 50 * time.Millisecond
	recordSlackFactor = 1.25
)

// checkRecords returns what is wrong with the stamped records: the driver
// writes a header (config -1), then seed A and seed B of each
// configuration in order, each once, and nothing after an error. Anything
// else was written by someone else: the candidate's code. A record whose
// timed calls add up to more than the supervisor's clock allows was
// prepared in advance (replayed or made up).
func checkRecords(lines []sandbox.Record) []string {
	var problems []string
	next := [2]int{-1, 0} // config, seed index
	var prev time.Duration
	stopped := false
	for i, l := range lines {
		var rec record
		if err := json.Unmarshal(l.Line, &rec); err != nil {
			if i == len(lines)-1 && !strings.HasSuffix(string(l.Line), "\n") {
				break // torn by a kill
			}
			problems = append(problems, fmt.Sprintf("line %d is not a record: %.80q", i+1, l.Line))
			continue
		}
		k := 0
		if rec.Seed == "b" {
			k = 1
		}
		key := [2]int{rec.Config, k}
		if rec.Config < 0 {
			key = [2]int{-1, 0}
		}
		switch {
		case stopped:
			problems = append(problems, fmt.Sprintf("line %d: a record after the driver's error record", i+1))
		case key != next:
			problems = append(problems, fmt.Sprintf("line %d: config %d seed %c out of order or repeated", i+1, rec.Config, "ab"[k]))
		}
		if rec.Error != "" {
			stopped = true
		}
		if key == next {
			if key[0] < 0 || key[1] == 1 {
				next = [2]int{key[0] + 1, 0}
			} else {
				next = [2]int{key[0], 1}
			}
		}
		claimed := 0.0
		for _, ms := range rec.HostMs {
			claimed += ms
		}
		seen := l.At - prev
		if c := time.Duration(claimed * float64(time.Millisecond)); c > time.Duration(float64(seen)*recordSlackFactor)+recordSlack {
			problems = append(problems, fmt.Sprintf("line %d claims %.1f ms of timed calls, but %.1f ms passed on the supervisor's clock",
				i+1, claimed, float64(seen)/float64(time.Millisecond)))
		}
		prev = l.At
	}
	return problems
}

// judgeSandbox adds the sandbox's findings to v (which is nil when the run
// could not be judged): violations and forged records reject the
// candidate; a run without every mechanism is flagged.
func judgeSandbox(rep *sandbox.Report, o *runner.Outcome, v *verdict.Verdict) *verdict.Verdict {
	if rep == nil {
		return v
	}
	var found []string
	for _, x := range rep.Violations {
		found = append(found, x.String())
	}
	for _, p := range checkRecords(rep.Records) {
		found = append(found, "records: "+p)
	}
	if o != nil && o.Signal == "bad system call" {
		found = append(found, "killed by the seccomp filter (a 32-bit system call)")
	}
	if len(found) > 0 {
		if v == nil {
			v = &verdict.Verdict{}
		}
		v.Accepted = false
		v.Reasons = append([]verdict.Reason{{ID: verdict.SandboxViolation, Detail: strings.Join(found, "; ")}}, v.Reasons...)
	}
	if v != nil && !rep.Sandboxed {
		v.Warnings = append(v.Warnings, verdict.Reason{ID: verdict.NotSandboxed,
			Detail: "not sandboxed: " + strings.Join(rep.Missing(), ", ")})
	}
	return v
}
