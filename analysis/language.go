package analysis

import (
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/cpp"
)

// cudaLanguage is the grammar behind Language. Until the CUDA grammar
// (package grammar) lands this is tree-sitter-cpp, where CUDA qualifiers and
// <<<...>>> launches parse as identifiers or ERROR nodes.
func cudaLanguage() *sitter.Language { return cpp.GetLanguage() }
