package ptxas

import "strings"

// Demangle returns the base name and the qualified name of an Itanium
// mangled function name, e.g. "_ZN3ops4reluEPfi" → ("relu", "ops::relu")
// and "_Z5scaleIfLi4EEvPT_S0_" → ("scale", "scale"). Only the name is
// decoded, not the parameter types: that is all kernel matching needs. A
// name that is not mangled (an extern "C" kernel) or that it cannot decode
// is returned unchanged as both.
func Demangle(s string) (base, qualified string) {
	rest, ok := strings.CutPrefix(s, "_Z")
	if !ok {
		return s, s
	}
	var parts []string
	if nested, ok := strings.CutPrefix(rest, "N"); ok {
		rest = strings.TrimLeft(nested, "rVKRO") // cv- and ref-qualifiers of member functions
		for rest != "" && rest[0] != 'E' {
			if rest[0] == 'I' {
				var ok bool
				if rest, ok = skipTemplateArgs(rest); !ok {
					return s, s
				}
				continue
			}
			if strings.HasPrefix(rest, "St") { // std::
				parts = append(parts, "std")
				rest = rest[2:]
				continue
			}
			id, r, ok := sourceName(rest)
			if !ok {
				return s, s
			}
			parts = append(parts, id)
			rest = r
		}
	} else {
		id, _, ok := sourceName(rest)
		if !ok {
			return s, s
		}
		parts = append(parts, id)
	}
	if len(parts) == 0 {
		return s, s
	}
	return parts[len(parts)-1], strings.Join(parts, "::")
}

// sourceName reads <length><identifier>.
func sourceName(s string) (id, rest string, ok bool) {
	n, i := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + int(s[i]-'0')
		i++
		if n > len(s) {
			return "", "", false
		}
	}
	if i == 0 || n == 0 || i+n > len(s) {
		return "", "", false
	}
	return s[i : i+n], s[i+n:], true
}

// skipTemplateArgs skips a balanced I...E group. Nested groups open with
// I (template args), N (nested names) and X (expressions) and close with E;
// literals (L <type> <value> E) and substitutions (S_, S0_, T_, T1_, St)
// are skipped whole, and so are source names, so that their characters do
// not count as openers or closers.
func skipTemplateArgs(s string) (string, bool) {
	depth := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= '1' && c <= '9':
			_, rest, ok := sourceName(s[i:])
			if !ok {
				return "", false
			}
			i = len(s) - len(rest)
			continue
		case c == 'S' || c == 'T':
			if c == 'S' && i+1 < len(s) && s[i+1] >= 'a' && s[i+1] <= 'z' {
				i += 2 // St, Sa, Ss, ...: std abbreviations
				continue
			}
			j := strings.IndexByte(s[i:], '_')
			if j < 0 {
				return "", false
			}
			i += j + 1
			continue
		case c == 'L':
			j := strings.IndexByte(s[i:], 'E')
			if j < 0 {
				return "", false
			}
			i += j + 1
			continue
		case c == 'I' || c == 'N' || c == 'X':
			depth++
		case c == 'E':
			depth--
			if depth == 0 {
				return s[i+1:], true
			}
		}
		i++
	}
	return "", false
}
