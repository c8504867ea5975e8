package grpo

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ConfigChange is one key whose value differs between two configurations.
type ConfigChange struct {
	Key      string // dotted path, e.g. "eval.n" or "benchmarker.concurrency"
	Was, Now string // the values as YAML would show them; "(not set)" where one side lacks the key
}

// DiffConfigs compares two configurations written as YAML (a run folder's
// record and the one given now) leaf by leaf, leaving out the keys of
// mayChange: a resume that is refused can then name what differs.
func DiffConfigs(was, now []byte, mayChange []string) ([]ConfigChange, error) {
	var a, b map[string]any
	if err := yaml.Unmarshal(was, &a); err != nil {
		return nil, err
	}
	if err := yaml.Unmarshal(now, &b); err != nil {
		return nil, err
	}
	fa, fb := map[string]string{}, map[string]string{}
	flatten("", a, fa)
	flatten("", b, fb)
	keys := slices.Sorted(maps.Keys(fa))
	for k := range fb {
		if _, ok := fa[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []ConfigChange
	for _, k := range keys {
		if slices.Contains(mayChange, k) || fa[k] == fb[k] {
			continue
		}
		out = append(out, ConfigChange{Key: k, Was: orUnset(fa[k]), Now: orUnset(fb[k])})
	}
	return out, nil
}

// flatten writes v's leaves into out under dotted keys ("eval.n"); a list is
// one leaf, written as [a, b].
func flatten(prefix string, v any, out map[string]string) {
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			key := k
			if prefix != "" {
				key = prefix + "." + k
			}
			flatten(key, x, out)
		}
		return
	}
	out[prefix] = leaf(v)
}

func leaf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if x == "" {
			return `""`
		}
		return x
	case []any:
		s := make([]string, len(x))
		for i, e := range x {
			s[i] = leaf(e)
		}
		return "[" + strings.Join(s, ", ") + "]"
	case map[string]any:
		flat := map[string]string{}
		flatten("", x, flat)
		var s []string
		for _, k := range slices.Sorted(maps.Keys(flat)) {
			s = append(s, k+": "+flat[k])
		}
		return "{" + strings.Join(s, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// orUnset shows a key one side lacks.
func orUnset(s string) string {
	if s == "" {
		return "(not set)"
	}
	return s
}
