package ptxas

// Function is the resource usage of one entry (kernel) or device function for
// one architecture.
type Function struct {
	Mangled     string         // name as ptxas prints it, e.g. "_Z2k2Pf"
	Name        string         // source base name, e.g. "k2"; equals Mangled for extern "C"
	Qualified   string         // with namespaces and classes, e.g. "ops::relu"
	Arch        string         // e.g. "sm_90"; "" when the report does not say
	Entry       bool           // a kernel (entry function) rather than a device function
	Registers   int            // registers per thread
	Barriers    int            // block barriers used
	SharedBytes int            // static shared memory per block
	ConstBytes  map[int]int    // constant memory by bank, e.g. {0: 352}
	LocalBytes  int            // local memory per thread (lmem, old reports)
	StackFrame  int            // stack frame bytes per thread
	SpillStores int            // bytes
	SpillLoads  int            // bytes
	Other       map[string]int // other "N bytes X" fields, by X (e.g. "cumulative stack size")
}

// Spills reports whether the function spills registers to local memory.
func (f *Function) Spills() bool { return f.SpillStores > 0 || f.SpillLoads > 0 }

// Report is the parsed ptxas output of one compilation, one Function per
// (mangled name, architecture) in the order ptxas printed them.
type Report struct {
	Functions []*Function
}

// Kernel finds the entry function for a kernel's source name, which may be
// the base name ("relu"), the qualified name ("ops::relu") or the mangled
// name. With arch set (e.g. "sm_90") only that architecture's report is
// used; with arch "" the last architecture reported wins (nvcc compiles
// targets in the order given, and the last is usually the newest). When
// several entries share the name (overloads, template instances) the one
// with the most registers is returned, so occupancy is not overstated.
// It returns nil when no entry matches.
func (r *Report) Kernel(name, arch string) *Function {
	if r == nil {
		return nil
	}
	matches := r.lookup(name, arch, true)
	if len(matches) == 0 {
		return nil
	}
	if arch == "" {
		last := matches[len(matches)-1].Arch
		var same []*Function
		for _, f := range matches {
			if f.Arch == last {
				same = append(same, f)
			}
		}
		matches = same
	}
	best := matches[0]
	for _, f := range matches[1:] {
		if f.Registers > best.Registers {
			best = f
		}
	}
	return best
}

// Lookup returns every function (entry or device) matching name for arch
// ("" = any), in report order.
func (r *Report) Lookup(name, arch string) []*Function {
	if r == nil {
		return nil
	}
	return r.lookup(name, arch, false)
}

func (r *Report) lookup(name, arch string, entryOnly bool) []*Function {
	var out []*Function
	for _, f := range r.Functions {
		if entryOnly && !f.Entry {
			continue
		}
		if arch != "" && f.Arch != arch {
			continue
		}
		if f.Mangled == name || f.Name == name || f.Qualified == name {
			out = append(out, f)
		}
	}
	return out
}

// Arches lists the architectures in the report, in order of appearance.
func (r *Report) Arches() []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range r.Functions {
		if f.Arch != "" && !seen[f.Arch] {
			seen[f.Arch] = true
			out = append(out, f.Arch)
		}
	}
	return out
}
