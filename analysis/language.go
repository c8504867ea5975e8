package analysis

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/cudaperf/cudaperf/grammar"
)

// cudaLanguage is the grammar behind Language: the project's CUDA grammar
// (tree-sitter-cpp plus cuda_qualifier, launch_bounds, maxnreg and
// launch_config).
func cudaLanguage() *sitter.Language { return grammar.Language() }

// checkLanguage reports a grammar that cannot be loaded (a build defect) as
// an error instead of a panic.
func checkLanguage() error { return grammar.Check() }
