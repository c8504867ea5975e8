package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/dataset"
	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/rank"
	"github.com/cudaperf/cudaperf/host/report"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// rankArch is the device the ranker's features are computed for unless
// --arch says otherwise: the measurements were taken on an H200, and
// occupancy depends on the device.
const rankArch = "sm_90"

// defaultFeaturePlugins are the analyzers whose features the ranker uses:
// the built-in one. Third-party analyzers are opt-in (--feature-plugin), so
// installing one never invalidates the default model.
var defaultFeaturePlugins = []string{"cudaperf-analyzer"}

// retrainHint says how to rebuild the embedded model.
const retrainHint = "retrain the built-in model with `make rank-model` (bench/rank/train-default.sh), or train one with `cudaperf rank train` and score with `cudaperf rank score --model FILE`"

func rankCommand() *cli.Command {
	return &cli.Command{
		Name:  "rank",
		Usage: "train, validate and apply the structural ranker (the learned score of a kernel's features)",
		Description: "The ranker scores a CUDA file from its structural features so that, among\n" +
			"implementations of the same task, a faster one scores higher. It is trained on\n" +
			"measured variants (bench/suites/c2cuda: measurements.jsonl, split.yaml) with a\n" +
			"pairwise logistic loss, and validated on held-out tasks. A score compares\n" +
			"variants of one program; it has no unit and says nothing across tasks.\n\n" +
			"   cudaperf rank train --out model.json     # train on the train split\n" +
			"   cudaperf rank eval                        # validation split, with controls\n" +
			"   cudaperf rank score kernels/*.cu          # score files (built-in model)\n\n" +
			"docs/ranker.md has the design and the measured results.",
		Subcommands: []*cli.Command{rankTrainCommand(), rankEvalCommand(), rankScoreCommand()},
	}
}

func rankDataFlags() []cli.Flag {
	suite := filepath.Join("bench", "suites", "c2cuda")
	return []cli.Flag{
		&cli.StringFlag{Name: "suite", Value: suite, Usage: "the measured suite `DIR` (measurements.jsonl, split.yaml, <task>/variants/*.cu)"},
		&cli.StringFlag{Name: "arch", Value: rankArch, Usage: "compute features for `ARCH` (the GPU the times were measured on)"},
		&cli.StringFlag{Name: "config", Usage: "read `FILE` instead of the nearest .cudaperf.yaml"},
		&cli.StringSliceFlag{Name: "feature-plugin", Usage: "use the features of analyzer `PLUGIN` (repeatable; default: " + strings.Join(defaultFeaturePlugins, ", ") + ")"},
	}
}

// sizesFlag chooses whether the features are computed with each task
// configuration's problem sizes bound.
var sizesFlag = &cli.StringFlag{Name: "sizes", Value: "none", Usage: "`MODE`: none (features as lint computes them, no problem size) or task (each configuration's sizes bound, so per-call features exist; the model also learns the unbound vectors, so it scores files without sizes too)"}

