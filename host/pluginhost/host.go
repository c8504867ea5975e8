package pluginhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// Defaults for Options.
const (
	DefaultStartTimeout   = 10 * time.Second
	DefaultRequestTimeout = 60 * time.Second
	// DefaultPolicyTimeout bounds a policy's Generate, Update, Save and
	// Load: a model's batch takes seconds on a GPU and minutes on a CPU
	// (SmolLM2-135M, 20 samples of 768 tokens: more than the minute of
	// DefaultRequestTimeout on a 2-core machine).
	DefaultPolicyTimeout = 30 * time.Minute
)

// Options configures a Host.
type Options struct {
	// Dirs is the search path, in priority order (see SearchPath).
	Dirs []string
	// StartTimeout bounds the handshake plus the first Describe.
	StartTimeout time.Duration
	// RequestTimeout bounds each request (for streams: the wait for each
	// message); WithRequestTimeout overrides it per call.
	RequestTimeout time.Duration
	// PolicyTimeout bounds each request of a policy plugin's model work
	// (Generate, Update, Save, Load) in place of RequestTimeout;
	// WithRequestTimeout still overrides it per call.
	PolicyTimeout time.Duration
	// Logger receives the host's and the plugins' logs; nil discards them.
	Logger hclog.Logger
}

// Host manages the plugins found on a search path. Its methods are safe for
// concurrent use.
type Host struct {
	opts    Options
	log     hclog.Logger
	plugins []*Plugin // sorted by name
	leftOut []*Plugin // installed plugins that Select left out
	// shadowed says which manifests were ignored because an earlier one
	// has their name ("NAME: used A, ignored B").
	shadowed []string
}

// Shadowed describes the manifests ignored because a plugin of the same
// name was found first, so that a listing can say why one is unused.
func (h *Host) Shadowed() []string { return slices.Clone(h.shadowed) }

// New discovers the plugins of opts.Dirs; it starts nothing. Plugins whose
// manifest is missing, malformed or shadowed are listed with Err set, so they
// can be reported without stopping the others.
func New(opts Options) (*Host, error) {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = DefaultRequestTimeout
	}
	if opts.PolicyTimeout <= 0 {
		opts.PolicyTimeout = DefaultPolicyTimeout
	}
	h := &Host{opts: opts, log: opts.Logger}
	if h.log == nil {
		h.log = hclog.NewNullLogger()
	}
	byName := map[string]*Plugin{}
	for _, dir := range opts.Dirs {
		cands, err := scan(dir)
		if err != nil {
			return nil, err
		}
		for _, c := range cands {
			p := &Plugin{host: h, name: c.label, manifestPath: c.manifest}
			m, err := loadManifest(c.manifest)
			switch {
			case errors.Is(err, os.ErrNotExist):
				p.err = &PluginError{Plugin: c.label, Manifest: c.manifest, Op: "manifest",
					Err:  errors.New("the plugin folder has no " + ManifestFile),
					Hint: "add a " + ManifestFile + " (name, kind, language, protocol, command) or remove the folder from the plugin path"}
			case err != nil:
				if m != nil && nameRE.MatchString(m.Name) {
					p.name = m.Name
				}
				if m != nil && m.Kind.Valid() {
					p.declared = m.Kind
				}
				p.badManifest = true
				p.err = &PluginError{Plugin: p.name, Manifest: c.manifest, Op: "manifest", Err: err, Hint: "fix the manifest"}
			default:
				p.manifest = m
				p.name = m.Name
			}
			if prev, dup := byName[p.name]; dup {
				h.log.Warn("plugin shadowed", "plugin", p.name, "used", prev.manifestPath, "ignored", p.manifestPath)
				h.shadowed = append(h.shadowed, fmt.Sprintf("%s: %s is used, %s is ignored (the same name; the earlier search folder wins)", p.name, prev.manifestPath, p.manifestPath))
				continue
			}
			byName[p.name] = p
			h.plugins = append(h.plugins, p)
		}
	}
	sort.Slice(h.plugins, func(i, j int) bool { return h.plugins[i].name < h.plugins[j].name })
	return h, nil
}

