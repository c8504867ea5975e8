package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/nvml"
	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/bench/verdict"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

const taskKind = "c2cuda"

// maxSessions bounds the tasks kept warm (each holds its inputs and the
// reference's outputs); the least recently used is closed first.
const maxSessions = 8

type server struct {
	pluginv1.UnimplementedBenchmarkerServiceServer

	initOnce sync.Once
	tc       *nvcc.Toolchain
	tcErr    error
	gpu      *nvml.Session
	gpuErr   error
	srcDir   string // candidate sources by content hash

	mu       sync.Mutex
	sessions map[string]*entry
	runMu    sync.Mutex // one GPU run at a time
}

type entry struct {
	sess *bench.Session
	used time.Time
	tmp  string // folder holding task_files, removed with the session
}

func newServer() *server {
	bench.CleanStale("")
	return &server{sessions: map[string]*entry{}}
}

func (s *server) init() {
	s.initOnce.Do(func() {
		cache, err := nvcc.OpenCache("")
		if err != nil {
			s.tcErr = err
			return
		}
		s.srcDir = filepath.Join(cache.Dir, "sources")
		s.tc, s.tcErr = nvcc.New("", 0, cache)
		s.gpu, s.gpuErr = nvml.Open()
	})
}

func (s *server) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, e := range s.sessions {
		e.sess.Close()
		os.RemoveAll(e.tmp)
		delete(s.sessions, k)
	}
	if s.gpu != nil {
		s.gpu.Close()
	}
}

func (s *server) defaultArch() string {
	if s.gpu != nil {
		if i, err := s.gpu.Info(0); err == nil && i.CC != "" {
			return i.Arch()
		}
	}
	return "sm_90"
}

func (s *server) Describe(context.Context, *pluginv1.DescribeBenchmarkerRequest) (*pluginv1.DescribeBenchmarkerResponse, error) {
	s.init()
	compiler := "nvcc not found"
	if s.tc != nil {
		compiler = "nvcc " + s.tc.NVCCVersion
	}
	return &pluginv1.DescribeBenchmarkerResponse{
		Plugin: &pluginv1.PluginInfo{Name: "cudaperf-benchmarker", Version: version,
			Description: "nvcc + CUDA benchmarker for c2cuda tasks: compile, check against the C reference, time, refuse cheats",
			Url:         "https://github.com/cudaperf/cudaperf/blob/main/docs/task-format.md"},
		TaskKinds:   []string{taskKind},
		Compiler:    compiler,
		DefaultArch: s.defaultArch(),
	}, nil
}

func (s *server) Devices(context.Context, *pluginv1.DevicesRequest) (*pluginv1.DevicesResponse, error) {
	s.init()
	resp := &pluginv1.DevicesResponse{}
	if s.gpu == nil {
		return resp, nil // no GPU is an empty list, not a failure
	}
	for i := 0; i < s.gpu.Count(); i++ {
		info, err := s.gpu.Info(i)
		if err != nil {
			continue
		}
		resp.Devices = append(resp.Devices, &pluginv1.Device{
			Index: int32(i), Name: info.Name, ComputeCapability: info.CC, Uuid: info.UUID,
			DriverVersion: info.Driver, SmClockMhz: int32(info.MaxSMClockMHz), MemoryClockMhz: int32(info.MaxMemClockMHz),
			MemoryBandwidthGbps: info.PeakBandwidth() / 1e9,
		})
	}
	return resp, nil
}

var (
	safeName   = regexp.MustCompile(`[^A-Za-z0-9_.-]`)
	artifactRE = regexp.MustCompile(`^[0-9a-f]{32}$`)
)

// storeSource writes a candidate under its content hash and returns the
// hash (the artifact handle) and the path.
func (s *server) storeSource(src []byte, filename string) (string, string, error) {
	name := safeName.ReplaceAllString(filepath.Base(filename), "_")
	if name == "" || name == "." || name == "_" {
		name = "candidate.cu"
	}
	if !strings.HasSuffix(name, ".cu") {
		name += ".cu"
	}
	h := sha256.Sum256(append(append([]byte(name), 0), src...))
	id := hex.EncodeToString(h[:16])
	dir := filepath.Join(s.srcDir, id)
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); err == nil {
		return id, path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		return "", "", err
	}
	return id, path, os.Rename(tmp, path)
}

