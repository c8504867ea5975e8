//go:build !linux

package sandbox

import (
	"context"
	"runtime"

	"github.com/cudaperf/cudaperf/bench/runner"
)

// Run runs c unconfined: the mechanisms are Linux's. The report says so
// and the verdict warns not_sandboxed.
func Run(ctx context.Context, c runner.Cmd, p Policy) (*runner.Outcome, *Report, error) {
	recs, files, err := begin(&p)
	if err != nil {
		return nil, nil, err
	}
	defer closeAll(files)
	return runUnconfined(ctx, c, p, recs, files, "no sandbox on "+runtime.GOOS)
}

func landlockABI() int             { return 0 }
func seccompNotifySupported() bool { return false }
