package benchserve

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/verdict"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// Info is what Describe answers.
type Info struct {
	Name, Version, Description, URL string
	TaskKinds                       []string
	Compiler                        string
	DefaultArch                     string
	Profiles                        []string
}

// Backend is a benchmarker in bench types. Errors wrapping bench.ErrBadJob
// become InvalidArgument (the request is wrong), others FailedPrecondition
// (the benchmarker cannot work here: no GPU, no nvcc).
type Backend interface {
	Describe(ctx context.Context) Info
	Devices(ctx context.Context) []*device.Info
	// Compile compiles a source (a compile error is Compile.OK false) and
	// returns a handle for Job.Artifact ("" if none).
	Compile(ctx context.Context, src []byte, filename, arch string, flags []string) (bench.Compile, string, error)
	Run(ctx context.Context, j bench.Job) (*bench.Result, error)
}

// Serve serves b as a benchmarker plugin (it does not return).
func Serve(b Backend) { sdk.ServeBenchmarker(&server{b: b}) }

// Server returns b's BenchmarkerService, for tests that serve it in-process.
func Server(b Backend) pluginv1.BenchmarkerServiceServer { return &server{b: b} }

type server struct {
	pluginv1.UnimplementedBenchmarkerServiceServer
	b Backend
}

// TaskKind is the task kind every cudaperf benchmarker runs; a backend
// lists others (torch2cuda) in Info.TaskKinds.
const TaskKind = "c2cuda"

func grpcErr(err error) error {
	switch {
	case errors.Is(err, bench.ErrBadJob):
		return status.Errorf(codes.InvalidArgument, "benchmarker: %v", err)
	}
	return status.Errorf(codes.FailedPrecondition, "benchmarker: %v", err)
}

func (s *server) checkKind(ctx context.Context, k string) error {
	kinds := s.b.Describe(ctx).TaskKinds
	if k != "" && !slices.Contains(kinds, k) {
		return status.Errorf(codes.InvalidArgument, "benchmarker: task kind %q is not supported (only %s)", k, strings.Join(kinds, ", "))
	}
	return nil
}

func (s *server) Describe(ctx context.Context, _ *pluginv1.DescribeBenchmarkerRequest) (*pluginv1.DescribeBenchmarkerResponse, error) {
	i := s.b.Describe(ctx)
	return &pluginv1.DescribeBenchmarkerResponse{
		Plugin:    &pluginv1.PluginInfo{Name: i.Name, Version: i.Version, Description: i.Description, Url: i.URL},
		TaskKinds: i.TaskKinds, Compiler: i.Compiler, DefaultArch: i.DefaultArch, Profiles: i.Profiles,
	}, nil
}

func (s *server) Devices(ctx context.Context, _ *pluginv1.DevicesRequest) (*pluginv1.DevicesResponse, error) {
	resp := &pluginv1.DevicesResponse{}
	for _, d := range s.b.Devices(ctx) {
		resp.Devices = append(resp.Devices, deviceProto(d, 0))
	}
	return resp, nil
}

func (s *server) Compile(ctx context.Context, req *pluginv1.CompileRequest) (*pluginv1.CompileResponse, error) {
	// Compile (and its artifacts) is c2cuda's: a torch2cuda candidate
	// builds in Run (compile_only), as load_inline builds it.
	if k := req.GetTaskKind(); k != "" && k != TaskKind {
		return nil, status.Errorf(codes.InvalidArgument, "benchmarker: Compile takes %s sources; build a %s candidate with Run and compile_only", TaskKind, k)
	}
	c, id, err := s.b.Compile(ctx, req.GetSource(), req.GetFilename(), req.GetArch(), req.GetFlags())
	if err != nil {
		return nil, grpcErr(err)
	}
	out := compileProto(&c)
	out.Artifact = id
	return out, nil
}

// JobFromRequest is the one conversion of a RunRequest into a bench.Job.
func JobFromRequest(req *pluginv1.RunRequest) bench.Job {
	j := bench.Job{
		TaskPath: req.GetTaskPath(), TaskFiles: req.GetTaskFiles(), Source: req.GetSource(), Filename: req.GetFilename(),
		Artifact: req.GetArtifact(), Kind: req.GetCandidateKind(), Expect: req.GetExpect(), Flags: req.GetFlags(),
		TaskKind: req.GetTaskKind(),
		Settings: bench.Settings{
			Profile: bench.Profile(req.GetProfile()), Configs: req.GetConfigs(), Warmup: int(req.GetWarmup()),
			Repeats: int(req.GetRepetitions()), Arch: req.GetArch(), CompileOnly: req.GetCompileOnly(),
			TimeLimit: secondsToDuration(req.GetTimeLimitSeconds()),
		},
	}
	if seed := uint64(req.GetSeed()); seed != 0 {
		second := uint64(req.GetSecondSeed())
		if second == 0 {
			second = seed*6364136223846793005 + 1442695040888963407
		}
		j.Seeds = [2]uint64{seed, second}
	}
	return j
}

