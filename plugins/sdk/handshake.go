package sdk

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// The handshake every cudaperf plugin, in any language, must do. The cookie
// is not a secret: it only stops a user from running a plugin by hand by
// mistake. ProtocolVersion is the major version of the contract
// (cudaperf.plugin.v1); it changes only with the proto package.
const (
	MagicCookieKey   = "CUDAPERF_PLUGIN"
	MagicCookieValue = "b7c4e0f2-cudaperf-plugin-v1"
	ProtocolVersion  = 1
)

// MaxMessageBytes is the gRPC message limit on both sides, raised from gRPC's
// 4 MiB default because a batch of source files or a compile log can exceed
// it.
const MaxMessageBytes = 64 << 20

// LogLevelEnv names the environment variable through which the host tells a
// plugin its log level (trace, debug, info, warn, error).
const LogLevelEnv = "CUDAPERF_PLUGIN_LOG_LEVEL"

// HostPIDEnv names the environment variable through which the host tells a
// plugin its process id, so that the plugin can exit when the host dies.
const HostPIDEnv = "CUDAPERF_HOST_PID"

// Handshake is the go-plugin handshake configuration shared by host and
// plugins.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   MagicCookieKey,
	MagicCookieValue: MagicCookieValue,
}

// Kind is a plugin kind; it is also the go-plugin name the host dispenses.
type Kind string

// The plugin kinds of contract v1.
const (
	KindAnalyzer    Kind = "analyzer"
	KindBenchmarker Kind = "benchmarker"
	KindPolicy      Kind = "policy"
)

// Kinds lists every kind, in the order the CLI shows them.
var Kinds = []Kind{KindAnalyzer, KindBenchmarker, KindPolicy}

// Valid reports whether k is a kind of contract v1.
func (k Kind) Valid() bool {
	for _, v := range Kinds {
		if k == v {
			return true
		}
	}
	return false
}

// ClientPluginSet is the plugin set the host gives go-plugin: dispensing a
// kind returns the generated gRPC client for it
// (pluginv1.AnalyzerServiceClient, BenchmarkerServiceClient or
// PolicyServiceClient).
func ClientPluginSet() plugin.PluginSet {
	return plugin.PluginSet{
		string(KindAnalyzer):    &AnalyzerPlugin{},
		string(KindBenchmarker): &BenchmarkerPlugin{},
		string(KindPolicy):      &PolicyPlugin{},
	}
}

// AnalyzerPlugin is the go-plugin glue for AnalyzerService. Impl is set on
// the plugin side only.
type AnalyzerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl pluginv1.AnalyzerServiceServer
}

// GRPCServer registers Impl.
func (p *AnalyzerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pluginv1.RegisterAnalyzerServiceServer(s, p.Impl)
	return nil
}

// GRPCClient returns a pluginv1.AnalyzerServiceClient.
func (p *AnalyzerPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return pluginv1.NewAnalyzerServiceClient(c), nil
}

// BenchmarkerPlugin is the go-plugin glue for BenchmarkerService.
type BenchmarkerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl pluginv1.BenchmarkerServiceServer
}

// GRPCServer registers Impl.
func (p *BenchmarkerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pluginv1.RegisterBenchmarkerServiceServer(s, p.Impl)
	return nil
}

// GRPCClient returns a pluginv1.BenchmarkerServiceClient.
func (p *BenchmarkerPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return pluginv1.NewBenchmarkerServiceClient(c), nil
}

// PolicyPlugin is the go-plugin glue for PolicyService.
type PolicyPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl pluginv1.PolicyServiceServer
}

// GRPCServer registers Impl.
func (p *PolicyPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pluginv1.RegisterPolicyServiceServer(s, p.Impl)
	return nil
}

// GRPCClient returns a pluginv1.PolicyServiceClient.
func (p *PolicyPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return pluginv1.NewPolicyServiceClient(c), nil
}
