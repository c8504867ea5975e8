// Command misbehave is an analyzer plugin for the host's tests that fails
// in the way its first argument names:
//
//	ok        answers normally (feature "bytes" per file)
//	crash     dies of an unrecovered panic in the middle of Analyze
//	hang      never answers Analyze
//	panic     panics in Analyze (the SDK turns that into an error)
//	failon    answers normally, but fails a request that holds fail-me.cu
//	stdout    prints to stdout before the handshake
//	protocol2 does the handshake with plugin protocol 2
//	slowstart sleeps 30 s before the handshake
//	spawn     starts a child process (sleep 300) before serving
//	bench     serves a benchmarker whose Run streams one event per config
//	benchhang serves a benchmarker whose Run streams one event and hangs
//	policy    serves a policy that echoes prompts and counts rollouts;
//	          a prompt "slow" takes 1.5 s, one "sigkill" kills the process
//	crashon   answers normally, but the process exits (status 3) when a
//	          request holds kill-me.cu
//	hangon    answers normally, but never answers a request that holds
//	          hang-me.cu (or a file containing "// hang-me"); with
//	          $MISBEHAVE_REQUEST_LOG, appends each request's files to it
//	parsed    wants parsed files; reports "nodes" per file and "params"
//	          per kernel from the host's parse, the received option
//	          "dup.limit" (declared, int, default 3) as "limit", and a
//	          "dup" finding at each kernel's name
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

type analyzer struct {
	pluginv1.UnimplementedAnalyzerServiceServer
	mode string
}

func (a analyzer) Describe(context.Context, *pluginv1.DescribeAnalyzerRequest) (*pluginv1.DescribeAnalyzerResponse, error) {
	if a.mode == "parsed" {
		return &pluginv1.DescribeAnalyzerResponse{Plugin: &pluginv1.PluginInfo{Name: "misbehave-parsed", Version: "1.0.0"}, WantsParsedFiles: true,
			Checks:  []*pluginv1.CheckInfo{{Id: "dup", Title: "a finding at every kernel"}},
			Options: []*pluginv1.OptionInfo{{Name: "limit", Check: "dup", Type: "int", DefaultValue: "3", Doc: "echoed as feature limit"}}}, nil
	}
	return &pluginv1.DescribeAnalyzerResponse{Plugin: &pluginv1.PluginInfo{Name: "misbehave-" + a.mode, Version: "1.2.3"}}, nil
}

func (a analyzer) Analyze(ctx context.Context, req *pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error) {
	switch a.mode {
	case "crash":
		// An unrecovered panic on another goroutine: the Go runtime prints
		// it to the process's real stderr and exits with status 2.
		go func() { panic("misbehave: crash on purpose") }()
		select {}
	case "hang":
		select {}
	case "panic":
		panic("misbehave: panic on purpose")
	case "parsed":
		return sdk.AnalyzeEach(ctx, req, parsedFile), nil
	case "crashon":
		for _, f := range req.GetFiles() {
			if f.GetPath() == "kill-me.cu" {
				fmt.Fprintln(os.Stderr, "misbehave: dying on kill-me.cu")
				os.Exit(3)
			}
		}
	case "hangon":
		if log := os.Getenv("MISBEHAVE_REQUEST_LOG"); log != "" {
			// One line per request, its files: the tests count how often
			// the host sent a file.
			var names []string
			for _, f := range req.GetFiles() {
				names = append(names, f.GetPath())
			}
			if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintln(f, strings.Join(names, " "))
				f.Close()
			}
		}
		for _, f := range req.GetFiles() {
			if f.GetPath() == "hang-me.cu" || strings.Contains(string(f.GetContent()), "// hang-me") {
				select {}
			}
		}
		// The others get a kernel's feature, as a host's ranker reads them.
		return sdk.AnalyzeEach(ctx, req, func(_ context.Context, _ *pluginv1.AnalyzeRequest, f *pluginv1.SourceFile) (*pluginv1.FileResult, error) {
			return &pluginv1.FileResult{Features: []*pluginv1.Feature{{Kernel: "k", Name: "bytes", Value: float64(len(f.GetContent())), Unit: "bytes"}}}, nil
		}), nil
	case "failon":
		for _, f := range req.GetFiles() {
			if f.GetPath() == "fail-me.cu" {
				return nil, status.Error(codes.InvalidArgument, "misbehave: refusing fail-me.cu")
			}
		}
	}
	return sdk.AnalyzeEach(ctx, req, func(_ context.Context, _ *pluginv1.AnalyzeRequest, f *pluginv1.SourceFile) (*pluginv1.FileResult, error) {
		return &pluginv1.FileResult{Features: []*pluginv1.Feature{{Name: "bytes", Value: float64(len(f.GetContent())), Unit: "bytes"}}}, nil
	}), nil
}

func parsedFile(_ context.Context, req *pluginv1.AnalyzeRequest, sf *pluginv1.SourceFile) (*pluginv1.FileResult, error) {
	f, err := sdk.Parse(sf)
	if err != nil {
		return nil, err
	}
	limit, err := strconv.Atoi(req.GetOptions()["dup.limit"])
	if err != nil {
		return nil, fmt.Errorf("option dup.limit: %v", err)
	}
	res := &pluginv1.FileResult{Features: []*pluginv1.Feature{{Name: "nodes", Value: float64(f.Len())}, {Name: "limit", Value: float64(limit)}}}
	for _, k := range f.Kernels() {
		res.Features = append(res.Features, &pluginv1.Feature{Kernel: k.Name, Name: "params", Value: float64(len(k.Params))})
		res.Diagnostics = append(res.Diagnostics, &pluginv1.Diagnostic{Check: "dup", Kernel: k.Name, Range: k.NameNode.Range(), Message: "kernel " + k.Name})
	}
	return res, nil
}

