//go:build !cgo || !linux

package device

import (
	"fmt"
	"time"
)

// NVML is unavailable without cgo: it is a C library.
type NVML struct{}

// Open always fails: this binary was built without cgo.
func Open() (*NVML, error) {
	return nil, fmt.Errorf("%w (built without cgo, so NVML cannot be loaded; rebuild with CGO_ENABLED=1)", ErrNoGPU)
}

// Close does nothing.
func (s *NVML) Close() {}

// Count is 0.
func (s *NVML) Count() int { return 0 }

// Info fails.
func (s *NVML) Info(int) (*Info, error) { return nil, ErrNoGPU }

// Sample returns a sampler that sees nothing.
func (s *NVML) Sample(int, time.Duration) *Sampler { return &Sampler{} }