// Select keeps only the plugins the user chose: with enable non-empty,
// those named there; minus those named in disable. A plugin left out is
// never started. A name that matches no discovered plugin is an error
// that lists the known ones (a typo must not silently run everything).
func (h *Host) Select(enable, disable []string) error {
	known := map[string]bool{}
	var names []string
	for _, p := range h.plugins {
		known[p.name] = true
		names = append(names, p.name)
	}
	for _, list := range [][]string{enable, disable} {
		for _, n := range list {
			if !known[n] {
				return fmt.Errorf("no plugin named %q; installed plugins: %s (see `cudaperf plugins list`)", n, strings.Join(names, ", "))
			}
		}
	}
	var kept []*Plugin
	for _, p := range h.plugins {
		if (len(enable) == 0 || slices.Contains(enable, p.name)) && !slices.Contains(disable, p.name) {
			kept = append(kept, p)
		} else {
			h.leftOut = append(h.leftOut, p)
		}
	}
	h.plugins = kept
	return nil
}

// LeftOut reports whether name is an installed plugin that Select left
// out, so that a command needing it can say so instead of "not installed".
func (h *Host) LeftOut(name string) bool {
	return slices.ContainsFunc(h.leftOut, func(p *Plugin) bool { return p.name == name })
}

// LeftOutOfKind names the plugins of kind that Select left out, so that a
// command can tell "none installed" from "none chosen" and a check of a
// left-out analyzer from a typo.
func (h *Host) LeftOutOfKind(kind sdk.Kind) []string {
	var out []string
	for _, p := range h.leftOut {
		if p.manifest != nil && p.manifest.Kind == kind {
			out = append(out, p.name)
		}
	}
	return out
}

// Plugins returns every discovered plugin, broken ones included, by name.
func (h *Host) Plugins() []*Plugin { return append([]*Plugin(nil), h.plugins...) }

// Plugin returns the plugin called name.
func (h *Host) Plugin(name string) (*Plugin, bool) {
	for _, p := range h.plugins {
		if p.name == name {
			return p, true
		}
	}
	return nil, false
}

// OfKind returns the plugins whose manifest declares kind, by name. Plugins
// with a broken manifest have no kind and are not included.
func (h *Host) OfKind(kind sdk.Kind) []*Plugin {
	var out []*Plugin
	for _, p := range h.plugins {
		if p.manifest != nil && p.manifest.Kind == kind {
			out = append(out, p)
		}
	}
	return out
}

// Broken returns the plugins whose manifest exists but could not be used
// and that may be of kind: they declare it, or no valid kind at all (a
// typo'd key stops the whole file). A command that uses plugins of kind
// reports them, since its results lack theirs; OfKind cannot list them.
func (h *Host) Broken(kind sdk.Kind) []*Plugin {
	var out []*Plugin
	for _, p := range h.plugins {
		if p.badManifest && (p.declared == kind || p.declared == "") {
			out = append(out, p)
		}
	}
	return out
}

// Start starts plugins in parallel (all discovered plugins when none are
// given) and returns the errors of those that failed, one per plugin. The
// others are ready.
func (h *Host) Start(ctx context.Context, plugins ...*Plugin) []error {
	if plugins == nil {
		plugins = h.plugins
	}
	errs := make([]error, len(plugins))
	var wg sync.WaitGroup
	for i, p := range plugins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = p.Start(ctx)
		}()
	}
	wg.Wait()
	var out []error
	for _, err := range errs {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

// Close stops every plugin of this host that runs.
func (h *Host) Close() {
	var wg sync.WaitGroup
	for _, p := range h.plugins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Kill()
		}()
	}
	wg.Wait()
}

// live holds every running plugin of the process, so that KillAll can stop
// them from a signal handler.
var live sync.Map // *Plugin → struct{}

// KillAll stops every running plugin of every Host in the process. Call it
// once on exit and from the SIGINT/SIGTERM handler.
func KillAll() {
	var wg sync.WaitGroup
	live.Range(func(k, _ any) bool {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.(*Plugin).Kill()
		}()
		return true
	})
	wg.Wait()
}

