package main

import (
	"context"
	"fmt"
	"regexp"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

const version = "0.1.0"

const checkSharedNoSync = "TC001"

type textcount struct {
	pluginv1.UnimplementedAnalyzerServiceServer
}

func main() { sdk.ServeAnalyzer(textcount{}) }

func (textcount) Describe(context.Context, *pluginv1.DescribeAnalyzerRequest) (*pluginv1.DescribeAnalyzerResponse, error) {
	return &pluginv1.DescribeAnalyzerResponse{
		Plugin: &pluginv1.PluginInfo{Name: "textcount", Version: version,
			Description: "example Go analyzer: counts kernels, __syncthreads() and __shared__ textually"},
		Passes: []*pluginv1.PassInfo{{Name: "textcount",
			Doc: "textual counts of kernels, barriers and shared declarations\n\nComments are ignored; macros and templates are not expanded."}},
		Features: []*pluginv1.FeatureInfo{
			{Name: "kernels", Unit: "count", Range: "[0, inf)", Pass: "textcount", Doc: "number of __global__ functions defined in the file"},
			{Name: "syncthreads", Unit: "count", Range: "[0, inf)", Pass: "textcount", PerKernel: true, Doc: "__syncthreads() calls written in the kernel body (not weighted by loops)"},
			{Name: "shared_decls", Unit: "count", Range: "[0, inf)", Pass: "textcount", PerKernel: true, Doc: "__shared__ declarations in the kernel body"},
		},
		Checks: []*pluginv1.CheckInfo{{
			Id: checkSharedNoSync, Title: "kernel uses shared memory but never calls __syncthreads()",
			Doc: "Threads that read shared memory written by other threads of the block must wait at a barrier.\n\n" +
				"Bad:\n  __shared__ float t[256]; t[threadIdx.x] = in[i]; out[i] = t[255 - threadIdx.x];\n" +
				"Good:\n  __shared__ float t[256]; t[threadIdx.x] = in[i]; __syncthreads(); out[i] = t[255 - threadIdx.x];\n\n" +
				"Kernels that only use shared memory per warp with __syncwarp() are false positives of this textual check.",
			DefaultSeverity: pluginv1.Severity_SEVERITY_WARNING, Pass: "textcount",
		}},
	}, nil
}

func (textcount) Analyze(ctx context.Context, req *pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error) {
	return sdk.AnalyzeEach(ctx, req, analyzeFile), nil
}

var (
	kernelRE = regexp.MustCompile(`__global__[\w\s*&:<>,()]*?\b(\w+)\s*\(`)
	syncRE   = regexp.MustCompile(`\b__syncthreads\s*\(`)
	sharedRE = regexp.MustCompile(`\b__shared__\b`)
)

func analyzeFile(_ context.Context, _ *pluginv1.AnalyzeRequest, f *pluginv1.SourceFile) (*pluginv1.FileResult, error) {
	src := blankComments(f.GetContent())
	lines := sdk.NewLineIndex(f.GetContent())
	res := &pluginv1.FileResult{}
	kernels := 0
	for _, m := range kernelRE.FindAllSubmatchIndex(src, -1) {
		name := string(src[m[2]:m[3]])
		body, ok := bodyOf(src, m[1]-1)
		if !ok {
			continue // a declaration without a body
		}
		kernels++
		text := src[body[0]:body[1]]
		syncs := len(syncRE.FindAllIndex(text, -1))
		shared := len(sharedRE.FindAllIndex(text, -1))
		res.Features = append(res.Features,
			&pluginv1.Feature{Kernel: name, Name: "syncthreads", Value: float64(syncs), Unit: "count", Pass: "textcount"},
			&pluginv1.Feature{Kernel: name, Name: "shared_decls", Value: float64(shared), Unit: "count", Pass: "textcount"})
		if shared > 0 && syncs == 0 {
			res.Diagnostics = append(res.Diagnostics, &pluginv1.Diagnostic{
				Check: checkSharedNoSync, Severity: pluginv1.Severity_SEVERITY_WARNING, Kernel: name,
				Range:   lines.Range(f.GetPath(), m[2], m[3]),
				Message: fmt.Sprintf("kernel %s declares __shared__ memory but never calls __syncthreads()", name),
			})
		}
	}
	res.Features = append(res.Features, &pluginv1.Feature{Name: "kernels", Value: float64(kernels), Unit: "count", Pass: "textcount"})
	return res, nil
}

// bodyOf finds the brace-delimited body of the function whose parameter
// list opens at src[open]: it skips the balanced parentheses, then expects
// '{' (a ';' first means a declaration). It returns the body's byte range.
func bodyOf(src []byte, open int) ([2]int, bool) {
	depth, i := 0, open
	for ; i < len(src); i++ {
		if src[i] == '(' {
			depth++
		} else if src[i] == ')' {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	for i++; i < len(src) && src[i] != '{'; i++ {
		if src[i] == ';' {
			return [2]int{}, false
		}
	}
	start := i
	depth = 0
	for ; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return [2]int{start, i + 1}, true
			}
		}
	}
	return [2]int{}, false
}

// blankComments returns a copy of src with comments and string literals
// replaced by spaces (newlines kept), so offsets stay valid and commented-out
// code is not counted.
func blankComments(src []byte) []byte {
	out := append([]byte(nil), src...)
	blank := func(from, to int) {
		for k := from; k < to && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			blank(i, j+2)
			i = j + 1
		case src[i] == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			blank(i+1, j)
			i = j
		}
	}
	return out
}
