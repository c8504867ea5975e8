package ablation

import "time"

// clock is an ablation call's time budget. A lent machine gives a call a
// hard limit, and a step cut off by it is lost (the run resumes from the
// step before), so instead of stopping only once the budget is spent, the
// clock lets a step or an evaluation start only when the longest one of
// its kind seen in this call still fits. The first of each kind in a new
// policy process is its own kind: it pays the process's start and the
// decoding's compiles (on the H200, 64-108 s against a median 33-38 s for
// a step; bench/h200/2026-12-03-lease6). A first with no measured peer is
// guessed at twice the longest later one, a later one at half the longest
// first; with nothing measured at all, the work starts (a call begins with
// its whole budget).
type clock struct {
	now     func() time.Time
	start   time.Time
	budget  time.Duration // 0: no limit
	longest map[clockKind]time.Duration
}

type clockKind struct {
	what  string // "step" or "eval"
	first bool   // the first of its kind in its policy process
}

func newClock(budget time.Duration, now func() time.Time) *clock {
	if now == nil {
		now = time.Now
	}
	return &clock{now: now, start: now(), budget: budget, longest: map[clockKind]time.Duration{}}
}

// spent reports whether the budget is used up.
func (k *clock) spent() bool { return k.budget > 0 && k.now().Sub(k.start) > k.budget }

// need is the time a piece of work of this kind is expected to take.
func (k *clock) need(what string, first bool) time.Duration {
	if d, ok := k.longest[clockKind{what, first}]; ok {
		return d
	}
	if first {
		return 2 * k.longest[clockKind{what, false}]
	}
	return k.longest[clockKind{what, true}] / 2
}

// fits reports whether work of this kind may start.
func (k *clock) fits(what string, first bool) bool {
	if k.budget <= 0 {
		return true
	}
	return k.now().Sub(k.start)+k.need(what, first) <= k.budget
}

// took records how long work of this kind took.
func (k *clock) took(what string, first bool, d time.Duration) {
	key := clockKind{what, first}
	k.longest[key] = max(k.longest[key], d)
}
