package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"

	"github.com/cudaperf/cudaperf/plugins/sdk/benchserve"
)

// version is set by the linker (-X main.version=...), like the CLI's.
var version = "dev"

// EnvCPUProfile names a file to write a CPU profile of this plugin process
// to, over its first EnvCPUProfileSeconds (default 20) seconds, or until it
// is shut down gracefully if that comes first: the part of
// an evaluation's CPU that is the evaluator's own (judging, files, the
// sandbox supervisor), apart from nvcc and the candidates, which are other
// processes. bench/gpu-rl.sh sets it with CPUPROFILE=1. A window, not the
// plugin's whole life, because a host may stop the plugin by killing it.
const (
	EnvCPUProfile        = "CUDAPERF_CPUPROFILE"
	EnvCPUProfileSeconds = "CUDAPERF_CPUPROFILE_SECONDS"
)

func main() {
	if path := os.Getenv(EnvCPUProfile); path != "" {
		stop, err := profileCPU(path, os.Getenv(EnvCPUProfileSeconds))
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchmarker: %s: %v\n", EnvCPUProfile, err)
			os.Exit(2)
		}
		defer stop()
	}
	b := &backend{}
	defer b.close()
	benchserve.Serve(b)
}

// profileCPU starts a CPU profile into path; it stops after the window or
// when stop is called, whichever comes first.
func profileCPU(path, seconds string) (stop func(), err error) {
	window := 20 * time.Second
	if seconds != "" {
		s, err := strconv.ParseFloat(seconds, 64)
		if err != nil || s <= 0 {
			return nil, fmt.Errorf("%s=%q: give a number of seconds above 0", EnvCPUProfileSeconds, seconds)
		}
		window = time.Duration(s * float64(time.Second))
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			pprof.StopCPUProfile()
			f.Close()
		})
	}
	time.AfterFunc(window, stop)
	return stop, nil
}
