package ptxas

// Function is the resource usage of one entry (kernel) or device function for
// one architecture.
type Function struct {
	Mangled     string         // name as ptxas prints it, e.g. "_Z2k2Pf"
	Name        string         // source base name, e.g. "k2"; equals Mangled for extern "C"
	Arch        string         // e.g. "sm_90"
	Entry       bool           // a kernel (entry function) rather than a device function
	Registers   int            // registers per thread
	Barriers    int            // named barriers used
	SharedBytes int            // static shared memory per block
	ConstBytes  map[int]int    // constant memory by bank, e.g. {0: 352}
	LocalBytes  int            // local memory per thread (lmem)
	StackFrame  int            // stack frame bytes per thread
	SpillStores int            // bytes
	SpillLoads  int            // bytes
	Other       map[string]int // other "N bytes X" fields ptxas reported, by X
}

// Report is the parsed ptxas output of one compilation.
type Report struct {
	Functions []*Function
}
