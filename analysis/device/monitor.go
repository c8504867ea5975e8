package device

import (
	"sync"
	"time"
)

// monitor reads one device's clocks, temperature, power and clock-event
// reasons every period for as many watchers as are open, and stops when
// none is. Every candidate process used to have its own sampler, each
// reading the whole Info (13 NVML calls) every 20 ms: with 8 candidates
// side by side, up to about 5,000 NVML calls a second (derived from those
// numbers, not counted). On the H200 candidates' contexts then took 1.6 s
// against 0.4 s for stand-in processes without the evaluator
// (bench/ctxinit/lifecycle), and 0.085 s once one reader per device
// replaced the samplers: NVML calls contend with CUDA's in the driver.
type monitor struct {
	read   func() (*Info, error) // the dynamic fields only
	period time.Duration

	mu       sync.Mutex
	watchers map[*Sampler]bool
	last     *Info     // the latest sample
	lastAt   time.Time // when it was read
	running  bool
	now      func() time.Time // time.Now; a test's clock
}

func newMonitor(period time.Duration, read func() (*Info, error)) *monitor {
	return &monitor{read: read, period: period, watchers: map[*Sampler]bool{}, now: time.Now}
}

// Sampler is one watcher of a device: what it saw from Sample to Stop.
type Sampler struct {
	m   *monitor
	sum Summary
}

// watch opens a watcher. It starts with the latest sample when that is
// under a period old (so a short run is not left without one), and the
// reader starts if it was idle.
func (m *monitor) watch() *Sampler {
	sp := &Sampler{m: m}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.watchers[sp] = true
	if m.last != nil && m.now().Sub(m.lastAt) < m.period {
		sp.sum.add(m.last)
	}
	if !m.running {
		m.running = true
		go m.loop()
	}
	return sp
}

// loop samples until no watcher is left.
func (m *monitor) loop() {
	for {
		i, err := m.read()
		m.mu.Lock()
		if err == nil {
			m.last, m.lastAt = i, m.now()
			for sp := range m.watchers {
				sp.sum.add(i)
			}
		}
		if len(m.watchers) == 0 {
			m.running = false
			m.mu.Unlock()
			return
		}
		m.mu.Unlock()
		time.Sleep(m.period)
	}
}

// Stop closes the watcher and returns what it saw. A watcher that saw no
// sample yet gets one read now, so every run has at least one.
func (sp *Sampler) Stop() Summary {
	m := sp.m
	if m == nil {
		return Summary{}
	}
	m.mu.Lock()
	delete(m.watchers, sp)
	sum := sp.sum
	m.mu.Unlock()
	if sum.Samples == 0 {
		if i, err := m.read(); err == nil {
			sum.add(i)
		}
	}
	return sum
}
