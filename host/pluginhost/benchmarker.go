package pluginhost

import (
	"context"
	"errors"
	"io"
	"time"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// DescribeBenchmarker returns the benchmarker's Describe answer (cached from
// start).
func (p *Plugin) DescribeBenchmarker(ctx context.Context) (*pluginv1.DescribeBenchmarkerResponse, error) {
	if _, err := p.rawClient(ctx, sdk.KindBenchmarker); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.describe.(*pluginv1.DescribeBenchmarkerResponse), nil
}

// Devices lists the benchmarker's GPUs.
func (p *Plugin) Devices(ctx context.Context) (*pluginv1.DevicesResponse, error) {
	var resp *pluginv1.DevicesResponse
	err := p.call(ctx, sdk.KindBenchmarker, "Devices", func(ctx context.Context, raw any) (err error) {
		resp, err = raw.(pluginv1.BenchmarkerServiceClient).Devices(ctx, &pluginv1.DevicesRequest{})
		return err
	})
	return resp, err
}

// Compile compiles a candidate. A compile error is resp.Ok == false, not an
// error.
func (p *Plugin) Compile(ctx context.Context, req *pluginv1.CompileRequest) (*pluginv1.CompileResponse, error) {
	var resp *pluginv1.CompileResponse
	err := p.call(ctx, sdk.KindBenchmarker, "Compile", func(ctx context.Context, raw any) (err error) {
		resp, err = raw.(pluginv1.BenchmarkerServiceClient).Compile(ctx, req)
		return err
	})
	return resp, err
}

// Run runs a candidate and calls onEvent for each streamed event, in order.
// The request timeout applies to the wait for each event, so a long run
// that keeps reporting is fine and a silent one is stopped. An error from
// onEvent stops the run and is returned as is.
func (p *Plugin) Run(ctx context.Context, req *pluginv1.RunRequest, onEvent func(*pluginv1.RunEvent) error) error {
	raw, err := p.rawClient(ctx, sdk.KindBenchmarker)
	if err != nil {
		return err
	}
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idle := p.requestTimeout(ctx)
	errHang := errors.New("idle timeout")
	timer := time.AfterFunc(idle, func() { cancel(errHang) })
	defer timer.Stop()

	hung := func() time.Duration {
		if errors.Is(context.Cause(sctx), errHang) {
			return idle
		}
		return 0
	}
	stream, err := raw.(pluginv1.BenchmarkerServiceClient).Run(sctx, req)
	if err != nil {
		return p.classify("Run", ctx, hung(), err)
	}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return p.classify("Run", ctx, hung(), err)
		}
		timer.Reset(idle)
		if err := onEvent(ev); err != nil {
			return err
		}
	}
}