// artifactPath finds the source an artifact handle names.
func (s *server) artifactPath(id string) (string, error) {
	if !artifactRE.MatchString(id) {
		return "", fmt.Errorf("artifact %q is not a handle this plugin returned", id)
	}
	m, _ := filepath.Glob(filepath.Join(s.srcDir, id, "*.cu"))
	if len(m) != 1 {
		return "", fmt.Errorf("artifact %s is unknown here (the cache was cleared?); send the source instead", id)
	}
	return m[0], nil
}

func (s *server) Compile(ctx context.Context, req *pluginv1.CompileRequest) (*pluginv1.CompileResponse, error) {
	s.init()
	if s.tcErr != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "benchmarker: %v", s.tcErr)
	}
	if k := req.GetTaskKind(); k != "" && k != taskKind {
		return nil, status.Errorf(codes.InvalidArgument, "benchmarker: task kind %q is not supported (only %s)", k, taskKind)
	}
	arch := req.GetArch()
	if arch == "" {
		arch = s.defaultArch()
	}
	id, path, err := s.storeSource(req.GetSource(), req.GetFilename())
	if err != nil {
		return nil, status.Errorf(codes.Internal, "benchmarker: store source: %v", err)
	}
	res, err := s.tc.CompileCUDAFlags(ctx, path, arch, req.GetFlags())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "benchmarker: %v", err)
	}
	out := compileResponse(res)
	out.Artifact = id
	return out, nil
}

func compileResponse(res *nvcc.Result) *pluginv1.CompileResponse {
	out := &pluginv1.CompileResponse{Ok: res.OK, Log: res.Log, CompileSeconds: res.Duration.Seconds(), Cached: res.Cached}
	if res.Resources != nil {
		for _, f := range res.Resources.Functions {
			if !f.Entry {
				continue
			}
			out.Kernels = append(out.Kernels, &pluginv1.KernelResources{
				Name: f.Mangled, Demangled: f.Name, Arch: f.Arch, Registers: int32(f.Registers),
				SharedBytes: int64(f.SharedBytes), SpillStoreBytes: int64(f.SpillStores), SpillLoadBytes: int64(f.SpillLoads),
				StackBytes: int64(f.StackFrame), ConstantBytes: int64(f.ConstBytes[0]),
			})
		}
	}
	return out
}

// loadTask reads the request's task: from task_files when given, else from
// task_path. Returns the task and a folder to remove with it ("" if none).
func (s *server) loadTask(req *pluginv1.RunRequest) (*task.Task, string, error) {
	files := req.GetTaskFiles()
	if len(files) == 0 {
		if req.GetTaskPath() == "" {
			return nil, "", errors.New("the request names no task: set task_path or task_files")
		}
		t, err := task.Load(req.GetTaskPath())
		return t, "", err
	}
	yml, ok := files[task.File]
	if !ok {
		return nil, "", errors.New("task_files has no task.yaml")
	}
	parsed, err := task.Parse("task_files/task.yaml", yml)
	if err != nil {
		return nil, "", err
	}
	if !regexp.MustCompile(`^[a-z0-9_]+$`).MatchString(parsed.Name) {
		return nil, "", fmt.Errorf("task_files/task.yaml: name: %q must match [a-z0-9_]+", parsed.Name)
	}
	root, err := os.MkdirTemp("", "cudaperf-taskfiles-")
	if err != nil {
		return nil, "", err
	}
	dir := filepath.Join(root, "request", parsed.Name)
	for rel, data := range files {
		clean := filepath.Clean(rel)
		if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			os.RemoveAll(root)
			return nil, "", fmt.Errorf("task_files: path %q leaves the task folder", rel)
		}
		p := filepath.Join(dir, clean)
		err := os.MkdirAll(filepath.Dir(p), 0o755)
		if err == nil {
			err = os.WriteFile(p, data, 0o644)
		}
		if err != nil {
			os.RemoveAll(root)
			return nil, "", err
		}
	}
	t, err := task.Load(dir)
	if err != nil {
		os.RemoveAll(root)
		return nil, "", err
	}
	return t, root, nil
}

