// Command misbehave is an analyzer plugin for the host's tests that fails
// in the way its first argument names:
//
//	ok        answers normally (feature "bytes" per file)
//	crash     dies of an unrecovered panic in the middle of Analyze
//	hang      never answers Analyze
//	panic     panics in Analyze (the SDK turns that into an error)
//	stdout    prints to stdout before the handshake
//	protocol2 does the handshake with plugin protocol 2
//	slowstart sleeps 30 s before the handshake
//	spawn     starts a child process (sleep 300) before serving
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/hashicorp/go-plugin"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

type analyzer struct {
	pluginv1.UnimplementedAnalyzerServiceServer
	mode string
}

func (a analyzer) Describe(context.Context, *pluginv1.DescribeAnalyzerRequest) (*pluginv1.DescribeAnalyzerResponse, error) {
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
	}
	return sdk.AnalyzeEach(ctx, req, func(_ context.Context, _ *pluginv1.AnalyzeRequest, f *pluginv1.SourceFile) (*pluginv1.FileResult, error) {
		return &pluginv1.FileResult{Features: []*pluginv1.Feature{{Name: "bytes", Value: float64(len(f.GetContent())), Unit: "bytes"}}}, nil
	}), nil
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
	case "spawn":
		if err := exec.Command("sleep", "300").Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
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
