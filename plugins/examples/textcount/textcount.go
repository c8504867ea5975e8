package main

import (
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

const checkSharedNoSync = "TC001"

// plugin counts, per kernel, barriers and __shared__ declarations on the
// host's syntax tree, and flags kernels that share memory without a
// barrier.
var plugin = &sdk.Plugin{
	Name: "textcount", Version: "0.2.0",
	Description: "example Go analyzer: counts kernels, __syncthreads() and __shared__ declarations on the syntax tree",
	Features: []*pluginv1.FeatureInfo{
		{Name: "kernels", Unit: "count", Range: "[0, inf)", Doc: "number of __global__ functions defined in the file"},
		{Name: "syncthreads", Unit: "count", Range: "[0, inf)", PerKernel: true, Doc: "__syncthreads() calls written in the kernel body (not weighted by loops)"},
		{Name: "shared_decls", Unit: "count", Range: "[0, inf)", PerKernel: true, Doc: "__shared__ declarations in the kernel body"},
	},
	Checks: []*pluginv1.CheckInfo{{
		Id: checkSharedNoSync, Title: "kernel uses shared memory but never calls __syncthreads()",
		Doc: "Threads that read shared memory written by other threads of the block must wait at a barrier.\n\n" +
			"Bad:\n  __shared__ float t[256]; t[threadIdx.x] = in[i]; out[i] = t[255 - threadIdx.x];\n" +
			"Good:\n  __shared__ float t[256]; t[threadIdx.x] = in[i]; __syncthreads(); out[i] = t[255 - threadIdx.x];\n\n" +
			"Kernels that share memory only within a warp synchronize with __syncwarp(); set\n" +
			"lint.settings.TC001.accept-syncwarp to true to accept that as a barrier.",
		DefaultSeverity: pluginv1.Severity_SEVERITY_WARNING,
	}},
	Options: []*pluginv1.OptionInfo{{
		Name: "accept-syncwarp", Check: checkSharedNoSync, Type: "bool", DefaultValue: "false",
		Doc: "count __syncwarp() as a barrier for TC001",
	}},
	Run: run,
}

func run(pass *sdk.Pass) error {
	acceptWarp, err := pass.OptionBool(checkSharedNoSync + ".accept-syncwarp")
	if err != nil {
		return err
	}
	kernels := pass.File.Kernels()
	for _, k := range kernels {
		if k.Body == nil {
			continue
		}
		syncs, warps, shared := 0, 0, 0
		for _, call := range k.Body.Find("call_expression") {
			switch call.ChildByField("function").Text() {
			case "__syncthreads":
				syncs++
			case "__syncwarp":
				warps++
			}
		}
		for _, decl := range k.Body.Find("declaration") {
			if isShared(decl) {
				shared++
			}
		}
		pass.KernelFeature(k.Name, "syncthreads", float64(syncs))
		pass.KernelFeature(k.Name, "shared_decls", float64(shared))
		if shared > 0 && syncs == 0 && !(acceptWarp && warps > 0) {
			pass.Reportf(checkSharedNoSync, k.Name, k.NameNode, "kernel %s declares __shared__ memory but never calls __syncthreads()", k.Name)
		}
	}
	pass.FileFeature("kernels", float64(len(kernels)))
	return nil
}

// isShared reports whether a declaration has the __shared__ qualifier.
func isShared(decl *sdk.Node) bool {
	for _, c := range decl.NamedChildren() {
		if c.Kind() == "cuda_qualifier" && c.Text() == "__shared__" {
			return true
		}
	}
	return false
}
