package bench

import (
	"fmt"
	"time"
)

// Profile is an evaluation profile: how many calls are timed, which
// configurations run and how long a candidate may take. Both profiles run
// the same checks (the same driver, poisoned outputs, two seeds, the same
// verdict); the RL profile measures less so that a policy's candidates are
// scored quickly.
type Profile string

// The profiles.
const (
	// ProfileReport is the default: every configuration, 3 warm-up and 20
	// timed calls each, 30 s per configuration.
	ProfileReport Profile = "report"
	// ProfileRL runs the task's RL configurations (task.Task.RLConfigs: the
	// primary and an odd size), 1 warm-up and 5 timed calls each, under
	// the RL time limit (see Session.ProcessLimit).
	ProfileRL Profile = "rl"
)

// The RL profile's time limit per configuration: max(RLMinTimeLimit,
// RLTimeFactor x the C reference's time for one call) for all its calls; every
// candidate process also gets StartupAllowance for its start and the CUDA
// context, but not while its timed calls hold the GPU alone (stageWatch):
// a hang there stalls every candidate on the GPU. It was raised from 2 s when, on the H200 with 8 candidates per
// GPU, contexts took 1.6-2.8 s at the median and 19 of 97 honest
// candidates timed out; that slowness turned out to be the evaluator's own
// per-candidate NVML sampling (since one reader per device, contexts take
// 0.085 s at the median: bench/h200/README.md). 5 s is kept as slack for
// machines under load; it is what a hang costs per configuration.
const (
	RLMinTimeLimit   = time.Second
	RLTimeFactor     = 20
	StartupAllowance = 5 * time.Second
)

// RLMinHoldLimit is the floor of the RL profile's limit on a
// configuration's timed calls while they hold the GPU alone:
// max(RLMinHoldLimit, RLTimeFactor x the C reference's time for one call).
// The rest of the configuration keeps RLMinTimeLimit's floor. While a hang
// holds the GPU, every other candidate on it waits: with the 1 s floor the
// batch's one hang cost 6.3-10.3 s of the other processes' waits a run
// (lease 16, 8 slots; bench/rl-timeline.py's "longest hold"), about 1 s
// of a 15.5 s batch; with this floor 0.5-3.5 s (lease 17). The batch's honest
// candidates held it at most 41 ms a configuration where the floor is
// the limit (0.5-6.8 ms a call, 6 calls; bench/RESULTS.md).
const RLMinHoldLimit = 250 * time.Millisecond

// EnvMaxConnections is CUDA's number of hardware work queues per context
// (default 8). The RL profile sets it to 1 for candidates unless the
// environment sets it: the driver then makes contexts about twice as fast
// when many start at once (bench/ctxinit, 8 processes at once on the H200:
// 0.69 s of wall time against 1.57 s), and the self-test, side-stream
// cheat included, judged the same. A candidate's
// streams may then serialize where they would have overlapped; the report
// profile leaves CUDA's default.
const EnvMaxConnections = "CUDA_DEVICE_MAX_CONNECTIONS"

type profileDefaults struct {
	warmup, repeats int
	timeLimit       time.Duration // per configuration; 0: derived from the reference
}

var profiles = map[Profile]profileDefaults{
	ProfileReport: {warmup: 3, repeats: 20, timeLimit: 30 * time.Second},
	ProfileRL:     {warmup: 1, repeats: 5},
}

// Profiles lists the profile names, the default first.
func Profiles() []string { return []string{string(ProfileReport), string(ProfileRL)} }

// ParseProfile checks a profile name; "" is the report profile.
func ParseProfile(s string) (Profile, error) {
	if s == "" {
		return ProfileReport, nil
	}
	if _, ok := profiles[Profile(s)]; !ok {
		return "", fmt.Errorf("bench: profile %q is unknown: use %q (full rigour, the default) or %q (fewer calls, RL configurations)", s, ProfileReport, ProfileRL)
	}
	return Profile(s), nil
}

// Staging is how a candidate's driver stages the arrays on the host.
type Staging string

const (
	// StagingArena reads every input into one page-locked host arena per
	// process and writes every output out of it.
	StagingArena Staging = "arena"
	// StagingMapped maps each input file shared and registers it
	// read-only (the page cache's pages, shared by the task's candidates:
	// nothing read or zeroed) and maps each output file for the GPU to
	// copy into (nothing written); an array that cannot be mapped goes
	// through the arena. The files, and so the judging, are the same.
	StagingMapped Staging = "mapped"
)

// EnvStaging overrides DefaultStaging for every profile ("arena" or
// "mapped").
const EnvStaging = "CUDAPERF_STAGING"

// DefaultStaging is profile p's staging. The RL profile maps: on an H200
// machine the 128-candidate batch went from 330.0 to 396.7 candidates/min
// (medians of 3 cold runs, bench/RESULTS.md, 2026-12-05), a candidate
// process from 1.42 to 0.99 s at the median, and from 260.3 to 310.5 on
// a slower one. The report profile keeps the
// arena it was measured with (mapping changes the host staging, not the
// timed calls, but its rigour was established on the arena).
func DefaultStaging(p Profile) Staging {
	if p == ProfileRL {
		return StagingMapped
	}
	return StagingArena
}

// ParseStaging reads a staging name; "" is the profile's default.
func ParseStaging(s string) (Staging, error) {
	switch Staging(s) {
	case "", StagingArena, StagingMapped:
		return Staging(s), nil
	}
	return "", fmt.Errorf("bench: staging %q is unknown: use %q (a page-locked host arena) or %q (inputs and outputs as registered file mappings)", s, StagingArena, StagingMapped)
}