// session returns the cached session for the request's task and settings.
func (s *server) session(req *pluginv1.RunRequest, arch string) (*bench.Session, error) {
	t, tmp, err := s.loadTask(req)
	if err != nil {
		return nil, err
	}
	if want := req.GetConfigs(); len(want) > 0 {
		var keep []task.Config
		for _, name := range want {
			i := slices.IndexFunc(t.Configs, func(c task.Config) bool { return c.Name == name })
			if i < 0 {
				os.RemoveAll(tmp)
				return nil, fmt.Errorf("task %s has no configuration %q", t.Name, name)
			}
			keep = append(keep, t.Configs[i])
		}
		t.Configs = keep
	}
	timeout := 2 * time.Minute
	if l := req.GetTimeLimitSeconds(); l > 0 {
		timeout = time.Duration(l * float64(len(t.Configs)) * float64(time.Second))
	}
	opt := bench.Options{Toolchain: s.tc, Arch: arch, Warmup: int(req.GetWarmup()), Repeats: int(req.GetRepetitions()),
		Timeout: timeout, NVML: s.gpu, Device: int(req.GetDeviceIndex())}
	if seed := uint64(req.GetSeed()); seed != 0 {
		opt.Seeds = [2]uint64{seed, seed*6364136223846793005 + 1442695040888963407}
	}
	// Tasks sent as files are keyed by content (their folder is new each time).
	where := t.Dir
	if len(req.GetTaskFiles()) > 0 {
		where = "files:" + hashFiles(req.GetTaskFiles())
	}
	key := fmt.Sprintf("%s|%v|%s|%d|%d|%v|%d|%d", where, req.GetConfigs(), arch,
		opt.Warmup, opt.Repeats, opt.Timeout, opt.Seeds[0], opt.Device)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.sessions[key]; ok {
		e.used = time.Now()
		os.RemoveAll(tmp)
		return e.sess, nil
	}
	sess, err := bench.NewSession(t, opt)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if len(s.sessions) >= maxSessions {
		var oldKey string
		var oldest time.Time
		for k, e := range s.sessions {
			if oldKey == "" || e.used.Before(oldest) {
				oldKey, oldest = k, e.used
			}
		}
		s.sessions[oldKey].sess.Close()
		os.RemoveAll(s.sessions[oldKey].tmp)
		delete(s.sessions, oldKey)
	}
	s.sessions[key] = &entry{sess: sess, used: time.Now(), tmp: tmp}
	return sess, nil
}

