package sdk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// parentPollInterval is how often a plugin checks that the host is alive.
// Polling getppid is the portable way (PR_SET_PDEATHSIG is Linux-only and
// fires when the forking thread, not the process, exits); 200 ms bounds how
// long an orphan lives at a negligible cost.
const parentPollInterval = 200 * time.Millisecond

var (
	loggerOnce sync.Once
	logger     hclog.Logger
)

// Logger returns the plugin's logger: JSON lines on stderr, which the host
// reads and re-logs at the same level under the plugin's name. Use it (or
// write to stderr) for all output; stdout belongs to the handshake.
func Logger() hclog.Logger {
	loggerOnce.Do(func() {
		level := hclog.LevelFromString(os.Getenv(LogLevelEnv))
		if level == hclog.NoLevel {
			level = hclog.Info
		}
		logger = hclog.New(&hclog.LoggerOptions{
			Name:       filepath.Base(os.Args[0]),
			Level:      level,
			Output:     os.Stderr, // captured before plugin.Serve redirects os.Stderr
			JSONFormat: true,
		})
	})
	return logger
}

// ServeAnalyzer serves impl as an analyzer plugin. It returns only when the
// host asks the plugin to stop; a plugin's main should call it last.
func ServeAnalyzer(impl pluginv1.AnalyzerServiceServer) {
	serve(KindAnalyzer, &AnalyzerPlugin{Impl: impl})
}

// ServeBenchmarker serves impl as a benchmarker plugin.
func ServeBenchmarker(impl pluginv1.BenchmarkerServiceServer) {
	serve(KindBenchmarker, &BenchmarkerPlugin{Impl: impl})
}

// ServePolicy serves impl as a policy plugin.
func ServePolicy(impl pluginv1.PolicyServiceServer) {
	serve(KindPolicy, &PolicyPlugin{Impl: impl})
}

func serve(kind Kind, p plugin.Plugin) {
	log := Logger()
	go exitWithHost(hostPID(), log)
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: Handshake,
		Plugins:         plugin.PluginSet{string(kind): p},
		GRPCServer:      grpcServerFactory(log),
		Logger:          log,
	})
}

// hostPID is the host's process id: from HostPIDEnv, which the host sets,
// else the parent's.
func hostPID() int {
	if pid, err := strconv.Atoi(os.Getenv(HostPIDEnv)); err == nil && pid > 0 {
		return pid
	}
	return os.Getppid()
}

// exitWithHost ends the process (and its process group, see
// killOwnProcessGroup) when the host is gone. A host killed with SIGKILL
// cannot clean up, and this is what prevents orphans then. The host counts
// as gone when we have been re-parented and the host process is dead or a
// zombie; knowing its pid from the start closes the race of a host that
// dies while the plugin is still starting, and also covers a plugin
// started through a wrapper script that did not exec.
func exitWithHost(host int, log hclog.Logger) {
	for {
		if os.Getppid() != host && !processAlive(host) {
			// Kill first: with the host gone, stderr is a broken pipe and
			// the log write below may end the process (SIGPIPE) by itself.
			killOwnProcessGroup()
			log.Warn("host process is gone; exiting", "host_pid", host)
			os.Exit(0)
		}
		time.Sleep(parentPollInterval)
	}
}

// grpcServerFactory builds the plugin's gRPC server with the raised message
// limit and panic recovery.
func grpcServerFactory(log hclog.Logger) func([]grpc.ServerOption) *grpc.Server {
	return func(opts []grpc.ServerOption) *grpc.Server {
		opts = append(opts,
			grpc.MaxRecvMsgSize(MaxMessageBytes),
			grpc.MaxSendMsgSize(MaxMessageBytes),
			grpc.ChainUnaryInterceptor(recoverUnary(log)),
			grpc.ChainStreamInterceptor(recoverStream(log)),
		)
		return grpc.NewServer(opts...)
	}
}

// recoverUnary turns a panic in a handler into an INTERNAL error, so one bad
// request does not kill the plugin (and every later request with it).
func recoverUnary(log hclog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = panicError(log, info.FullMethod, r)
			}
		}()
		return h(ctx, req)
	}
}

func recoverStream(log hclog.Logger) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = panicError(log, info.FullMethod, r)
			}
		}()
		return h(srv, ss)
	}
}

func panicError(log hclog.Logger, method string, r any) error {
	log.Debug("panic in handler", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	return status.Errorf(codes.Internal, "plugin panicked in %s: %v (this is a bug in the plugin; --log-level debug shows its stack)", method, r)
}