// Plugin is one discovered plugin.
type Plugin struct {
	host         *Host
	name         string
	manifestPath string
	manifest     *Manifest // nil when the manifest is broken
	// badManifest is set when the folder has a manifest that could not be
	// used; declared is the kind it names, when it names a valid one.
	badManifest bool
	declared    sdk.Kind

	mu       sync.Mutex
	err      error // sticky: discovery or start failure, crash, hang
	client   *plugin.Client
	cmd      *exec.Cmd
	raw      any // the dispensed gRPC client
	stderr   *tailBuffer
	describe any // cached Describe response
}

// Name is the plugin's name.
func (p *Plugin) Name() string { return p.name }

// Manifest is the parsed manifest, or nil when it is missing or malformed
// (Err says why).
func (p *Plugin) Manifest() *Manifest { return p.manifest }

// ManifestPath is where the manifest is (or was expected).
func (p *Plugin) ManifestPath() string { return p.manifestPath }

// Kind is the declared kind, or "" when the manifest is broken.
func (p *Plugin) Kind() sdk.Kind {
	if p.manifest == nil {
		return ""
	}
	return p.manifest.Kind
}

// DeclaredKind is the kind the plugin's manifest states, even when the
// manifest is otherwise unusable (an unsupported protocol): what a listing
// of broken plugins shows. "" when it states no valid kind.
func (p *Plugin) DeclaredKind() sdk.Kind {
	if p.manifest != nil {
		return p.manifest.Kind
	}
	return p.declared
}

// Err returns the plugin's failure, if it has failed (at discovery, start,
// or by crashing or hanging); nil while it is healthy or not yet started.
func (p *Plugin) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *Plugin) newError(op string, err error, hint string) *PluginError {
	e := &PluginError{Plugin: p.name, Kind: string(p.Kind()), Manifest: p.manifestPath, Op: op, Err: err, Hint: hint}
	if p.stderr != nil {
		e.Stderr = p.stderr.lines(5)
	}
	return e
}

// Start starts the plugin if it is not running, and checks that it answers
// Describe for its kind. It is idempotent; after a failure it keeps
// returning the same error.
func (p *Plugin) Start(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	if p.raw != nil {
		return nil
	}
	if err := p.startLocked(ctx); err != nil {
		p.err = err
		p.killLocked()
		return err
	}
	return nil
}

func (p *Plugin) startLocked(ctx context.Context) error {
	h, m := p.host, p.manifest
	exe, err := m.resolveCommand()
	if err != nil {
		return p.newError("start", err, "")
	}
	args := make([]string, len(m.Args))
	copy(args, m.Args)
	cmd := exec.Command(exe, args...)
	cmd.Dir = m.Dir()
	cmd.Env = append(os.Environ(), sdk.LogLevelEnv+"="+levelName(h.log), fmt.Sprintf("%s=%d", sdk.HostPIDEnv, os.Getpid()))
	setProcessGroup(cmd)
	p.cmd = cmd
	p.stderr = newTailBuffer(4 << 10)
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  sdk.Handshake,
		Plugins:          sdk.ClientPluginSet(),
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		StartTimeout:     h.opts.StartTimeout,
		Logger:           h.log.Named(p.name),
		Stderr:           p.stderr,
		// A Go plugin's os.Stderr is streamed over gRPC once it serves, and
		// that is where a panic or a last word before a crash goes.
		SyncStderr: p.stderr,
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(sdk.MaxMessageBytes), grpc.MaxCallSendMsgSize(sdk.MaxMessageBytes))},
	})
	p.client = client
	live.Store(p, struct{}{})
	rpc, err := client.Client()
	if err != nil {
		// go-plugin reads the plugin's stderr in a goroutine of its own, which
		// may not yet have the last lines of a plugin that exited at start-up
		// (the line that says why). Stopping the process group and then the
		// client waits for that reader to reach the end of the pipe.
		p.stopLocked()
		return p.newError("start", startError(err), startHint(err, h.opts.StartTimeout))
	}
	raw, err := rpc.Dispense(string(m.Kind))
	if err != nil {
		return p.newError("start", err, "")
	}
	p.raw = raw
	// The first Describe proves the plugin serves its kind and answers; its
	// result is needed by every caller anyway.
	dctx, cancel := context.WithTimeout(ctx, h.opts.StartTimeout)
	defer cancel()
	d, err := p.describeRaw(dctx)
	if err != nil {
		if ctx.Err() != nil {
			return p.newError("start", ctx.Err(), "")
		}
		hint := ""
		if status.Code(err) == codes.Unimplemented {
			hint = fmt.Sprintf("the plugin does not serve the %s service; check kind in %s", m.Kind, m.Path)
		}
		if errors.Is(dctx.Err(), context.DeadlineExceeded) {
			return p.newError("start", fmt.Errorf("no answer to Describe within %s after the handshake", h.opts.StartTimeout),
				"the plugin hangs at start; fix it, or raise --plugin-start-timeout if it is legitimately slow")
		}
		e, _ := p.classifyLocked("Describe", 0, err, hint)
		return e
	}
	p.describe = d
	return nil
}