func (s *server) Run(req *pluginv1.RunRequest, stream pluginv1.BenchmarkerService_RunServer) error {
	if err := s.checkKind(stream.Context(), req.GetTaskKind()); err != nil {
		return err
	}
	r, err := s.b.Run(stream.Context(), JobFromRequest(req))
	if err != nil {
		return grpcErr(err)
	}
	events, err := Events(r)
	if err != nil {
		return status.Errorf(codes.Internal, "benchmarker: %v", err)
	}
	for _, ev := range events {
		if err := stream.Send(ev); err != nil {
			return err
		}
	}
	return nil
}

// Events is the one conversion of a result into the Run stream: the
// compile, one event per judged configuration, and the summary with the
// record.
func Events(r *bench.Result) ([]*pluginv1.RunEvent, error) {
	record, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	out := []*pluginv1.RunEvent{{Event: &pluginv1.RunEvent_Compiled{Compiled: compileProto(&r.Compile)}}}
	sum := &pluginv1.RunSummary{Record: string(record), Recorded: r.Recorded}
	if r.Error != "" {
		sum.Reasons = append(sum.Reasons, "error: "+r.Error)
	}
	sum.GeomeanSpeedup = r.GeomeanSpeedup()
	if v := r.Verdict; v != nil {
		for _, c := range v.Configs {
			ev := &pluginv1.ConfigResult{Config: c.Name, Passed: c.Pass, MaxAbsError: finite(float64(c.MaxAbsErr)),
				MaxRelError: finite(float64(c.MaxRelErr)), Timing: timingProto(c.Time), ReferenceTiming: timingProto(c.RefTime),
				Speedup: c.Speedup, Seed: int64(r.Seeds[0])}
			for _, x := range []string{c.Error, c.Detail} {
				if x != "" {
					ev.Reasons = append(ev.Reasons, x)
				}
			}
			if c.Pass {
				sum.Passed++
			} else {
				sum.Failed++
			}
			out = append(out, &pluginv1.RunEvent{Event: &pluginv1.RunEvent_Config{Config: ev}})
		}
		for _, x := range v.Reasons {
			sum.Reasons = append(sum.Reasons, x.String())
		}
		for _, x := range v.Warnings {
			sum.Reasons = append(sum.Reasons, "warning "+x.String())
		}
	}
	if r.Recorded {
		sum.Reasons = append(sum.Reasons, "recorded: answered from recorded measurements, not measured now")
	}
	if r.Device != nil {
		sum.Device = deviceProto(r.Device, r.DriverSMs)
	}
	if r.Clocks != nil {
		sum.SmClockMhz = int32(r.Clocks.MaxSMClockMHz)
		sum.ThrottleReasons = r.Clocks.Throttled
	}
	return append(out, &pluginv1.RunEvent{Event: &pluginv1.RunEvent_Done{Done: sum}}), nil
}

func deviceProto(d *device.Info, sms int) *pluginv1.Device {
	if sms == 0 {
		sms = d.SMs
	}
	return &pluginv1.Device{Index: int32(d.Index), Name: d.Name, ComputeCapability: d.CC.String(), Uuid: d.UUID,
		DriverVersion: d.Driver, SmCount: int32(sms), SmClockMhz: int32(d.MaxSMClockMHz), MemoryClockMhz: int32(d.MaxMemClockMHz),
		MemoryBandwidthGbps: d.PeakBandwidth() / 1e9}
}

func compileProto(c *bench.Compile) *pluginv1.CompileResponse {
	out := &pluginv1.CompileResponse{Ok: c.OK, Log: c.Log, CompileSeconds: c.Seconds, Cached: c.Cached}
	for _, k := range c.Kernels {
		out.Kernels = append(out.Kernels, &pluginv1.KernelResources{Name: k.Mangled, Demangled: k.Name, Arch: c.Arch,
			Registers: int32(k.Registers), SharedBytes: int64(k.SharedBytes), SpillStoreBytes: int64(k.SpillStores),
			SpillLoadBytes: int64(k.SpillLoads), StackBytes: int64(k.StackFrame)})
	}
	return out
}

func finite(v float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return math.MaxFloat64
	}
	return v
}

func timingProto(t *verdict.Timing) *pluginv1.Timing {
	if t == nil {
		return nil
	}
	return &pluginv1.Timing{MedianMs: t.Median, MinMs: t.Min, MaxMs: t.Max, MeanMs: t.Mean, Cv: t.CV, Repetitions: int32(t.N)}
}

func secondsToDuration(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
