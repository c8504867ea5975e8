package bench

import "context"

// Hooks for the external test package bench_test. TestSuites lives there
// because it imports bench/dataset (for the sweep sample), which imports
// bench, so it cannot be compiled into package bench itself.

// Toolchain is the test toolchain helper of this package's tests.
var Toolchain = toolchain

// PrepErr is the error that preparing the session's task left, if any.
func (s *Session) PrepErr() error { return s.prepare(context.Background()) }
