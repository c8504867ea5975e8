package device

import (
	"fmt"
	"strconv"
	"strings"
)

// CC is a compute capability, e.g. {9, 0}. It is the one spelling of a GPU
// generation in the project: the limits table is keyed by it, NVML reports
// it, nvcc's -arch is derived from it, and it is written as "9.0" in JSON
// (results, plugin answers).
type CC struct {
	Major int
	Minor int
}

// String is "9.0".
func (c CC) String() string { return fmt.Sprintf("%d.%d", c.Major, c.Minor) }

// Arch is the nvcc architecture, "sm_90".
func (c CC) Arch() string { return fmt.Sprintf("sm_%d%d", c.Major, c.Minor) }

// Number is the compute capability as one number, e.g. 90.
func (c CC) Number() int { return c.Major*10 + c.Minor }

// IsZero reports an unknown compute capability.
func (c CC) IsZero() bool { return c == CC{} }

// MarshalText writes "9.0" ("" when unknown).
func (c CC) MarshalText() ([]byte, error) {
	if c.IsZero() {
		return []byte{}, nil
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads "9.0" (or any form ParseArch accepts; "" is unknown).
func (c *CC) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "" {
		*c = CC{}
		return nil
	}
	if a, m, ok := strings.Cut(s, "."); ok {
		major, err1 := strconv.Atoi(a)
		minor, err2 := strconv.Atoi(m)
		if err1 == nil && err2 == nil {
			*c = CC{major, minor}
			return nil
		}
	}
	v, err := ParseArch(s)
	if err != nil {
		return err
	}
	*c = v
	return nil
}
