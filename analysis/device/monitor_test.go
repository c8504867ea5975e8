package device

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestMonitorOneReaderForAllWatchers: however many candidates watch a
// device, it is read once per period (each read is several NVML calls,
// which contend with CUDA for the driver), every watcher sees every sample
// taken while it watched, and the reader stops when the last one leaves.
func TestMonitorOneReaderForAllWatchers(t *testing.T) {
	tick := make(chan struct{})
	var reads atomic.Int32
	m := newMonitor(0, func() (*Info, error) {
		<-tick
		n := reads.Add(1)
		return &Info{SMClockMHz: 1000 + int(n), TemperatureC: 30 + int(n)}, nil
	})
	var ws []*Sampler
	for range 8 {
		ws = append(ws, m.watch())
	}
	// After the fourth read has begun, the first three were given to every
	// watcher (the reader adds a sample before it reads the next).
	for range 4 {
		tick <- struct{}{}
	}
	first := ws[0].Stop()
	if first.Samples < 3 || first.MinSMClockMHz != 1001 || first.MaxTempC < 33 {
		t.Errorf("first watcher saw %+v, want the 3 samples read while it watched", first)
	}
	for _, w := range ws[1:] {
		w.Stop()
	}
	// The fourth read ends, the reader finds no watcher and stops.
	deadline := time.Now().Add(5 * time.Second)
	for {
		m.mu.Lock()
		running := m.running
		m.mu.Unlock()
		if !running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the reader did not stop after the last watcher left")
		}
		time.Sleep(time.Millisecond)
	}
	if got := reads.Load(); got != 4 {
		t.Errorf("%d reads for 8 watchers and 4 periods, want 4 (one reader)", got)
	}
}

// TestMonitorShortRunGetsASample: a watcher that ends before the reader's
// first sample still reports one (read at Stop), and one that starts just
// after a sample begins with it.
func TestMonitorShortRunGetsASample(t *testing.T) {
	var reads atomic.Int32
	m := newMonitor(time.Hour, func() (*Info, error) {
		reads.Add(1)
		return &Info{SMClockMHz: 1980}, nil
	})
	clock := time.Unix(1000, 0)
	m.now = func() time.Time { return clock }
	m.mu.Lock() // the reader cannot add its sample until Stop has run
	sp := &Sampler{m: m}
	m.watchers[sp] = true
	m.mu.Unlock()
	if s := sp.Stop(); s.Samples != 1 || s.MinSMClockMHz != 1980 {
		t.Errorf("short run: %+v, want one sample read at Stop", s)
	}
	m.mu.Lock()
	m.last, m.lastAt = &Info{SMClockMHz: 1700}, clock.Add(-time.Minute)
	m.running = true // no reader: only the seeded sample counts
	m.mu.Unlock()
	if s := m.watch().sum; s.Samples != 1 || s.MinSMClockMHz != 1700 {
		t.Errorf("watcher after a recent sample starts with %+v, want that sample", s)
	}
	clock = clock.Add(2 * time.Hour)
	if s := m.watch().sum; s.Samples != 0 {
		t.Errorf("a sample older than a period was given to a new watcher: %+v", s)
	}
	var nilSampler Sampler
	if s := nilSampler.Stop(); s.Samples != 0 {
		t.Errorf("a sampler without a device saw %+v", s)
	}
}
