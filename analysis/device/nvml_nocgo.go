//go:build !cgo || !linux

package nvml

import (
	"fmt"
	"time"
)

// Session is unavailable without cgo: NVML is a C library.
type Session struct{}

// Open always fails: this binary was built without cgo.
func Open() (*Session, error) {
	return nil, fmt.Errorf("%w (built without cgo, so NVML cannot be loaded; rebuild with CGO_ENABLED=1)", ErrNoDevice)
}

// Close does nothing.
func (s *Session) Close() {}

// Count is 0.
func (s *Session) Count() int { return 0 }

// Info fails.
func (s *Session) Info(int) (*Info, error) { return nil, ErrNoDevice }

// Sampler does nothing.
type Sampler struct{}

// Sample returns a sampler that sees nothing.
func (s *Session) Sample(int, time.Duration) *Sampler { return &Sampler{} }

// Stop returns an empty summary.
func (sp *Sampler) Stop() Summary { return Summary{} }