func hashFiles(files map[string][]byte) string {
	if len(files) == 0 {
		return ""
	}
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s\x00%d\x00", k, len(files[k]))
		h.Write(files[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (s *server) Run(req *pluginv1.RunRequest, stream pluginv1.BenchmarkerService_RunServer) error {
	s.init()
	ctx := stream.Context()
	if s.tcErr != nil {
		return status.Errorf(codes.FailedPrecondition, "benchmarker: %v", s.tcErr)
	}
	if k := req.GetTaskKind(); k != "" && k != taskKind {
		return status.Errorf(codes.InvalidArgument, "benchmarker: task kind %q is not supported (only %s)", k, taskKind)
	}
	if s.gpu == nil && !nvml.DeviceNodesPresent() {
		return status.Errorf(codes.FailedPrecondition, "benchmarker: %v", s.gpuErr)
	}
	arch := req.GetArch()
	if arch == "" {
		arch = s.defaultArch()
	}
	var path string
	var err error
	if a := req.GetArtifact(); a != "" {
		path, err = s.artifactPath(a)
	} else {
		_, path, err = s.storeSource(req.GetSource(), req.GetFilename())
	}
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "benchmarker: %v", err)
	}
	sess, err := s.session(req, arch)
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "benchmarker: %v", err)
	}
	cand := bench.Candidate{Name: strings.TrimSuffix(filepath.Base(path), ".cu"), Path: path, Kind: bench.KindCandidate, Flags: req.GetFlags()}
	r := sess.Build(ctx, cand)
	if err := stream.Send(&pluginv1.RunEvent{Event: &pluginv1.RunEvent_Compiled{Compiled: resultCompile(r)}}); err != nil {
		return err
	}
	if r.Compile.OK && r.Error == "" {
		s.runMu.Lock()
		sess.Run(ctx, r)
		s.runMu.Unlock()
	}
	if strings.HasPrefix(r.Error, "no CUDA device found") {
		return status.Errorf(codes.FailedPrecondition, "benchmarker: %s", r.Error)
	}
	sum := &pluginv1.RunSummary{}
	if r.Error != "" {
		sum.Reasons = append(sum.Reasons, "error: "+r.Error)
	}
	if v := r.Verdict; v != nil {
		seed := int64(r.Seeds[0])
		var logs []float64
		for _, c := range v.Configs {
			ev := &pluginv1.ConfigResult{Config: c.Name, Passed: c.Pass, MaxAbsError: finite(float64(c.MaxAbsErr)),
				MaxRelError: finite(float64(c.MaxRelErr)), Timing: timing(c.Time), ReferenceTiming: timing(c.RefTime),
				Speedup: c.Speedup, Seed: seed}
			if tol := toleranceOf(sess.Task); tol > 0 {
				ev.Tolerance = tol
			}
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
			if c.Pass && c.Speedup > 0 {
				logs = append(logs, math.Log(c.Speedup))
			}
			if err := stream.Send(&pluginv1.RunEvent{Event: &pluginv1.RunEvent_Config{Config: ev}}); err != nil {
				return err
			}
		}
		// Speedups of passing configurations only: a wrong answer has none.
		if len(logs) > 0 {
			var sumLog float64
			for _, l := range logs {
				sumLog += l
			}
			sum.GeomeanSpeedup = math.Exp(sumLog / float64(len(logs)))
		}
		for _, x := range v.Reasons {
			sum.Reasons = append(sum.Reasons, x.String())
		}
		for _, x := range v.Warnings {
			sum.Reasons = append(sum.Reasons, "warning "+x.String())
		}
	}
	if r.Device != nil {
		sum.Device = &pluginv1.Device{Index: int32(r.Device.Index), Name: r.Device.Name, ComputeCapability: r.Device.CC,
			Uuid: r.Device.UUID, DriverVersion: r.Device.Driver, SmCount: int32(r.DriverSMs),
			MemoryBandwidthGbps: r.Device.PeakBandwidth() / 1e9}
	}
	if r.Clocks != nil {
		sum.SmClockMhz = int32(r.Clocks.MaxSMClockMHz)
		sum.ThrottleReasons = r.Clocks.Throttled
	}
	return stream.Send(&pluginv1.RunEvent{Event: &pluginv1.RunEvent_Done{Done: sum}})
}

func resultCompile(r *bench.Result) *pluginv1.CompileResponse {
	out := &pluginv1.CompileResponse{Ok: r.Compile.OK, Log: r.Compile.Log, CompileSeconds: r.Compile.Seconds, Cached: r.Compile.Cached}
	for _, k := range r.Compile.Kernels {
		out.Kernels = append(out.Kernels, &pluginv1.KernelResources{Name: k.Mangled, Demangled: k.Name, Arch: r.Compile.Arch,
			Registers: int32(k.Registers), SharedBytes: int64(k.SharedBytes), SpillStoreBytes: int64(k.SpillStores),
			SpillLoadBytes: int64(k.SpillLoads), StackBytes: int64(k.StackFrame)})
	}
	return out
}

// toleranceOf reports the relative tolerance of the task's first output
// type (the proto has one number per configuration).
func toleranceOf(t *task.Task) float64 {
	for _, p := range t.Params {
		if p.Role.IsOutput() {
			return t.Tol(p.Type).RTol
		}
	}
	return 0
}

func finite(v float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return math.MaxFloat64
	}
	return v
}

func timing(t *verdict.Timing) *pluginv1.Timing {
	if t == nil {
		return nil
	}
	return &pluginv1.Timing{MedianMs: t.Median, MinMs: t.Min, MaxMs: t.Max, MeanMs: t.Mean, Cv: t.CV, Repetitions: int32(t.N)}
}
