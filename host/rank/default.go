package rank

import (
	_ "embed"
	"sync"
)

// DefaultModelFile is the built-in model's path in the repository. It is
// trained on the c2cuda train split by bench/rank/train-default.sh (`make
// rank-model`), which must be rerun whenever the analyzer's features change:
// the schema test in cmd/cudaperf fails until it is.
const DefaultModelFile = "host/rank/default_model.json"

//go:embed default_model.json
var defaultModel []byte

var parseDefault = sync.OnceValues(func() (*Model, error) {
	return Parse(defaultModel, "built-in ("+DefaultModelFile+")")
})

// Default returns the built-in model (parsed once; callers must not modify
// it).
func Default() (*Model, error) { return parseDefault() }
