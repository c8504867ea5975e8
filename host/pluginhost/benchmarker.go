package pluginhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/verdict"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// DescribeBenchmarker returns the benchmarker's Describe answer (cached from
// start).
func (p *Plugin) DescribeBenchmarker(ctx context.Context) (*pluginv1.DescribeBenchmarkerResponse, error) {
	if _, err := p.rawClient(ctx, sdk.KindBenchmarker); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.describe.(*pluginv1.DescribeBenchmarkerResponse), nil
}

// Devices lists the benchmarker's GPUs.
func (p *Plugin) Devices(ctx context.Context) (*pluginv1.DevicesResponse, error) {
	var resp *pluginv1.DevicesResponse
	err := p.call(ctx, sdk.KindBenchmarker, "Devices", func(ctx context.Context, raw any) (err error) {
		resp, err = raw.(pluginv1.BenchmarkerServiceClient).Devices(ctx, &pluginv1.DevicesRequest{})
		return err
	})
	return resp, err
}

// Compile compiles a candidate. A compile error is resp.Ok == false, not an
// error.
func (p *Plugin) Compile(ctx context.Context, req *pluginv1.CompileRequest) (*pluginv1.CompileResponse, error) {
	var resp *pluginv1.CompileResponse
	err := p.call(ctx, sdk.KindBenchmarker, "Compile", func(ctx context.Context, raw any) (err error) {
		resp, err = raw.(pluginv1.BenchmarkerServiceClient).Compile(ctx, req)
		return err
	})
	return resp, err
}

// Run runs a candidate and calls onEvent for each streamed event, in order.
// The request timeout applies to the wait for each event, so a long run
// that keeps reporting is fine and a silent one is stopped. An error from
// onEvent stops the run and is returned as is.
func (p *Plugin) Run(ctx context.Context, req *pluginv1.RunRequest, onEvent func(*pluginv1.RunEvent) error) error {
	raw, err := p.rawClient(ctx, sdk.KindBenchmarker)
	if err != nil {
		return err
	}
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idle := p.requestTimeout(ctx, "Run")
	errHang := errors.New("idle timeout")
	timer := time.AfterFunc(idle, func() { cancel(errHang) })
	defer timer.Stop()

	hung := func() time.Duration {
		if errors.Is(context.Cause(sctx), errHang) {
			return idle
		}
		return 0
	}
	stream, err := raw.(pluginv1.BenchmarkerServiceClient).Run(sctx, req)
	if err != nil {
		return p.classify("Run", ctx, hung(), err)
	}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return p.classify("Run", ctx, hung(), err)
		}
		timer.Reset(idle)
		if err := onEvent(ev); err != nil {
			return err
		}
	}
}

// EvaluateJob sends one job to the benchmarker and returns its result: the
// one conversion, on the host side, of a bench.Job into a RunRequest and of
// the Run stream back into a bench.Result. A plugin that sends the record
// (cudaperf's do) gives its result unchanged; for another, the result is
// built from the stream's compile, configuration and summary events, and
// says so in RunLog. A request the plugin refused as sent (InvalidArgument)
// wraps bench.ErrBadJob; other errors mean the benchmarker cannot work
// (no GPU, no nvcc, a crash).
func (p *Plugin) EvaluateJob(ctx context.Context, j bench.Job) (*bench.Result, error) {
	req := runRequest(j)
	var comp *pluginv1.CompileResponse
	var cfgs []*pluginv1.ConfigResult
	var done *pluginv1.RunSummary
	err := p.Run(ctx, req, func(ev *pluginv1.RunEvent) error {
		switch e := ev.Event.(type) {
		case *pluginv1.RunEvent_Compiled:
			comp = e.Compiled
		case *pluginv1.RunEvent_Config:
			cfgs = append(cfgs, e.Config)
		case *pluginv1.RunEvent_Done:
			done = e.Done
		}
		return nil
	})
	var pe *PluginError
	if errors.As(err, &pe) && pe.Code == codes.InvalidArgument {
		return nil, fmt.Errorf("%w: %w", bench.ErrBadJob, err)
	}
	if err != nil {
		return nil, err
	}
	if done == nil {
		return nil, fmt.Errorf("plugin %s: the Run stream ended without its summary (a plugin bug)", p.Name())
	}
	if done.GetRecord() != "" {
		var r bench.Result
		if err := json.Unmarshal([]byte(done.GetRecord()), &r); err != nil {
			return nil, fmt.Errorf("plugin %s: its result record is not a bench.Result: %w", p.Name(), err)
		}
		return &r, nil
	}
	if comp == nil && len(cfgs) == 0 && len(done.GetReasons()) == 0 {
		// Nothing about the candidate: not a verdict on it (it had been
		// recorded as a failed compile, and merged into measurements).
		return nil, fmt.Errorf("plugin %s: its Run stream carried a summary but no compile result, configuration or record for %s (a plugin bug)", p.Name(), j.Filename)
	}
	return resultFromEvents(j, comp, cfgs, done), nil
}

