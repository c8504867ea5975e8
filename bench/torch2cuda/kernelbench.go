package torch2cuda

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// KernelBenchLevel lists the problem files of level N of a KernelBench
// checkout, run unchanged: DIR/KernelBench/level<N>/*.py (DIR the
// repository), or DIR/level<N>/*.py (DIR its KernelBench folder), in the
// order of the problems' leading numbers ("1_Square_matrix_multiplication_.py").
func KernelBenchLevel(dir string, level int) ([]string, error) {
	var tried []string
	for _, d := range []string{filepath.Join(dir, "KernelBench", fmt.Sprintf("level%d", level)), filepath.Join(dir, fmt.Sprintf("level%d", level))} {
		tried = append(tried, d)
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(d, "*.py"))
		var out []string
		for _, f := range files {
			if !strings.HasPrefix(filepath.Base(f), "__") {
				out = append(out, f)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("torch2cuda: %s holds no problem .py files", d)
		}
		slices.SortFunc(out, func(a, b string) int {
			na, nb := problemNumber(a), problemNumber(b)
			if na != nb {
				return na - nb
			}
			return strings.Compare(a, b)
		})
		return out, nil
	}
	return nil, fmt.Errorf("torch2cuda: no KernelBench level %d under %s (looked for %s): give the root of a KernelBench checkout (git clone https://github.com/ScalingIntelligence/KernelBench)", level, dir, strings.Join(tried, " and "))
}

// problemNumber is a KernelBench file's leading number (a file without
// one sorts last).
func problemNumber(path string) int {
	num, _, _ := strings.Cut(filepath.Base(path), "_")
	n, err := strconv.Atoi(num)
	if err != nil {
		return 1 << 30
	}
	return n
}