func rankTrainCommand() *cli.Command {
	return &cli.Command{
		Name:      "train",
		Usage:     "train a ranker on the suite's train split (early stopping on validation)",
		ArgsUsage: " ",
		Description: "Computes the features of every measured variant with the analyzer plugins,\n" +
			"pairs variants of each task (top quartile against bottom quartile by time, or\n" +
			"--pairs all), and fits the model; then scores the validation split and records\n" +
			"the result in the model file. The test split is never read: `cudaperf rank eval\n" +
			"--side test` scores it (once, for the final number). Deterministic for a --seed.",
		Flags: append(rankDataFlags(), sizesFlag,
			&cli.StringFlag{Name: "out", Required: true, Usage: "write the model to `FILE` (JSON)"},
			&cli.StringFlag{Name: "kind", Value: "mlp", Usage: "`MODEL`: mlp or linear"},
			&cli.StringFlag{Name: "hidden", Value: "16", Usage: "hidden layer `WIDTHS` of the MLP, comma-separated"},
			&cli.StringFlag{Name: "pairs", Value: "quartile", Usage: "`RULE`: quartile (top vs bottom quartile, the paper's) or all (every pair outside --tie-band)"},
			&cli.Float64Flag{Name: "tie-band", Value: 0.1, Usage: "with --pairs all, pair two variants only when the slower is more than `RATIO` slower"},
			&cli.BoolFlag{Name: "all-configs", Usage: "pair on every configuration whose fastest variant runs >= --min-ms, not only the primary"},
			&cli.Float64Flag{Name: "min-ms", Value: dataset.MinFastestMs, Usage: "with --all-configs, skip configurations faster than `MS`"},
			&cli.StringFlag{Name: "features", Usage: "use only these `NAMES` (comma-separated; default: every feature)"},
			&cli.StringFlag{Name: "featurizer", Usage: "`NAME`: paper-proxies thresholds the paper's 11 features as the paper did"},
			&cli.Float64Flag{Name: "lr", Value: 0.01, Usage: "Adam learning `RATE`"},
			&cli.Float64Flag{Name: "l2", Value: 1e-3, Usage: "weight decay `LAMBDA`"},
			&cli.IntFlag{Name: "epochs", Value: 1000, Usage: "at most `N` full-batch epochs"},
			&cli.IntFlag{Name: "patience", Value: 100, Usage: "stop after `N` epochs without a better validation loss"},
			&cli.IntFlag{Name: "ensemble", Value: 1, Usage: "average `N` models trained with consecutive seeds"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random `SEED` (initial weights)"},
		),
		Action: runRankTrain,
	}
}

func rankEvalCommand() *cli.Command {
	return &cli.Command{
		Name:      "eval",
		Usage:     "validate a ranker on held-out tasks, against five controls",
		ArgsUsage: " ",
		Description: "Scores every variant of the held-out tasks and reports, per task and as the\n" +
			"mean over tasks with 95% bootstrap intervals (tasks resampled), the within-task\n" +
			"Spearman ρ and Kendall τ-b against measured speed and the accuracy on\n" +
			"top-vs-bottom-quartile pairs, at the primary configuration and averaged over all\n" +
			"configurations. Beside the model: five controls trained on the same train tasks\n" +
			"(a linear model, the paper's 11 features alone, the paper's thresholded proxies,\n" +
			"the best single feature chosen on train, and the model trained on shuffled\n" +
			"labels), each with a paired bootstrap interval of model − control.\n\n" +
			"Bring your own set with --measurements FILE (results.jsonl from `cudaperf bench`)\n" +
			"and --kernels DIR (where its variant files are); every task in it is scored.",
		Flags: append(rankDataFlags(),
			&cli.StringFlag{Name: "model", Usage: "the model `FILE` (default: the built-in model)"},
			&cli.StringFlag{Name: "side", Value: "validation", Usage: "held-out `SIDE` of the split: validation or test (test: once, for the final number)"},
			&cli.StringFlag{Name: "measurements", Usage: "evaluate on the results in `FILE` instead of the suite's split"},
			&cli.StringFlag{Name: "kernels", Usage: "with --measurements: the variant files are under `DIR` (<DIR>/<task>/variants/<name>.cu or the recorded path)"},
			&cli.BoolFlag{Name: "no-controls", Usage: "score the model only"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text, markdown or json"},
			&cli.StringFlag{Name: "plot", Usage: "write score vs measured speedup per task to `FILE.png`"},
			&cli.BoolFlag{Name: "record", Usage: "store the result in the --model file's metrics (as metrics.<side>)"},
		),
		Action: runRankEval,
	}
}

func rankScoreCommand() *cli.Command {
	return &cli.Command{
		Name:      "score",
		Usage:     "score CUDA files with the ranker",
		ArgsUsage: "FILE.cu...",
		Description: "Prints the structural score of every kernel and of every file (the file's\n" +
			"vector is the mean of its kernels'). Higher means predicted faster, compared\n" +
			"with other implementations of the same task; the number has no unit.\n" +
			"JSON: an array of {\"file\", \"kernel\", \"score\"}, a file's own score with \"kernel\": \"\".\n\n" +
			"--task T (or --set n=...) binds the problem size, as the model was trained when it\n" +
			"says sizes: task (the built-in one does); without it the size-dependent features\n" +
			"are missing and the model scores as lint does.\n\n" +
			"   cudaperf rank score --task conv1d          # the task's variants at its primary size\n" +
			"   cudaperf rank score --task conv1d mine.cu  # a candidate of that task",
		Flags: append(sizeFlags(),
			&cli.StringFlag{Name: "model", Usage: "the model `FILE` (default: the built-in model)"},
			&cli.StringFlag{Name: "arch", Usage: "compute features for `ARCH` (default: the model's)"},
			&cli.StringFlag{Name: "config", Usage: "read `FILE` instead of the nearest .cudaperf.yaml"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
		),
		Action: runRankScore,
	}
}

// loadModel reads --model or the built-in model.
func loadModel(path string) (*rank.Model, error) {
	if path == "" {
		m, err := rank.Default()
		if err != nil {
			return nil, failuref("%v", err)
		}
		return m, nil
	}
	m, err := rank.Load(path)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return m, nil
}

// currentSchema converts the analyzers' Describe answers into the ranker's
// schema, naming features as lint's merger names them in vectors (a name
// two plugins declare stays plain for the first in name order and is
// "<plugin>.<name>" for the others). A plugin that cannot describe itself
// is an error if it is one of need, and is left out otherwise: a broken
// third-party analyzer must not take away a score that does not read it.
func currentSchema(ctx context.Context, h *pluginhost.Host, need []string) (rank.Schema, error) {
	type decl struct {
		plugin string
		f      rank.Feature
	}
	var decls []decl
	owner := map[string]string{}
	for _, p := range h.OfKind(sdk.KindAnalyzer) {
		d, err := p.DescribeAnalyzer(ctx)
		if err != nil {
			if slices.Contains(need, p.Name()) {
				return nil, err
			}
			continue
		}
		for _, f := range d.GetFeatures() {
			decls = append(decls, decl{p.Name(), rank.Feature{Name: f.GetName(), Plugin: p.Name(), Unit: f.GetUnit(),
				Range: f.GetRange(), PerKernel: f.GetPerKernel(), Version: int(max(1, f.GetVersion()))}})
			if o, ok := owner[f.GetName()]; !ok || p.Name() < o {
				owner[f.GetName()] = p.Name()
			}
		}
	}
	var s rank.Schema
	for _, d := range decls {
		if owner[d.f.Name] != d.plugin {
			d.f.Name = d.plugin + "." + d.f.Name
		}
		s = append(s, d.f)
	}
	return s.Sorted(), nil
}

// onlyPlugins keeps the features of the named plugins.
func onlyPlugins(s rank.Schema, plugins []string) rank.Schema {
	var out rank.Schema
	for _, f := range s {
		if slices.Contains(plugins, f.Plugin) {
			out = append(out, f)
		}
	}
	return out
}

// kernelsByFile converts lint's feature rows into the ranker's kernels
// (only the schema's features), per file, sorted by kernel name: the one
// conversion from the analyzers' answers to the ranker's plain vectors.
func kernelsByFile(rows []report.KernelFeatures, schema rank.Schema) map[string][]rank.Kernel {
	out := map[string][]rank.Kernel{}
	for _, r := range rows {
		v := rank.Vector{}
		perKernel := false
		for _, f := range schema {
			if x, ok := r.Features[f.Name]; ok {
				v[f.Name] = x
				perKernel = perKernel || f.PerKernel
			}
		}
		if !perKernel {
			continue // a kernel only some other plugin reported (e.g. a phantom one)
		}
		file := filepath.Clean(r.File)
		out[file] = append(out[file], rank.Kernel{Name: r.Kernel, Vector: v})
	}
	for _, ks := range out {
		sort.Slice(ks, func(i, j int) bool { return ks[i].Name < ks[j].Name })
	}
	return out
}

// rankData is a measured set of tasks with their features.
type rankData struct {
	tasks  []rank.Task
	schema rank.Schema // the analyzers' features now (the feature plugins')
}

// side returns the tasks of one side of the split ("" = all).
func (d *rankData) side(s string) []rank.Task {
	var out []rank.Task
	for _, t := range d.tasks {
		if s == "" || t.Side == s {
			out = append(out, t)
		}
	}
	return out
}

// named returns the tasks with these names, in the names' order, or an
// error naming the first missing one.
func (d *rankData) named(names []string) ([]rank.Task, error) {
	var out []rank.Task
	for _, n := range names {
		i := slices.IndexFunc(d.tasks, func(t rank.Task) bool { return t.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("task %s, which the model was trained on, is not in the data", n)
		}
		out = append(out, d.tasks[i])
	}
	return out, nil
}

// loadRankData reads measurements, resolves each accepted variant's file,
// and computes the features of all files in one analysis.
//
// With bindSizes, each task's files are analyzed once per configuration
// with its problem sizes bound (task.yaml next to the variants folder), so
// size-dependent features (blocks, bytes per call, time bounds) exist;
// otherwise once, without sizes, as lint sees a file.
func loadRankData(c *cli.Context, measurements, splitPath, kernelsDir string, plugins []string, bindSizes bool) (*rankData, error) {
	var split *dataset.Split
	if splitPath != "" {
		s, err := dataset.LoadSplit(splitPath)
		if err != nil {
			return nil, usageErrorf("%v", err)
		}
		split = s
	}
	results, err := dataset.Load(measurements)
	if err != nil {
		return nil, usageErrorf("%v (measure the suite with `cudaperf bench`, or name the results with --measurements)", err)
	}
	byTask := map[string]*rank.Task{}
	var order []string
	var paths []string
	fileOf := map[string]string{} // task/variant → file
	for _, r := range results {
		if r.Kind != bench.KindVariant || r.Verdict == nil || !r.Verdict.Accepted {
			continue
		}
		file, err := variantFile(r, kernelsDir)
		if err != nil {
			return nil, usageErrorf("%v", err)
		}
		t := byTask[r.Task]
		if t == nil {
			t = &rank.Task{Name: r.Task}
			if split != nil {
				t.Side = split.Side(r.Task)
			}
			byTask[r.Task] = t
			order = append(order, r.Task)
		}
		v := rank.Variant{Name: r.Candidate, File: file, Times: map[string]float64{}}
		for _, cr := range r.Verdict.Configs {
			if !slices.Contains(t.Configs, cr.Name) {
				t.Configs = append(t.Configs, cr.Name)
			}
			if cr.Primary {
				t.Primary = cr.Name
			}
			if cr.Pass && cr.Time != nil && cr.Time.Median > 0 {
				v.Times[cr.Name] = cr.Time.Median
			}
		}
		t.Variants = append(t.Variants, v)
		paths = append(paths, file)
		fileOf[r.Task+"/"+r.Candidate] = file
	}
	if len(order) == 0 {
		return nil, usageErrorf("%s: no accepted variant results", measurements)
	}
	s, err := openAnalysis(c)
	if err != nil {
		return nil, err
	}
	defer s.host.Close()
	schema, err := currentSchema(c.Context, s.host, plugins)
	if err != nil {
		return nil, failuref("%v", err)
	}
	schema = onlyPlugins(schema, plugins)
	if len(schema) == 0 {
		return nil, usageErrorf("no analyzer plugin named %s declares features: `cudaperf plugins list` shows the installed ones", strings.Join(plugins, ", "))
	}
	d := &rankData{schema: schema}
	sort.Strings(order)
	res, problems := s.analyze(c, paths) // without sizes, as lint
	if problems != nil {
		return nil, problems
	}
	ks := kernelsByFile(res.Features, schema)
	for _, name := range order {
		t := byTask[name]
		if bindSizes {
			if err := analyzeAtSizes(c, s, t, schema); err != nil {
				return nil, err
			}
		}
		var kept []rank.Variant
		for _, v := range t.Variants {
			if bindSizes {
				v.Unbound = ks[filepath.Clean(v.File)]
			} else {
				v.Kernels = ks[filepath.Clean(v.File)]
			}
			if len(v.Kernels) == 0 {
				fmt.Fprintf(c.App.ErrWriter, "cudaperf: %s: no kernel found; variant %s/%s left out\n", v.File, t.Name, v.Name)
				continue
			}
			kept = append(kept, v)
		}
		sort.Slice(kept, func(i, j int) bool { return kept[i].Name < kept[j].Name })
		t.Variants = kept
		d.tasks = append(d.tasks, *t)
	}
	return d, nil
}

// variantFile finds the source of a measured variant: under --kernels
// (<dir>/<task>/variants/<name>.cu, <dir>/<task>/<name>.cu, <dir>/<path>),
// else the path the measurement recorded.
func variantFile(r bench.Result, dir string) (string, error) {
	var tries []string
	if dir != "" {
		tries = append(tries, filepath.Join(dir, r.Task, "variants", r.Candidate+".cu"),
			filepath.Join(dir, r.Task, r.Candidate+".cu"), filepath.Join(dir, r.Path))
	}
	tries = append(tries, r.Path)
	for _, p := range tries {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("variant %s/%s: no source file (tried %s): name the folder that holds <task>/variants/ (--suite; with rank eval --measurements, --kernels)", r.Task, r.Candidate, strings.Join(tries, ", "))
}

func featurePlugins(c *cli.Context) []string {
	if p := c.StringSlice("feature-plugin"); len(p) > 0 {
		return p
	}
	return defaultFeaturePlugins
}

// bindSizes reads --sizes.
func bindSizes(mode string) (bool, error) {
	switch mode {
	case "none", "":
		return false, nil
	case "task":
		return true, nil
	}
	return false, usageErrorf("--sizes %q: use none or task", mode)
}

func trainOptions(c *cli.Context) (rank.Options, error) {
	o := rank.Options{
		Kind: c.String("kind"), Featurizer: c.String("featurizer"), Unbound: c.String("sizes") == "task",
		AllConfigs: c.Bool("all-configs"), MinMs: c.Float64("min-ms"),
		LR: c.Float64("lr"), L2: c.Float64("l2"), MaxEpochs: c.Int("epochs"), Patience: c.Int("patience"),
		Ensemble: c.Int("ensemble"), Seed: c.Uint64("seed"),
	}
	switch c.String("pairs") {
	case "quartile":
	case "all":
		o.Pairs = rank.PairRule{All: true, TieBand: c.Float64("tie-band")}
	default:
		return o, usageErrorf("--pairs %q: use quartile or all", c.String("pairs"))
	}
	if o.Kind == "mlp" {
		for _, w := range strings.Split(c.String("hidden"), ",") {
			n, err := strconv.Atoi(strings.TrimSpace(w))
			if err != nil || n < 1 {
				return o, usageErrorf("--hidden %q: give positive layer widths, e.g. 16 or 32,16", c.String("hidden"))
			}
			o.Hidden = append(o.Hidden, n)
		}
	}
	if f := c.String("features"); f != "" {
		for _, n := range strings.Split(f, ",") {
			o.Features = append(o.Features, strings.TrimSpace(n))
		}
	}
	if o.Ensemble < 1 || o.MaxEpochs < 1 || o.Patience < 1 || o.LR <= 0 || o.L2 < 0 {
		return o, usageErrorf("--ensemble, --epochs, --patience and --lr must be positive, --l2 not negative")
	}
	return o, nil
}

func runRankTrain(c *cli.Context) error {
	if err := checkOutFile("out", c.String("out")); err != nil {
		return err
	}
	opt, err := trainOptions(c)
	if err != nil {
		return err
	}
	bind, err := bindSizes(c.String("sizes"))
	if err != nil {
		return err
	}
	suite := c.String("suite")
	d, err := loadRankData(c, filepath.Join(suite, "measurements.jsonl"), filepath.Join(suite, dataset.SplitFile), suite, featurePlugins(c), bind)
	if err != nil {
		return err
	}
	if opt.Features != nil {
		for _, n := range opt.Features {
			if !slices.Contains(d.schema.Names(), n) {
				return usageErrorf("--features: no feature %q; known: %s", n, strings.Join(d.schema.Names(), ", "))
			}
		}
	}
	train, val := d.side("train"), d.side("validation")
	if len(train) == 0 {
		return usageErrorf("%s: the split has no measured train task", c.String("suite"))
	}
	m, err := rank.Train(d.schema, train, val, opt)
	if err != nil {
		return usageErrorf("%v", err)
	}
	m.Training.Arch = c.String("arch")
	m.Training.Sizes = c.String("sizes")
	if len(val) > 0 {
		m.Training.Metrics = map[string]rank.Summary{}
		recordMetrics(m, "validation", val, bind)
		s := m.Training.Metrics["validation"]
		fmt.Fprintf(c.App.ErrWriter, "validation (%d tasks, primary configuration): ρ %s, τ %s, pair accuracy %s\n",
			s.Tasks, fmtCI(s.Rho), fmtCI(s.Tau), fmtCI(s.Acc))
	}
	if err := m.Save(c.String("out")); err != nil {
		return failuref("%v", err)
	}
	fmt.Fprintf(c.App.ErrWriter, "wrote %s: %s, %d inputs, %d training pairs from %d tasks, best epochs %v\n",
		c.String("out"), m.Kind, len(m.Inputs), m.Training.Pairs, len(train), m.Training.Epochs)
	return nil
}

// recordMetrics stores m's result on tasks in its metrics as side, and,
// for a model trained with sizes bound, its result without sizes (how lint
// scores) as side + nosizesSuffix.
func recordMetrics(m *rank.Model, side string, tasks []rank.Task, bound bool) {
	sc := m.NewScorer()
	score := func(v rank.Variant) float64 { return sc.ScoreFile(v.Kernels) }
	hash := rank.Hash(tasks)
	s := rank.Summarize(rank.ByTask(rank.Evaluate(tasks, score, rank.PrimaryOnly)), evalSeed)
	s.DataHash = hash
	m.Training.Metrics[side] = s
	if bound {
		s := rank.Summarize(rank.ByTask(rank.Evaluate(rank.WithoutSizes(tasks), score, rank.PrimaryOnly)), evalSeed)
		s.DataHash = hash
		m.Training.Metrics[side+nosizesSuffix] = s
	}
}

// nosizesSuffix marks metrics measured on features computed without
// problem sizes.
const nosizesSuffix = "-nosizes"

func fmtCI(ci rank.CI) string {
	return fmt.Sprintf("%.3f [%.3f, %.3f]", ci.Mean, ci.Lo, ci.Hi)
}

func runRankScore(c *cli.Context) error {
	files, sizes, err := taskSizes(c)
	if err != nil {
		return err
	}
	if c.NArg() > 0 {
		files = c.Args().Slice()
	}
	if len(files) == 0 {
		return usageErrorf("name the CUDA files to score, or a --task whose variants to score")
	}
	format := c.String("format")
	if format != "text" && format != "json" {
		return usageErrorf("--format %q: use text or json", format)
	}
	m, err := loadModel(c.String("model"))
	if err != nil {
		return err
	}
	if !c.IsSet("arch") && m.Training.Arch != "" {
		if err := c.Set("arch", m.Training.Arch); err != nil {
			return failuref("%v", err)
		}
	}
	s, err := openAnalysis(c)
	if err != nil {
		return err
	}
	defer s.host.Close()
	if err := checkModelSchema(c.Context, s.host, m, c.String("model")); err != nil {
		return err
	}
	s.sizes, s.setNames = sizes, setNames(c)
	res, problems := s.analyze(c, files)
	scores := scoreFiles(m, res.Features)
	if format == "json" {
		err = writeJSON(c.App.Writer, scores)
	} else {
		for _, sc := range scores {
			k := sc.Kernel
			if k == "" {
				k = "(file)"
			}
			fmt.Fprintf(c.App.Writer, "%s\t%s\t%.4f\n", sc.File, k, sc.Score)
		}
	}
	if err != nil {
		return failuref("write scores: %v", err)
	}
	return problems
}

// checkModelSchema refuses a model whose features differ from what the
// analyzers produce now, naming them.
func checkModelSchema(ctx context.Context, h *pluginhost.Host, m *rank.Model, path string) error {
	which := "the built-in model"
	if path != "" {
		which = "model " + path
	}
	for _, name := range m.Schema.Plugins() {
		if !slices.ContainsFunc(h.OfKind(sdk.KindAnalyzer), func(p *pluginhost.Plugin) bool { return p.Name() == name }) {
			return usageErrorf("%s reads the features of analyzer %s, which is not in use: --plugins or --no-plugins (or plugins.enable in .cudaperf.yaml) left it out, or it is not installed (`cudaperf plugins list`)", which, name)
		}
	}
	now, err := currentSchema(ctx, h, m.Schema.Plugins())
	if err != nil {
		return failuref("%v", err)
	}
	return schemaMismatch(m, now, path)
}

// schemaMismatch refuses to score m (read from path; "" is the built-in
// model) on features of schema now, saying how to retrain it.
func schemaMismatch(m *rank.Model, now rank.Schema, path string) error {
	err := rank.CheckSchema(m.Schema, now)
	if err == nil {
		return nil
	}
	if se, ok := err.(*rank.SchemaError); ok {
		se.Retrain = retrainHint
		if path != "" {
			se.Retrain = "retrain " + path + " with `cudaperf rank train`"
		}
	}
	return usageErrorf("%v", err)
}

// fileScore is one line of `rank score`: a kernel's score, or a file's
// with Kernel "".
type fileScore struct {
	File   string  `json:"file"`
	Kernel string  `json:"kernel"`
	Score  float64 `json:"score"`
}

// scoreFiles scores every kernel and file of lint's feature rows, files in
// the rows' order.
func scoreFiles(m *rank.Model, rows []report.KernelFeatures) []fileScore {
	ks := kernelsByFile(rows, m.Schema)
	sc := m.NewScorer()
	out := []fileScore{} // JSON: an empty array, not null, when no file has a kernel
	seen := map[string]bool{}
	for _, r := range rows {
		f := filepath.Clean(r.File)
		if seen[f] || len(ks[f]) == 0 {
			continue
		}
		seen[f] = true
		out = append(out, fileScore{File: r.File, Score: sc.ScoreFile(ks[f])})
		for _, k := range ks[f] {
			out = append(out, fileScore{File: r.File, Kernel: k.Name, Score: sc.Score(k.Vector)})
		}
	}
	return out
}

// printLintScores prints, after lint's findings, each file's structural
// score from the built-in model, with the model's held-out ρ beside it so
// the reader knows how far to trust it. A model that no longer matches the
// analyzers' features prints one line to stderr instead (lint still
// succeeds: the findings do not depend on the model).
func printLintScores(c *cli.Context, s *analysisSession, rows []report.KernelFeatures) {
	m, err := rank.Default()
	if err == nil {
		err = checkModelSchema(c.Context, s.host, m, "")
	}
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "cudaperf: structural score not shown: %v\n", err)
		return
	}
	trust := modelTrust(m)
	if arch := s.arch(); arch != "" && m.Training.Arch != "" && arch != m.Training.Arch {
		// Features depend on the device (occupancy, registers): the score
		// of another device's features is one the ranker never learned.
		trust += fmt.Sprintf("; features for %s, the ranker learned %s's", arch, m.Training.Arch)
	}
	for _, sc := range scoreFiles(m, rows) {
		if sc.Kernel == "" {
			fmt.Fprintf(c.App.Writer, "%s:1:1: note: structural score %+.2f (%s) [score]\n", sc.File, sc.Score, trust)
		}
	}
}

// arch is the device the session's features are computed for, as sm_XY;
// "" when no device was named or found (each plugin's default).
func (s *analysisSession) arch() string {
	if cc := s.target().GetComputeCapability(); cc != "" {
		return "sm_" + strings.ReplaceAll(cc, ".", "")
	}
	return ""
}

// modelTrust says how well the model ranked held-out tasks as lint scores
// them (without problem sizes): its test-split ρ when the test split was
// scored, else its validation ρ.
func modelTrust(m *rank.Model) string {
	for _, side := range []string{"test", "validation"} {
		for _, key := range []string{side + nosizesSuffix, side} {
			if s, ok := m.Training.Metrics[key]; ok {
				return fmt.Sprintf("ranker %s ρ %.2f [%.2f, %.2f] over %d held-out tasks; compare variants of one task, higher is faster",
					side, s.Rho.Mean, s.Rho.Lo, s.Rho.Hi, s.Tasks)
			}
		}
	}
	return "ranker never validated; compare variants of one task, higher is faster"
}

// variantTaskDir is the task folder of a variant file (its task.yaml's):
// <task>/variants/<name>.cu, or the flat <task>/<name>.cu that variantFile
// also accepts (whose task was taken to be the folder above it).
func variantTaskDir(file string) string {
	dir := filepath.Dir(file)
	if filepath.Base(dir) == "variants" {
		dir = filepath.Dir(dir)
	}
	return dir
}

// analyzeAtSizes computes the kernels of t's variants at each of its
// configurations' problem sizes (Variant.At; Kernels at the primary).
func analyzeAtSizes(c *cli.Context, s *analysisSession, t *rank.Task, schema rank.Schema) error {
	if len(t.Variants) == 0 {
		return nil
	}
	tk, err := task.Load(variantTaskDir(t.Variants[0].File))
	if err != nil {
		return usageErrorf("task %s: binding problem sizes needs its task.yaml: %v (or train with --sizes none)", t.Name, err)
	}
	var paths []string
	for _, v := range t.Variants {
		paths = append(paths, v.File)
	}
	for i := range tk.Configs {
		r, err := tk.Resolve(i)
		if err != nil {
			return usageErrorf("task %s: configuration %s: %v", t.Name, tk.Configs[i].Name, err)
		}
		s.sizes = r.Env
		res, problems := s.analyze(c, paths)
		if problems != nil {
			return problems
		}
		ks := kernelsByFile(res.Features, schema)
		for j := range t.Variants {
			v := &t.Variants[j]
			if v.At == nil {
				v.At = map[string][]rank.Kernel{}
			}
			v.At[r.Name] = ks[filepath.Clean(v.File)]
			if r.Name == t.Primary {
				v.Kernels = v.At[r.Name]
			}
		}
	}
	s.sizes = nil
	return nil
}

// loadRanker returns the RL loop's structural score: the model (model, or
// the built-in one when empty), checked against the analyzers' features,
// scoring a candidate file from its feature rows; and the analyzer plugins
// whose features it reads.
func loadRanker(ctx context.Context, h *pluginhost.Host, model string) (grpo.Ranker, []string, error) {
	m, err := loadModel(model)
	if err != nil {
		return nil, nil, err
	}
	if err := checkModelSchema(ctx, h, m, model); err != nil {
		return nil, nil, err
	}
	return func(rows []report.KernelFeatures) (float64, bool) {
		for _, ks := range kernelsByFile(rows, m.Schema) {
			return m.NewScorer().ScoreFile(ks), true // rows are one file's
		}
		return 0, false
	}, m.Schema.Plugins(), nil
}
