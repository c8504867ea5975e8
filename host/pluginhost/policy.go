package pluginhost

import (
	"context"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// DescribePolicy returns the policy's Describe answer (cached from start).
func (p *Plugin) DescribePolicy(ctx context.Context) (*pluginv1.DescribePolicyResponse, error) {
	if _, err := p.rawClient(ctx, sdk.KindPolicy); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.describe.(*pluginv1.DescribePolicyResponse), nil
}

// modelWork names a policy's requests that are model work: they run under
// Options.PolicyTimeout (--policy-timeout) instead of RequestTimeout.
var modelWork = map[string]bool{"Generate": true, "Update": true, "Save": true, "Load": true}

// Generate samples completions.
func (p *Plugin) Generate(ctx context.Context, req *pluginv1.GenerateRequest) (*pluginv1.GenerateResponse, error) {
	var resp *pluginv1.GenerateResponse
	err := p.call(ctx, sdk.KindPolicy, "Generate", func(ctx context.Context, raw any) (err error) {
		resp, err = raw.(pluginv1.PolicyServiceClient).Generate(ctx, req)
		return err
	})
	return resp, err
}

// Update sends rollouts with advantages for one optimisation step.
func (p *Plugin) Update(ctx context.Context, req *pluginv1.UpdateRequest) (*pluginv1.UpdateResponse, error) {
	var resp *pluginv1.UpdateResponse
	err := p.call(ctx, sdk.KindPolicy, "Update", func(ctx context.Context, raw any) (err error) {
		resp, err = raw.(pluginv1.PolicyServiceClient).Update(ctx, req)
		return err
	})
	return resp, err
}

// Save asks the policy to write its state under path.
func (p *Plugin) Save(ctx context.Context, path string) error {
	return p.call(ctx, sdk.KindPolicy, "Save", func(ctx context.Context, raw any) error {
		_, err := raw.(pluginv1.PolicyServiceClient).Save(ctx, &pluginv1.SaveRequest{Path: path})
		return err
	})
}

// Load asks the policy to restore state written by Save: all of it to
// resume, its weights alone (weightsOnly) to start from it.
func (p *Plugin) Load(ctx context.Context, path string, weightsOnly bool) error {
	return p.call(ctx, sdk.KindPolicy, "Load", func(ctx context.Context, raw any) error {
		_, err := raw.(pluginv1.PolicyServiceClient).Load(ctx, &pluginv1.LoadRequest{Path: path, WeightsOnly: weightsOnly})
		return err
	})
}
