package main

import (
	"errors"
	"fmt"
	"strings"
)

// Exit codes: the one place that names them. Every command returns an error
// built with one of the constructors below (or a plain error, which is a tool
// failure), and main maps it to the process exit status.
const (
	exitOK       = 0 // success, nothing at or above the failing severity
	exitFindings = 1 // findings (lint diagnostics, syntax errors with --check)
	exitUsage    = 2 // bad flags, bad config, bad input named by the user
	exitFailure  = 3 // the tool or a plugin failed
)

// exitError carries an exit code through urfave/cli's error return.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf reports a usage or configuration error (exit 2).
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// failuref reports a tool or plugin failure (exit 3).
func failuref(format string, args ...any) error {
	return &exitError{code: exitFailure, err: fmt.Errorf(format, args...)}
}

// findings reports that the command ran and found problems (exit 1). The
// message may be empty when the findings were already printed.
func findings(format string, args ...any) error {
	return &exitError{code: exitFindings, err: fmt.Errorf(format, args...)}
}

// exitCode maps an error returned by a command to the process exit status.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if strings.HasPrefix(err.Error(), "No help topic for") {
		return exitUsage // urfave/cli's `help NOSUCH`: a usage mistake, not a failure
	}
	return exitFailure
}