// bench is a benchmarker for the streaming tests: Run answers with one
// ConfigResult per requested config, then a RunSummary.
type bench struct {
	pluginv1.UnimplementedBenchmarkerServiceServer
	hang bool
}

func (bench) Describe(context.Context, *pluginv1.DescribeBenchmarkerRequest) (*pluginv1.DescribeBenchmarkerResponse, error) {
	return &pluginv1.DescribeBenchmarkerResponse{Plugin: &pluginv1.PluginInfo{Name: "misbehave-bench", Version: "1.0.0"}, TaskKinds: []string{"c2cuda"}}, nil
}

func (bench) Compile(_ context.Context, req *pluginv1.CompileRequest) (*pluginv1.CompileResponse, error) {
	return &pluginv1.CompileResponse{Ok: len(req.GetSource()) > 0, Log: fmt.Sprintf("%d bytes", len(req.GetSource()))}, nil
}

func (b bench) Run(req *pluginv1.RunRequest, stream pluginv1.BenchmarkerService_RunServer) error {
	for i, c := range req.GetConfigs() {
		if err := stream.Send(&pluginv1.RunEvent{Event: &pluginv1.RunEvent_Config{Config: &pluginv1.ConfigResult{Config: c, Passed: true}}}); err != nil {
			return err
		}
		if b.hang && i == 0 {
			select {}
		}
	}
	return stream.Send(&pluginv1.RunEvent{Event: &pluginv1.RunEvent_Done{Done: &pluginv1.RunSummary{Passed: int32(len(req.GetConfigs()))}}})
}

// policy echoes: each completion is the prompt's last message and its index.
type policy struct {
	pluginv1.UnimplementedPolicyServiceServer
	saved string
}

func (*policy) Describe(context.Context, *pluginv1.DescribePolicyRequest) (*pluginv1.DescribePolicyResponse, error) {
	return &pluginv1.DescribePolicyResponse{Plugin: &pluginv1.PluginInfo{Name: "misbehave-policy", Version: "1.0.0"}, CanUpdate: true, Model: "echo"}, nil
}

func (*policy) Generate(_ context.Context, req *pluginv1.GenerateRequest) (*pluginv1.GenerateResponse, error) {
	resp := &pluginv1.GenerateResponse{}
	for _, p := range req.GetPrompts() {
		last := p.GetMessages()[len(p.GetMessages())-1].GetContent()
		switch last {
		case "slow": // a model on a CPU: longer than the tests' request limit
			time.Sleep(1500 * time.Millisecond)
		case "sigkill": // as the kernel's OOM killer ends a process
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		case "raise": // as gRPC's Python server answers an escaped exception
			fmt.Fprintln(os.Stderr, "Traceback: RuntimeError: model exploded")
			return nil, status.Error(codes.Unknown, "Exception calling application: model exploded")
		}
		for i := range req.GetGroupSize() {
			resp.Completions = append(resp.Completions, &pluginv1.Completion{PromptId: p.GetId(), Index: i, Text: fmt.Sprintf("%s#%d", last, i)})
		}
	}
	return resp, nil
}

func (*policy) Update(_ context.Context, req *pluginv1.UpdateRequest) (*pluginv1.UpdateResponse, error) {
	sum := 0.0
	for _, r := range req.GetRollouts() {
		sum += r.GetAdvantage()
	}
	return &pluginv1.UpdateResponse{Stats: map[string]float64{"rollouts": float64(len(req.GetRollouts())), "advantage_sum": sum}}, nil
}

func (p *policy) Save(_ context.Context, req *pluginv1.SaveRequest) (*pluginv1.SaveResponse, error) {
	p.saved = req.GetPath()
	return &pluginv1.SaveResponse{}, nil
}

func (p *policy) Load(_ context.Context, req *pluginv1.LoadRequest) (*pluginv1.LoadResponse, error) {
	if req.GetPath() != p.saved {
		return nil, status.Errorf(codes.NotFound, "nothing saved at %s (weights only: %v)", req.GetPath(), req.GetWeightsOnly())
	}
	return &pluginv1.LoadResponse{}, nil
}

func main() {
	mode := "ok"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	impl := analyzer{mode: mode}
	switch mode {
	case "stdout":
		fmt.Println("hello from a plugin that should not print here")
	case "slowstart":
		time.Sleep(30 * time.Second)
	case "startexit": // gives up before serving, saying why on stderr
		fmt.Fprintln(os.Stderr, "misbehave: config file missing")
		os.Exit(1)
	case "spawn":
		if err := exec.Command("sleep", "300").Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "policy":
		sdk.ServePolicy(&policy{})
		return
	case "bench", "benchhang":
		sdk.ServeBenchmarker(bench{hang: mode == "benchhang"})
		return
	case "protocol2":
		hs := sdk.Handshake
		hs.ProtocolVersion = 2
		plugin.Serve(&plugin.ServeConfig{
			HandshakeConfig: hs,
			Plugins:         plugin.PluginSet{string(sdk.KindAnalyzer): &sdk.AnalyzerPlugin{Impl: impl}},
			GRPCServer:      plugin.DefaultGRPCServer,
		})
		return
	}
	sdk.ServeAnalyzer(impl)
}
