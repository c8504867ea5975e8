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
type NVML struct {
	driver string

	mu     sync.Mutex
	static map[int]Info     // per device: what does not change while it runs
	mons   map[int]*monitor // per device: its one sampler
}

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
	s := &NVML{static: map[int]Info{}, mons: map[int]*monitor{}}
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

// Info reads device index now. Fields NVML cannot give stay zero. What
// does not change while the device runs (name, UUID, compute capability,
// multiprocessors, maximum clocks, bus width) is read once; the clocks,
// temperature, power and clock-event reasons every time.
func (s *NVML) Info(index int) (*Info, error) {
	d, ret := gonvml.DeviceGetHandleByIndex(index)
	if ret != gonvml.SUCCESS {
		return nil, fmt.Errorf("nvml: device %d: %s", index, gonvml.ErrorString(ret))
	}
	s.mu.Lock()
	st, ok := s.static[index]
	s.mu.Unlock()
	if !ok {
		st = staticInfo(d, index, s.driver)
		s.mu.Lock()
		s.static[index] = st
		s.mu.Unlock()
	}
	i := st
	dynamicInfo(d, &i)
	return &i, nil
}

func u(v uint32, _ gonvml.Return) int { return int(v) }

func staticInfo(d gonvml.Device, index int, driver string) Info {
	i := Info{Index: index, Driver: driver}
	i.Name, _ = d.GetName()
	i.UUID, _ = d.GetUUID()
	if major, minor, ret := d.GetCudaComputeCapability(); ret == gonvml.SUCCESS {
		i.CC = CC{major, minor}
		if cores, ret := d.GetNumGpuCores(); ret == gonvml.SUCCESS && cores > 0 {
			i.SMs = cores / coresPerSM(i.CC)
		}
	}
	i.MaxSMClockMHz = u(d.GetMaxClockInfo(gonvml.CLOCK_SM))
	i.MaxMemClockMHz = u(d.GetMaxClockInfo(gonvml.CLOCK_MEM))
	i.MemBusWidth = u(d.GetMemoryBusWidth())
	return i
}

func dynamicInfo(d gonvml.Device, i *Info) {
	i.SMClockMHz = u(d.GetClockInfo(gonvml.CLOCK_SM))
	i.MemClockMHz = u(d.GetClockInfo(gonvml.CLOCK_MEM))
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
}

// Sample starts watching device index: one reader per device samples it
// every period (the first watcher's) for all its watchers (monitor).
func (s *NVML) Sample(index int, period time.Duration) *Sampler {
	s.mu.Lock()
	m := s.mons[index]
	if m == nil {
		m = newMonitor(period, func() (*Info, error) { return s.Info(index) })
		s.mons[index] = m
	}
	s.mu.Unlock()
	return m.watch()
}