// noHandshake is go-plugin's message when the plugin's stdout closed
// before a handshake line: the process exited (or closed stdout) first.
const noHandshake = "failed to read any lines from plugin's stdout"

// startError is go-plugin's start error without the guesses it appends
// ("not compiled for this architecture", ...), which startHint replaces
// with the one that fits.
func startError(err error) error {
	msg := err.Error()
	if strings.Contains(strings.ToLower(msg), noHandshake) {
		return errors.New("the plugin's stdout closed before its handshake line")
	}
	if i := strings.Index(msg, "\nThis usually means"); i > 0 {
		return errors.New(strings.TrimSpace(msg[:i]))
	}
	return err
}

func startHint(err error, timeout time.Duration) string {
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, noHandshake), strings.Contains(msg, "exited before we could connect"):
		return "the plugin exited during start-up; its stderr (below, or with --log-level=debug) says why"
	case strings.Contains(msg, "unrecognized remote plugin message"):
		return "the plugin wrote to stdout before the handshake; a plugin must write nothing but the handshake line to stdout (log to stderr)"
	case strings.Contains(msg, "incompatible api version"):
		return fmt.Sprintf("the plugin speaks another plugin protocol than this cudaperf (%d); rebuild it with the cudaperf SDK for protocol %d, or use a matching cudaperf", sdk.ProtocolVersion, sdk.ProtocolVersion)
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		return fmt.Sprintf("the plugin did not complete the handshake within %s; check that it calls the SDK's serve function, or raise --plugin-start-timeout", timeout)
	}
	return ""
}

func (p *Plugin) describeRaw(ctx context.Context) (any, error) {
	switch c := p.raw.(type) {
	case pluginv1.AnalyzerServiceClient:
		return c.Describe(ctx, &pluginv1.DescribeAnalyzerRequest{})
	case pluginv1.BenchmarkerServiceClient:
		return c.Describe(ctx, &pluginv1.DescribeBenchmarkerRequest{})
	case pluginv1.PolicyServiceClient:
		return c.Describe(ctx, &pluginv1.DescribePolicyRequest{})
	}
	return nil, fmt.Errorf("unknown client type %T", p.raw)
}

// Kill stops the plugin (gracefully, then by force) and every process in
// its process group. A killed plugin does not restart: its later requests
// fail.
func (p *Plugin) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil && p.raw != nil {
		p.err = p.newError("call", errors.New("the plugin was stopped"), "")
	}
	p.killLocked()
}

// stopLocked kills the plugin's process group first, so that no
// descendant keeps the stderr pipe open, then lets go-plugin wait for its
// readers. Used where there is nothing to shut down gracefully.
func (p *Plugin) stopLocked() {
	if p.cmd != nil && p.cmd.Process != nil {
		killProcessGroup(p.cmd.Process.Pid)
	}
	p.killLocked()
}

