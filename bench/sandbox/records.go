package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cudaperf/cudaperf/bench/runner"
)

// begin checks the policy, fills in its defaults and makes the records
// pipe when the policy asks for one: its write end becomes the program's
// descriptor 3 (RecordsFD).
func begin(p *Policy) (*recordsReader, []*os.File, error) {
	p.defaults()
	if !filepath.IsAbs(p.OutDir) {
		return nil, nil, fmt.Errorf("sandbox: the output folder %q must be an absolute path", p.OutDir)
	}
	if err := CheckSkip(); err != nil {
		return nil, nil, err
	}
	if p.Records == "" {
		if p.Gate != nil {
			return nil, nil, fmt.Errorf("sandbox: a gate needs the records pipe (Policy.Records): the gate is descriptor %d, after the records' %d", GateFD, RecordsFD)
		}
		return nil, nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	files := []*os.File{w}
	if p.Gate != nil {
		files = append(files, p.Gate)
	}
	return &recordsReader{r: r, path: p.Records, start: time.Now(), done: make(chan error, 1), on: p.OnRecord}, files, nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// runUnconfined runs c without confinement (trusted code, or a system
// without the mechanisms); the records pipe still works, and the report
// says why the run is not sandboxed.
func runUnconfined(ctx context.Context, c runner.Cmd, p Policy, recs *recordsReader, files []*os.File, why string) (*runner.Outcome, *Report, error) {
	rep := &Report{Mechanisms: []Mechanism{{Name: "all", Detail: why}}}
	c.ExtraFiles, c.Dir, c.Env = files, p.OutDir, candidateEnv(c.Env, p.Env, p.OutDir)
	if recs != nil {
		go recs.read()
	}
	o, err := runner.Run(ctx, c)
	return o, rep, finish(recs, files, rep, err)
}

// finish closes the parent's ends and collects the records.
func finish(recs *recordsReader, files []*os.File, rep *Report, runErr error) error {
	for _, f := range files {
		f.Close()
	}
	if recs == nil {
		return runErr
	}
	err := <-recs.done
	rep.Records = recs.lines
	return errors.Join(runErr, err)
}

// candidateEnv keeps, of base (the command's environment; nil: this
// process's), the variables CUDA and libc need (CUDA_VISIBLE_DEVICES
// picks the worker's GPU), and points HOME and TMPDIR into the output
// folder: no secret of the caller's environment reaches the candidate.
func candidateEnv(base, keep []string, out string) []string {
	if base == nil {
		base = os.Environ()
	}
	env := []string{"HOME=" + out, "TMPDIR=" + out}
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		ok := false
		if keep == nil {
			ok = k == "PATH" || k == "LD_LIBRARY_PATH" || k == "LANG" || k == "LC_ALL" || k == "TZ" ||
				strings.HasPrefix(k, "CUDA_") || strings.HasPrefix(k, "NVIDIA_") ||
				// Test hooks: a test binary that plays a driver is told how.
				strings.HasPrefix(k, "CUDAPERF_TEST_")
		} else {
			for _, want := range keep {
				ok = ok || k == want
			}
		}
		if ok && k != "HOME" && k != "TMPDIR" {
			env = append(env, kv)
		}
	}
	return env
}

// recordsReader collects the records pipe line by line, stamping each with
// the supervisor's clock, and writes them to path for the judge.
type recordsReader struct {
	r     *os.File
	path  string
	start time.Time
	lines []Record
	done  chan error
	on    func([]byte) // Policy.OnRecord
}

func (rr *recordsReader) read() {
	defer rr.r.Close()
	f, err := os.Create(rr.path)
	if err != nil {
		io.Copy(io.Discard, rr.r)
		rr.done <- fmt.Errorf("sandbox: records: %w", err)
		return
	}
	br := bufio.NewReader(rr.r)
	var werr error
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			rr.lines = append(rr.lines, Record{Line: line, At: time.Since(rr.start)})
			if rr.on != nil {
				rr.on(line)
			}
			if _, e := f.Write(line); e != nil && werr == nil {
				werr = e
			}
		}
		if err != nil {
			break
		}
	}
	rr.done <- errors.Join(werr, f.Close())
}
