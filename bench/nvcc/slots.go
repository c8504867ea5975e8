package nvcc

import (
	"context"
	"slices"
	"sync"
)

// slots bounds the jobs that run at once. A job that waits is served
// before every ordinary job that waits if it is urgent, else in arrival
// order: a batch sends all its candidates at once, and the short jobs that
// gate a GPU run (a candidate's link, a task's driver and reference
// builds) waited behind a hundred candidate compiles (on the H200 machine
// no candidate ran before 6.9 s of a 29 s batch, because the links and the
// reference programs' builds were queued last).
//
// Urgent jobs also have a reserve of their own, as many slots again: put
// first in the queue, they still waited for a running compile to end
// (about a second under load), and at a cold batch's start the 16
// candidate compiles that took the slots first held every task's driver
// and reference build back until about 1.1-1.3 s (lease 14's records,
// bench/RESULTS.md). The reserve is bounded so that a batch over many
// tasks (a driver and two reference compiles each) cannot start hundreds
// of compilers at once; ordinary compiles run at a lower priority
// (Toolchain.Nice) where a GPU waits, so the reserve's jobs get the CPUs.
type slots struct {
	mu         sync.Mutex
	free       int // ordinary slots, for any job
	urgentFree int // the reserve, for urgent jobs only
	urgent     []chan bool
	normal     []chan bool
}

func newSlots(n int) *slots { return &slots{free: n, urgentFree: n} }

// acquire waits for a free slot, or for ctx, and returns the function
// that frees it. An urgent job takes an ordinary slot if one is free, else
// one of the reserve, else waits before every ordinary job.
func (s *slots) acquire(ctx context.Context, urgent bool) (release func(), err error) {
	s.mu.Lock()
	if s.free > 0 && len(s.urgent)+len(s.normal) == 0 {
		s.free--
		s.mu.Unlock()
		return s.releaser(false), nil
	}
	if urgent && s.urgentFree > 0 {
		s.urgentFree--
		s.mu.Unlock()
		return s.releaser(true), nil
	}
	// Buffered: the slot is handed over without waiting for the waiter,
	// and says whether it is one of the reserve.
	ch := make(chan bool, 1)
	q := &s.normal
	if urgent {
		q = &s.urgent
	}
	*q = append(*q, ch)
	s.mu.Unlock()
	select {
	case reserve := <-ch:
		return s.releaser(reserve), nil
	case <-ctx.Done():
		s.mu.Lock()
		defer s.mu.Unlock()
		if i := slices.Index(*q, ch); i >= 0 {
			*q = slices.Delete(*q, i, i+1)
			return nil, ctx.Err()
		}
		// Granted as the context ended: hand the slot on.
		s.releaseLocked(<-ch)
		return nil, ctx.Err()
	}
}

// releaser is the function that frees a slot once.
func (s *slots) releaser(reserve bool) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.releaseLocked(reserve)
		})
	}
}

// releaseLocked frees a slot: one of the reserve to the first urgent
// waiter, else the reserve; an ordinary one to the first urgent waiter,
// else the first ordinary one, else the pool.
func (s *slots) releaseLocked(reserve bool) {
	if reserve {
		if len(s.urgent) > 0 {
			s.urgent[0] <- true
			s.urgent = s.urgent[1:]
			return
		}
		s.urgentFree++
		return
	}
	for _, q := range []*[]chan bool{&s.urgent, &s.normal} {
		if len(*q) > 0 {
			(*q)[0] <- false
			*q = (*q)[1:]
			return
		}
	}
	s.free++
}

type urgentKey struct{}

// Urgent returns a context whose compiles and links go before every
// ordinary one waiting for a job slot, and may use the urgent jobs'
// reserve of slots: for the builds that a GPU run waits on (a task's
// driver and reference program). Links are always urgent.
func Urgent(ctx context.Context) context.Context { return context.WithValue(ctx, urgentKey{}, true) }

func isUrgent(ctx context.Context) bool { u, _ := ctx.Value(urgentKey{}).(bool); return u }
