package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/torch2cuda"
	"github.com/cudaperf/cudaperf/plugins/sdk/benchserve"
)

// backend serves the bench.Evaluator; benchserve converts to and from the
// proto. The evaluator is made at the first request, so that a host that
// only lists plugins does not pay for nvcc's version check and NVML.
type backend struct {
	once sync.Once
	ev   *bench.Evaluator
	err  error

	torchOnce sync.Once
	torch     *torch2cuda.Evaluator // torch2cuda tasks (python3 + torch)
	torchErr  error
}

func (b *backend) evaluator() (*bench.Evaluator, error) {
	b.once.Do(func() { b.ev, b.err = bench.NewEvaluator(bench.EvaluatorOptions{}) })
	return b.ev, b.err
}

func (b *backend) close() {
	if b.ev != nil {
		b.ev.Close()
	}
}

func (b *backend) Describe(context.Context) benchserve.Info {
	i := benchserve.Info{Name: "cudaperf-benchmarker", Version: version,
		Description: "nvcc + CUDA benchmarker for c2cuda tasks (compile, check against the C reference, time, refuse cheats) and torch2cuda tasks in KernelBench's format (python3 + torch: load_inline candidates against the PyTorch Model, eager and torch.compile)",
		URL:         "https://github.com/cudaperf/cudaperf/blob/main/docs/task-format.md",
		TaskKinds:   []string{benchserve.TaskKind, torch2cuda.Kind}, Compiler: "nvcc not found", DefaultArch: device.DefaultArch,
		Profiles: bench.Profiles()}
	if ev, err := b.evaluator(); err == nil {
		i.Compiler = "nvcc " + ev.Toolchain().NVCCVersion
		i.DefaultArch = ev.DefaultArch()
	}
	return i
}

func (b *backend) Devices(context.Context) []*device.Info {
	ev, err := b.evaluator()
	if err != nil {
		return nil
	}
	var out []*device.Info
	for _, w := range ev.Workers() {
		if w.Info != nil {
			out = append(out, w.Info)
		}
	}
	return out
}

func (b *backend) Compile(ctx context.Context, src []byte, filename, arch string, flags []string) (bench.Compile, string, error) {
	ev, err := b.evaluator()
	if err != nil {
		return bench.Compile{}, "", err
	}
	id, path, err := ev.StoreSource(src, filename)
	if err != nil {
		return bench.Compile{}, "", err
	}
	c, err := ev.Compile(ctx, bench.Candidate{Path: path, Flags: flags}, arch)
	if err != nil {
		return c, "", fmt.Errorf("%w: %w", bench.ErrBadJob, err)
	}
	return c, id, nil
}

func (b *backend) Run(ctx context.Context, j bench.Job) (*bench.Result, error) {
	if j.TaskKind == torch2cuda.Kind {
		b.torchOnce.Do(func() { b.torch, b.torchErr = torch2cuda.New(torch2cuda.Options{}) })
		if b.torchErr != nil {
			return nil, b.torchErr
		}
		return b.torch.Run(ctx, j)
	}
	ev, err := b.evaluator()
	if err != nil {
		return nil, err
	}
	return ev.Run(ctx, j)
}
