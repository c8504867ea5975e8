// Package task loads and validates c2cuda benchmark tasks.
//
// A task is a folder bench/suites/<suite>/<task>/ holding task.yaml,
// reference.c and variants/*.cu, as specified in docs/task-format.md. Load
// decodes task.yaml strictly (unknown fields are errors) and Validate checks
// every field; each error names the file and the field (for example
// "bench/suites/c2cuda/saxpy/task.yaml: params[2].size: unknown name m") and
// says what to write instead.
//
// Sizes, byte counts and flop counts are integer expressions over the
// configuration's values (see Expr); Resolve evaluates them for one
// configuration so that the harness works with plain numbers.
package task