func (p *Plugin) killLocked() {
	if p.client == nil {
		return
	}
	p.client.Kill()
	if p.cmd != nil && p.cmd.Process != nil {
		killProcessGroup(p.cmd.Process.Pid)
	}
	p.client = nil
	p.raw = nil
	live.Delete(p)
}

// Restart starts a plugin again after its process died during a request,
// or hung in one and was stopped (its error has Crash or Hang set); other
// failures (a broken manifest, a failed start, Kill) stay.
func (p *Plugin) Restart(ctx context.Context) error {
	p.mu.Lock()
	var pe *PluginError
	if errors.As(p.err, &pe) && (pe.Crash || pe.Hang) {
		p.killLocked()
		p.err = nil
		p.raw = nil
	}
	p.mu.Unlock()
	return p.Start(ctx)
}

// Pid returns the plugin's process id, or 0 when it does not run.
func (p *Plugin) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.client == nil || p.cmd == nil || p.cmd.Process == nil || p.client.Exited() {
		return 0
	}
	return p.cmd.Process.Pid
}

// Version is the version the plugin reports in Describe ("" before start).
func (p *Plugin) Version() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i, ok := p.describe.(interface{ GetPlugin() *pluginv1.PluginInfo }); ok {
		return i.GetPlugin().GetVersion()
	}
	return ""
}

// requestTimeoutKey carries a per-call override of Options.RequestTimeout.
type requestTimeoutKey struct{}

// WithRequestTimeout returns a context under which plugin requests may take
// up to d (instead of Options.RequestTimeout), e.g. for a long benchmark.
func WithRequestTimeout(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, requestTimeoutKey{}, d)
}

// RequestTimeout is the limit WithRequestTimeout set on ctx (0: none, so
// Options.RequestTimeout applies).
func RequestTimeout(ctx context.Context) time.Duration {
	d, _ := ctx.Value(requestTimeoutKey{}).(time.Duration)
	return max(d, 0)
}

// requestTimeout is request op's limit: the caller's (WithRequestTimeout),
// else PolicyTimeout for a policy's model work, else RequestTimeout.
func (p *Plugin) requestTimeout(ctx context.Context, op string) time.Duration {
	if d := RequestTimeout(ctx); d > 0 {
		return d
	}
	if p.modelWork(op) {
		return p.host.opts.PolicyTimeout
	}
	return p.host.opts.RequestTimeout
}

// modelWork reports whether request op is a policy's model work.
func (p *Plugin) modelWork(op string) bool { return p.Kind() == sdk.KindPolicy && modelWork[op] }

// client returns the dispensed client after starting the plugin, or the
// plugin's error.
func (p *Plugin) rawClient(ctx context.Context, want sdk.Kind) (any, error) {
	if p.manifest != nil && p.manifest.Kind != want {
		return nil, p.newError("call", fmt.Errorf("the plugin is a %s, not a %s", p.manifest.Kind, want), "")
	}
	if err := p.Start(ctx); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return nil, p.err
	}
	return p.raw, nil
}

