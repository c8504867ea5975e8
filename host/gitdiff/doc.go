// Package gitdiff tells which lines of a working tree are new since a git
// revision, so that lint can report only the findings a change introduced
// (`cudaperf lint --new-from-rev REV`, as golangci-lint's option of that
// name): a team adopts the linter on an old code base without first
// fixing every old finding.
//
// A line is new when `git diff REV` adds or changes it (the working tree,
// staged or not, against REV); every line of a file git does not track is
// new. It runs the git command-line tool.
package gitdiff
