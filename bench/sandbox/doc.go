// Package sandbox runs one untrusted candidate program confined, and
// reports what it tried.
//
// Candidates come from a policy model or a user; public kernel agents have
// gamed their evaluators, so a candidate's host code is treated as hostile.
// Run re-executes the current binary as a small launcher (see init in
// launcher_linux.go), which applies the policy to itself and then execs the
// candidate, which inherits all of it:
//
//   - rlimits: CPU time, private writable memory (RLIMIT_DATA, not
//     RLIMIT_AS, which CUDA's address-space reservations exceed), file size,
//     open files, no core dumps;
//   - the user: started by root, the launcher drops every capability and
//     becomes uid/gid 65534, so the candidate cannot read root's files or
//     signal root's processes; its output folder is given to that user;
//   - Landlock: read-only access to the system libraries, /etc, /sys, its
//     own /proc entry and its inputs; read-write to its output folder and
//     the GPU device files; execute only its own binary and ELF loader;
//     nothing else (not the compile cache, other candidates' folders, the
//     measurements or the reference outputs);
//   - seccomp: 32-bit system calls kill the process; new processes (fork,
//     vfork, clone without CLONE_THREAD), exec after the launcher's own,
//     opens, file system changes, the network, ptrace and the like are
//     handed to the supervisor (user notification), which refuses what the
//     policy forbids and records it as a Violation.
//
// The supervisor is the calling process: it reads the candidate's path
// arguments from /proc/PID/mem. That check can be raced by a second thread
// of the candidate (time of check against time of use), so it is the
// reporting and the fork/exec gate, and Landlock is what enforces the file
// rules; a run without Landlock is therefore not called sandboxed.
//
// The records of the benchmark driver come through a pipe that the
// supervisor reads and stamps with its own clock, not a file the candidate
// could rewrite; closing or replacing that descriptor is refused.
//
// docs/sandbox.md has the threat model, the knobs (CUDAPERF_SANDBOX=off,
// CUDAPERF_SANDBOX_SKIP, CUDAPERF_SANDBOX_READ) and what is not covered.
package sandbox