// call runs one unary request under the request timeout and turns a
// failure into a *PluginError.
func (p *Plugin) call(ctx context.Context, kind sdk.Kind, op string, fn func(ctx context.Context, raw any) error) error {
	raw, err := p.rawClient(ctx, kind)
	if err != nil {
		return err
	}
	timeout := p.requestTimeout(ctx, op)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err = fn(cctx, raw)
	if err == nil {
		return nil
	}
	// The plugin's side learns the deadline too and may cancel the stream
	// a moment before our own timer fires: its DeadlineExceeded is also
	// our timeout (else a hung plugin was reported as a stream error).
	if ctx.Err() == nil && (errors.Is(cctx.Err(), context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded) {
		return p.classify(op, ctx, timeout, err)
	}
	return p.classify(op, ctx, 0, err)
}

// classify explains a failed request. A hang or a crash makes the plugin
// failed for good (and stops it); an error the plugin returned does not.
// hungAfter is the timeout that expired, or 0.
func (p *Plugin) classify(op string, parent context.Context, hungAfter time.Duration, err error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil { // stopped or failed meanwhile (by another request)
		return p.err
	}
	if parent.Err() != nil {
		return p.newError(op, parent.Err(), "")
	}
	e, fatal := p.classifyLocked(op, hungAfter, err, "")
	if fatal {
		p.err = e
		p.killLocked()
	}
	return e
}

// classifyLocked turns err into a *PluginError; fatal means the plugin
// cannot be used any more (it hangs or has crashed).
func (p *Plugin) classifyLocked(op string, hungAfter time.Duration, err error, hint string) (e *PluginError, fatal bool) {
	if hungAfter > 0 {
		flag := "--plugin-timeout"
		if p.modelWork(op) {
			flag = "--policy-timeout"
		}
		e := p.newError(op, fmt.Errorf("no answer within %s (the plugin hangs or is too slow)", hungAfter),
			"the plugin was stopped; raise "+flag+" if the work is legitimately slow, otherwise fix or remove the plugin")
		e.Hang = true
		return e, true
	}
	if c := status.Code(err); c == codes.Unavailable || c == codes.Canceled || c == codes.Internal {
		// A crash shows up as a broken connection; give the process a moment
		// to be reaped so that its exit status can be reported.
		for i := 0; i < 50 && !p.exitedLocked(); i++ {
			time.Sleep(10 * time.Millisecond)
		}
		if p.exitedLocked() {
			hint := "this is a bug in the plugin: report it with its stderr lines, or remove it from the plugin path"
			if p.killedLocked() {
				// The host kills a plugin only after marking it failed (a
				// hang), so this SIGKILL came from elsewhere: on a machine
				// short of memory, the kernel's OOM killer (measured: the hf
				// policy's SFT update on a 24 GiB CPU machine).
				hint = "SIGKILL that the host did not send is most often the kernel's out-of-memory killer (dmesg says): " +
					"give the plugin less work per request (for the hf policy: CUDAPERF_HF_MICRO_BATCH, shorter examples) or more memory"
			}
			e := p.newError(op, fmt.Errorf("the plugin crashed (%s)", p.exitStatusLocked()), hint)
			e.Crash = true
			return e, true
		}
	}
	if s, ok := status.FromError(err); ok {
		if s.Code() == codes.Unknown && hint == "" {
			// An exception that escaped the plugin's handler (gRPC's
			// Python server answers "Exception calling application"):
			// not an answer the plugin meant, so its stderr may say more.
			e := p.newError(op, fmt.Errorf("%s", strings.TrimPrefix(s.Message(), "Exception calling application: ")),
				"an error escaped the plugin's handler: a bug in the plugin, or in what it runs (a model, a library); its stderr lines below, and --log-level debug, say more")
			e.Code = s.Code()
			return e, false
		}
		// The plugin answered with an error: the plugin stays usable, and
		// its stderr is not part of the story.
		return &PluginError{Plugin: p.name, Kind: string(p.Kind()), Manifest: p.manifestPath, Op: op,
			Err: fmt.Errorf("%s: %s", s.Code(), s.Message()), Hint: hint, Code: s.Code()}, false
	}
	return p.newError(op, err, hint), false
}

func (p *Plugin) exitedLocked() bool { return p.client != nil && p.client.Exited() }

// killedLocked reports whether the plugin's process was ended by SIGKILL.
func (p *Plugin) killedLocked() bool {
	if p.cmd == nil || p.cmd.ProcessState == nil {
		return false
	}
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

func (p *Plugin) exitStatusLocked() string {
	if p.cmd != nil && p.cmd.ProcessState != nil {
		return p.cmd.ProcessState.String()
	}
	return "exited"
}

func levelName(l hclog.Logger) string {
	switch {
	case l.IsTrace():
		return "trace"
	case l.IsDebug():
		return "debug"
	case l.IsInfo():
		return "info"
	case l.IsWarn():
		return "warn"
	}
	return "error"
}
