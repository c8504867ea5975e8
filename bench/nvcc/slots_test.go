package nvcc

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestSlotsUrgentFirst: with every slot taken, an urgent job that comes
// last is served before the ordinary ones that came before it, and those
// in arrival order.
func TestSlotsUrgentFirst(t *testing.T) {
	s := newSlots(1)
	ctx := context.Background()
	if err := s.acquire(ctx, false); err != nil {
		t.Fatal(err)
	}
	order := make(chan string, 3)
	queued := 0
	wait := func(name string, urgent bool) {
		go func() {
			if err := s.acquire(ctx, urgent); err != nil {
				order <- "error " + err.Error()
				return
			}
			order <- name // while holding the only slot: the sends are in service order
			s.release()
		}()
		waitFor(t, s, name+" queued", func() bool { return len(s.urgent)+len(s.normal) == queued+1 })
		queued++
	}
	wait("compile 1", false)
	wait("compile 2", false)
	wait("link", true)
	s.release()
	var got []string
	for range 3 {
		got = append(got, <-order)
	}
	if want := []string{"link", "compile 1", "compile 2"}; !slices.Equal(got, want) {
		t.Errorf("served %v, want %v", got, want)
	}
	waitFor(t, s, "every slot free", func() bool { return s.free == 1 })
}

// waitFor polls cond under s.mu until it holds.
func waitFor(t *testing.T, s *slots, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		s.mu.Lock()
		ok := cond()
		s.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestSlotsCancelled: a waiter whose context ends leaves the queue and
// takes no slot with it.
func TestSlotsCancelled(t *testing.T) {
	s := newSlots(1)
	if err := s.acquire(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := s.acquire(ctx, true); err == nil {
		t.Fatal("acquire with every slot taken returned before its context ended")
	}
	s.release()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.urgent) != 0 || s.free != 1 {
		t.Errorf("after a cancelled wait: %d urgent waiters, %d free, want 0 and 1", len(s.urgent), s.free)
	}
}
