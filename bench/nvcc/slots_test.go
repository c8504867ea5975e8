package nvcc

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestSlotsUrgentFirst: with every slot and the urgent reserve taken, an
// urgent job that comes last is served before the ordinary ones that came
// before it, and those in arrival order.
func TestSlotsUrgentFirst(t *testing.T) {
	s := newSlots(1)
	ctx := context.Background()
	release, err := s.acquire(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	releaseReserve := acquireReserve(t, s)
	order := make(chan string, 3)
	queued := 0
	wait := func(name string, urgent bool) {
		go func() {
			rel, err := s.acquire(ctx, urgent)
			if err != nil {
				order <- "error " + err.Error()
				return
			}
			order <- name // while holding the only ordinary slot: the sends are in service order
			rel()
		}()
		waitFor(t, s, name+" queued", func() bool { return len(s.urgent)+len(s.normal) == queued+1 })
		queued++
	}
	wait("compile 1", false)
	wait("compile 2", false)
	wait("link", true)
	release()
	var got []string
	for range 3 {
		got = append(got, <-order)
	}
	if want := []string{"link", "compile 1", "compile 2"}; !slices.Equal(got, want) {
		t.Errorf("served %v, want %v", got, want)
	}
	releaseReserve()
	release() // a second call frees nothing more
	waitFor(t, s, "every slot free", func() bool { return s.free == 1 && s.urgentFree == 1 })
}

// TestSlotsUrgentReserve: with every ordinary slot taken by compiles, an
// urgent job starts at once on the reserve, an ordinary one waits; with
// the reserve taken too, the next urgent job waits and gets the reserve's
// slot when it frees, while the ordinary one still waits for an ordinary
// slot.
func TestSlotsUrgentReserve(t *testing.T) {
	s := newSlots(1)
	ctx := context.Background()
	releaseCompile, err := s.acquire(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	quick, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := s.acquire(quick, false); err == nil {
		t.Fatal("an ordinary job got a slot with every ordinary slot taken")
	}
	releaseDriver, err := s.acquire(quick, true)
	if err != nil {
		t.Fatalf("an urgent job waited with the reserve free: %v", err)
	}
	got := make(chan string, 2)
	go func() {
		rel, err := s.acquire(ctx, true)
		if err != nil {
			got <- "error " + err.Error()
			return
		}
		got <- "link"
		rel()
	}()
	waitFor(t, s, "the link queued", func() bool { return len(s.urgent) == 1 })
	go func() {
		rel, err := s.acquire(ctx, false)
		if err != nil {
			got <- "error " + err.Error()
			return
		}
		got <- "compile"
		rel()
	}()
	waitFor(t, s, "the compile queued", func() bool { return len(s.normal) == 1 })
	releaseDriver()
	if g := <-got; g != "link" {
		t.Fatalf("the reserve's slot went to %q, want the waiting link", g)
	}
	select {
	case g := <-got:
		t.Fatalf("%q ran on the reserve's slot", g)
	case <-time.After(20 * time.Millisecond):
	}
	releaseCompile()
	if g := <-got; g != "compile" {
		t.Fatalf("the ordinary slot went to %q, want the compile", g)
	}
	waitFor(t, s, "every slot free", func() bool { return s.free == 1 && s.urgentFree == 1 })
}

// acquireReserve takes the reserve's slot of s, whose ordinary slots are
// taken; it fails instead of waiting when there is no reserve.
func acquireReserve(t *testing.T, s *slots) func() {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	release, err := s.acquire(ctx, true)
	if err != nil {
		t.Fatalf("an urgent job waited with the reserve free: %v", err)
	}
	return release
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
	release, err := s.acquire(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	releaseReserve := acquireReserve(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := s.acquire(ctx, true); err == nil {
		t.Fatal("acquire with every slot and the reserve taken returned before its context ended")
	}
	release()
	releaseReserve()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.urgent) != 0 || s.free != 1 || s.urgentFree != 1 {
		t.Errorf("after a cancelled wait: %d urgent waiters, %d free, %d in reserve, want 0, 1 and 1", len(s.urgent), s.free, s.urgentFree)
	}
}