func runRequest(j bench.Job) *pluginv1.RunRequest {
	return &pluginv1.RunRequest{
		TaskKind: taskKind(j.TaskKind), TaskPath: j.TaskPath, TaskFiles: j.TaskFiles, Source: j.Source, Filename: j.Filename,
		Artifact: j.Artifact, Flags: j.Flags, Arch: j.Arch, Configs: j.Configs,
		Seed: int64(j.Seeds[0]), SecondSeed: int64(j.Seeds[1]), Warmup: int32(j.Warmup), Repetitions: int32(j.Repeats),
		TimeLimitSeconds: j.TimeLimit.Seconds(), Profile: string(j.Profile), CompileOnly: j.CompileOnly,
		CandidateKind: j.Kind, Expect: j.Expect, TimeReference: true,
	}
}

// resultFromEvents builds a result from a plugin's stream without a record.
func resultFromEvents(j bench.Job, comp *pluginv1.CompileResponse, cfgs []*pluginv1.ConfigResult, done *pluginv1.RunSummary) *bench.Result {
	name := j.Name
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(j.Filename), ".cu")
	}
	r := &bench.Result{Time: time.Now().UTC().Format(time.RFC3339), Suite: filepath.Base(filepath.Dir(j.TaskPath)), Task: filepath.Base(j.TaskPath), Candidate: name,
		Kind: j.Kind, Path: j.Filename, Expect: j.Expect, Profile: j.Profile, Recorded: done.GetRecorded(),
		RunLog: "built from the benchmarker's events: it sends no result record"}
	if r.Kind == "" {
		r.Kind = bench.KindCandidate
	}
	if comp != nil {
		r.Compile = bench.Compile{OK: comp.GetOk(), Cached: comp.GetCached(), Seconds: comp.GetCompileSeconds(), Log: comp.GetLog(), Arch: j.Arch}
		for _, k := range comp.GetKernels() {
			r.Compile.Kernels = append(r.Compile.Kernels, bench.Kernel{Name: k.GetDemangled(), Mangled: k.GetName(),
				Registers: int(k.GetRegisters()), SharedBytes: int(k.GetSharedBytes()), StackFrame: int(k.GetStackBytes()),
				SpillStores: int(k.GetSpillStoreBytes()), SpillLoads: int(k.GetSpillLoadBytes())})
		}
	}
	if len(cfgs) == 0 && len(done.GetReasons()) == 0 {
		return r
	}
	v := &verdict.Verdict{Accepted: done.GetFailed() == 0 && len(cfgs) > 0}
	for _, c := range cfgs {
		cr := verdict.ConfigResult{Name: c.GetConfig(), Pass: c.GetPassed(), MaxAbsErr: verdict.Float(c.GetMaxAbsError()),
			MaxRelErr: verdict.Float(c.GetMaxRelError()), Speedup: c.GetSpeedup(), Detail: strings.Join(c.GetReasons(), "; ")}
		if t := c.GetTiming(); t != nil {
			cr.Time = &verdict.Timing{N: int(t.GetRepetitions()), Median: t.GetMedianMs(), Min: t.GetMinMs(), Max: t.GetMaxMs(), Mean: t.GetMeanMs(), CV: t.GetCv()}
		}
		v.Configs = append(v.Configs, cr)
	}
	for _, s := range done.GetReasons() {
		warn := strings.HasPrefix(s, "warning ")
		id, detail, _ := strings.Cut(strings.TrimPrefix(s, "warning "), ": ")
		if warn {
			v.Warnings = append(v.Warnings, verdict.Reason{ID: id, Detail: detail})
			continue
		}
		if id == "error" {
			r.Error = detail
			continue
		}
		v.Reasons = append(v.Reasons, verdict.Reason{ID: id, Detail: detail})
		v.Accepted = false
	}
	v.Speedup = done.GetGeomeanSpeedup()
	r.Verdict = v
	r.Ran = len(cfgs) > 0
	if r.Expect != "" {
		r.Caught = !v.Accepted && v.Has(r.Expect)
	}
	return r
}

// taskKind is the kind a job's RunRequest names ("" is c2cuda).
func taskKind(k string) string {
	if k == "" {
		return "c2cuda"
	}
	return k
}
