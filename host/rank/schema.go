package rank

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Feature describes one feature a model was trained on, as the analyzer
// plugin that computes it declares it.
type Feature struct {
	Name      string `json:"name"` // key in the feature vector
	Plugin    string `json:"plugin"`
	Unit      string `json:"unit,omitempty"`
	Range     string `json:"range,omitempty"`
	PerKernel bool   `json:"per_kernel"`
	// Version changes only when the feature's definition changes (the
	// analyzer's FeatureDef.Version), so a rebuild alone never invalidates
	// a model.
	Version int `json:"version"`
}

// Unbounded reports whether the feature's declared range has no upper
// bound; such features are log-scaled.
func (f Feature) Unbounded() bool { return strings.Contains(f.Range, "inf") }

// Schema is the list of features of a model, sorted by name.
type Schema []Feature

// Names returns the feature names in schema order.
func (s Schema) Names() []string {
	out := make([]string, len(s))
	for i, f := range s {
		out[i] = f.Name
	}
	return out
}

// Plugins returns the distinct plugins of the schema, sorted.
func (s Schema) Plugins() []string {
	var out []string
	for _, f := range s {
		out = append(out, f.Plugin)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Sorted returns a copy sorted by name.
func (s Schema) Sorted() Schema {
	out := slices.Clone(s)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// SchemaError says how the features at hand differ from a model's schema.
type SchemaError struct {
	Missing   []string // in the model, not produced now
	Extra     []string // produced now by the model's plugins, unknown to the model
	Redefined []string // "name (model vN, analyzer vM)"
	Retrain   string   // how to fix it, when the caller knows
}

func (e *SchemaError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		parts = append(parts, "missing "+strings.Join(e.Missing, ", "))
	}
	if len(e.Extra) > 0 {
		parts = append(parts, "extra "+strings.Join(e.Extra, ", "))
	}
	if len(e.Redefined) > 0 {
		parts = append(parts, "redefined "+strings.Join(e.Redefined, ", "))
	}
	msg := "rank: the model was trained on other features than the analyzers produce: " + strings.Join(parts, "; ")
	if e.Retrain != "" {
		msg += "; " + e.Retrain
	}
	return msg
}

// CheckSchema compares a model's schema with the features the analyzers
// declare now (current may hold features of other plugins; only the
// model's plugins are compared). It returns a *SchemaError naming every
// difference, or nil.
func CheckSchema(model, current Schema) error {
	plugins := model.Plugins()
	have := map[string]Feature{}
	for _, f := range current {
		if slices.Contains(plugins, f.Plugin) {
			have[f.Name] = f
		}
	}
	e := &SchemaError{}
	for _, f := range model {
		c, ok := have[f.Name]
		switch {
		case !ok:
			e.Missing = append(e.Missing, f.Name)
		case c.Plugin != f.Plugin || c.Version != f.Version:
			e.Redefined = append(e.Redefined, fmt.Sprintf("%s (model: %s v%d, now: %s v%d)", f.Name, f.Plugin, f.Version, c.Plugin, c.Version))
		}
		delete(have, f.Name)
	}
	for n := range have {
		e.Extra = append(e.Extra, n)
	}
	sort.Strings(e.Missing)
	sort.Strings(e.Extra)
	sort.Strings(e.Redefined)
	if len(e.Missing)+len(e.Extra)+len(e.Redefined) == 0 {
		return nil
	}
	return e
}
