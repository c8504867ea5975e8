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
type slots struct {
	mu     sync.Mutex
	free   int
	urgent []chan struct{}
	normal []chan struct{}
}

func newSlots(n int) *slots { return &slots{free: n} }

// acquire waits for a free slot, or for ctx.
func (s *slots) acquire(ctx context.Context, urgent bool) error {
	s.mu.Lock()
	if s.free > 0 && len(s.urgent)+len(s.normal) == 0 {
		s.free--
		s.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	q := &s.normal
	if urgent {
		q = &s.urgent
	}
	*q = append(*q, ch)
	s.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		defer s.mu.Unlock()
		if i := slices.Index(*q, ch); i >= 0 {
			*q = slices.Delete(*q, i, i+1)
			return ctx.Err()
		}
		// Granted as the context ended: hand the slot on.
		s.releaseLocked()
		return ctx.Err()
	}
}

// release frees a slot: to the first urgent waiter, else the first
// ordinary one, else the pool.
func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked()
}

func (s *slots) releaseLocked() {
	for _, q := range []*[]chan struct{}{&s.urgent, &s.normal} {
		if len(*q) > 0 {
			close((*q)[0])
			*q = (*q)[1:]
			return
		}
	}
	s.free++
}

type urgentKey struct{}

// Urgent returns a context whose compiles and links go before every
// ordinary one waiting for a job slot: for the builds that a GPU run
// waits on (a task's driver and reference program). Links are always
// urgent.
func Urgent(ctx context.Context) context.Context { return context.WithValue(ctx, urgentKey{}, true) }

func isUrgent(ctx context.Context) bool { u, _ := ctx.Value(urgentKey{}).(bool); return u }
