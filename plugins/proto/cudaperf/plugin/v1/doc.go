// Package pluginv1 is the generated Go code for version 1 of the plugin
// contract (proto package cudaperf.plugin.v1): AnalyzerService,
// BenchmarkerService and PolicyService with their messages.
//
// The .proto files next to this file are the source of truth; regenerate
// with plugins/proto/generate.sh and never edit the .pb.go files. A released
// version is frozen: add fields with new numbers, and put incompatible
// changes in a new package (v2).
package pluginv1
