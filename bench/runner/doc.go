// Package runner runs one benchmark program (a candidate's driver or a
// task's reference) in its own process group under a wall-time limit.
//
// A kernel that hangs, a process that crashes or one that forks helpers is
// stopped by killing the whole group (SIGKILL) when the limit passes or the
// context ends, and the outcome says which happened, so the caller reports
// it and goes on with the next candidate. Output is captured up to a bound,
// keeping the end, where the errors are.
package runner
