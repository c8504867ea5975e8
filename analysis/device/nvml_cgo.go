//go:build cgo && linux

package device

import (
	"fmt"
	"sync"
	"time"

	gonvml "github.com/NVIDIA/go-nvml/pkg/nvml"
)

// NVML is an initialised NVML library: the one wrapper of go-nvml in the
// project.
type NVML struct{ driver string }

// Open initialises NVML; ErrNoGPU (wrapped) when there is no driver or
// no GPU.
func Open() (*NVML, error) {
	var ret gonvml.Return
	func() {
		// go-nvml panics when libnvidia-ml cannot be loaded on some
		// versions; treat that as "no device".
		defer func() {
			if recover() != nil {
				ret = gonvml.ERROR_LIBRARY_NOT_FOUND
			}
		}()
		ret = gonvml.Init()
	}()
	if ret != gonvml.SUCCESS {
		return nil, fmt.Errorf("%w (NVML: %s)", ErrNoGPU, gonvml.ErrorString(ret))
	}
	n, ret := gonvml.DeviceGetCount()
	if ret != gonvml.SUCCESS || n == 0 {
		gonvml.Shutdown()
		return nil, fmt.Errorf("%w (NVML sees %d GPUs)", ErrNoGPU, n)
	}
	s := &NVML{}
	s.driver, _ = gonvml.SystemGetDriverVersion()
	return s, nil
}

// Close shuts NVML down.
func (s *NVML) Close() { gonvml.Shutdown() }

// Count is the number of GPUs.
func (s *NVML) Count() int {
	n, _ := gonvml.DeviceGetCount()
	return n
}

// Info reads device index now. Fields NVML cannot give stay zero.
func (s *NVML) Info(index int) (*Info, error) {
	d, ret := gonvml.DeviceGetHandleByIndex(index)
	if ret != gonvml.SUCCESS {
		return nil, fmt.Errorf("nvml: device %d: %s", index, gonvml.ErrorString(ret))
	}
	i := &Info{Index: index, Driver: s.driver}
	i.Name, _ = d.GetName()
	i.UUID, _ = d.GetUUID()
	if major, minor, ret := d.GetCudaComputeCapability(); ret == gonvml.SUCCESS {
		i.CC = CC{major, minor}
		if cores, ret := d.GetNumGpuCores(); ret == gonvml.SUCCESS && cores > 0 {
			i.SMs = cores / coresPerSM(i.CC)
		}
	}
	u := func(v uint32, _ gonvml.Return) int { return int(v) }
	i.SMClockMHz = u(d.GetClockInfo(gonvml.CLOCK_SM))
	i.MaxSMClockMHz = u(d.GetMaxClockInfo(gonvml.CLOCK_SM))
	i.MemClockMHz = u(d.GetClockInfo(gonvml.CLOCK_MEM))
	i.MaxMemClockMHz = u(d.GetMaxClockInfo(gonvml.CLOCK_MEM))
	i.MemBusWidth = u(d.GetMemoryBusWidth())
	i.TemperatureC = u(d.GetTemperature(gonvml.TEMPERATURE_GPU))
	if mw, ret := d.GetPowerUsage(); ret == gonvml.SUCCESS {
		i.PowerW = float64(mw) / 1000
	}
	mask, ret := d.GetCurrentClocksEventReasons()
	if ret != gonvml.SUCCESS {
		mask, ret = d.GetCurrentClocksThrottleReasons()
	}
	if ret == gonvml.SUCCESS {
		i.Reasons = reasons(mask)
	}
	return i, nil
}

// Sampler reads a device periodically until stopped.
type Sampler struct {
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	sum  Summary
}

// Sample starts sampling device index every period.
func (s *NVML) Sample(index int, period time.Duration) *Sampler {
	sp := &Sampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(sp.done)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			if i, err := s.Info(index); err == nil {
				sp.mu.Lock()
				sp.sum.add(i)
				sp.mu.Unlock()
			}
			select {
			case <-sp.stop:
				return
			case <-t.C:
			}
		}
	}()
	return sp
}

// Stop ends sampling and returns what was seen.
func (sp *Sampler) Stop() Summary {
	close(sp.stop)
	<-sp.done
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.sum
}
