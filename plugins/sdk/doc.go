// Package sdk is the Go SDK for writing cudaperf plugins.
//
// A plugin is a separate program that the cudaperf host starts and talks to
// over gRPC (hashicorp/go-plugin). To write one, implement the generated
// server interface for its kind and call the matching Serve function from
// main:
//
//	type counter struct {
//		pluginv1.UnimplementedAnalyzerServiceServer
//	}
//
//	func (counter) Describe(ctx context.Context, _ *pluginv1.DescribeAnalyzerRequest) (*pluginv1.DescribeAnalyzerResponse, error) { … }
//	func (counter) Analyze(ctx context.Context, req *pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error) {
//		return sdk.AnalyzeEach(ctx, req, analyzeFile), nil
//	}
//
//	func main() { sdk.ServeAnalyzer(counter{}) }
//
// and put a plugin.yaml next to the binary (see the host/pluginhost package).
//
// Serve does the handshake (magic cookie, protocol version 1), raises the
// gRPC message limit to MaxMessageBytes, turns a panic in a handler into an
// INTERNAL error instead of a dead plugin, logs JSON to stderr (stdout
// carries the handshake and must not be written to), and exits when the host
// process dies, so a killed host leaves no plugin behind.
//
// The host uses the same package for the handshake constants and the
// go-plugin glue (ClientPluginSet), so both sides agree by construction.
package sdk
