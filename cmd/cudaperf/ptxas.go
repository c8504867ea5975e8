package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/host/lint"
)

// ptxasReports compiles each CUDA input alone with nvcc -Xptxas -v (the
// compile cache bench uses, so a file bench or an earlier run compiled
// costs nothing) and returns the ptxas output by input path, for the
// analyzers' real register, shared-memory and spill counts. Files that do
// not compile alone (they need include paths or defines) are left out:
// their occupancy stays an estimate. A missing nvcc is an error only when
// required.
func ptxasReports(ctx context.Context, inputs []lint.Input, arch string, required bool, errw io.Writer) (map[string]string, error) {
	cache, err := nvcc.OpenCache("")
	if err != nil {
		if required {
			return nil, failuref("--ptxas: %v", err)
		}
		return nil, nil
	}
	tc, err := nvcc.New("", 0, cache)
	if err != nil {
		if required {
			return nil, failuref("--ptxas: %v", err)
		}
		return nil, nil // no nvcc: registers are estimated, and the JSON says so
	}
	var (
		mu     sync.Mutex
		wg     sync.WaitGroup
		out    = map[string]string{}
		failed []string
	)
	for _, in := range inputs {
		if !strings.HasSuffix(in.Path, ".cu") {
			continue
		}
		wg.Add(1)
		go func(path string) {
			defer wg.Done()
			res, err := tc.CompileCUDA(ctx, path, arch)
			mu.Lock()
			defer mu.Unlock()
			if err != nil || !res.OK || res.Resources == nil {
				failed = append(failed, path)
				return
			}
			out[path] = res.Log
		}(in.Path)
	}
	wg.Wait()
	if len(failed) > 0 && errw != nil {
		fmt.Fprintf(errw, "cudaperf: ptxas: %d of %d file(s) did not compile alone with nvcc -arch=%s (first: %s); their registers and occupancy are estimated\n",
			len(failed), len(failed)+len(out), arch, failed[0])
	}
	return out, nil
}
