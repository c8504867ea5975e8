package preproc

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Flags reads the preprocessor part of a compile command (nvcc or a host
// compiler): -DNAME, -DNAME=VALUE, -D NAME (and nvcc's --define-macro),
// -UNAME, and include folders -IDIR, -I DIR, --include-path DIR,
// -isystem DIR. Other flags are ignored. A -D without a value defines
// NAME as 1, as compilers do; -U removes an earlier -D.
func Flags(args []string) (defines map[string]string, includes []string) {
	defines = map[string]string{}
	value := func(i *int, a, short, long string) (string, bool) {
		switch {
		case a == short || a == long:
			if *i+1 < len(args) {
				*i++
				return args[*i], true
			}
			return "", false
		case strings.HasPrefix(a, long+"="):
			return a[len(long)+1:], true
		case short != "" && strings.HasPrefix(a, short):
			return a[len(short):], true
		}
		return "", false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if v, ok := value(&i, a, "-D", "--define-macro"); ok {
			name, val, has := strings.Cut(v, "=")
			if !has {
				val = "1"
			}
			if name != "" && !strings.Contains(name, "(") {
				defines[name] = val
			}
			continue
		}
		if v, ok := value(&i, a, "-U", "--undefine-macro"); ok {
			delete(defines, v)
			continue
		}
		if v, ok := value(&i, a, "-I", "--include-path"); ok {
			includes = append(includes, v)
			continue
		}
		if v, ok := value(&i, a, "-isystem", "--system-include"); ok {
			includes = append(includes, v)
		}
	}
	return defines, includes
}

// quoteDirs returns the -iquote folders of a command: where "..." includes
// are searched before the -I folders.
func quoteDirs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-iquote" && i+1 < len(args):
			i++
			out = append(out, args[i])
		case strings.HasPrefix(a, "-iquote") && len(a) > len("-iquote"):
			out = append(out, a[len("-iquote"):])
		}
	}
	return out
}

// maxHeaderDepth bounds how deep Defines follows #include: the macros a
// kernel file uses (WARP_SIZE, TILE) are nearly always in a header it
// includes itself or one level below.
const maxHeaderDepth = 3

var includeLine = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*(?:"([^"]+)"|<([^>]+)>)`)

// Defines returns the macros the build gives a file: the object-like
// #defines of the headers it includes (a "..." include next to the
// including file, or in the -iquote folders, which the host sends with
// the file's own folder; then in the -I folders, as a compiler searches),
// then the -D flags,
// which win. Only definitions outside #if groups are taken (an include
// guard does not count): a definition under a condition may not be the
// one the build sees. A header that cannot be read is skipped. path is
// the file's path, from which "..." includes are searched.
func Defines(path string, src []byte, flags []string) map[string]string {
	flagDefs, includes := Flags(flags)
	quotes := quoteDirs(flags)
	out := map[string]string{}
	seen := map[string]bool{}
	var visit func(file string, text []byte, depth int)
	visit = func(file string, text []byte, depth int) {
		if depth > maxHeaderDepth {
			return
		}
		for _, m := range includeLine.FindAllSubmatch(text, -1) {
			name, quoted := string(m[2]), false
			if m[1] != nil {
				name, quoted = string(m[1]), true
			}
			var dirs []string
			if quoted {
				// Next to the including file (only when its path is
				// absolute: a relative one is the user's, not this
				// process's), then the -iquote folders.
				if filepath.IsAbs(file) {
					dirs = append(dirs, filepath.Dir(file))
				}
				dirs = append(dirs, quotes...)
			}
			dirs = append(dirs, includes...)
			for _, d := range dirs {
				p := filepath.Join(d, name)
				if seen[p] {
					break
				}
				b, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				seen[p] = true
				for k, v := range topDefines(b) {
					if _, ok := out[k]; !ok {
						out[k] = v
					}
				}
				visit(p, b, depth+1)
				break
			}
		}
	}
	if len(includes) > 0 || len(quotes) > 0 || filepath.IsAbs(path) && bytes.Contains(src, []byte("#include \"")) {
		visit(path, src, 1)
	}
	for k, v := range flagDefs {
		out[k] = v
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// topDefines returns the object-like #defines of a header that are not
// inside an #if group other than its include guard.
func topDefines(src []byte) map[string]string {
	sk := skeleton(src)
	ls := lines(sk)
	inGroup := make([]bool, len(ls))
	for _, g := range scanGroups(sk, ls, nil) {
		if g.guard || !g.closed {
			continue
		}
		start, end := g.branches[0].dir.start, g.endLine.end
		for i, l := range ls {
			if l.start >= start && l.end <= end {
				inGroup[i] = true
			}
		}
	}
	out := map[string]string{}
	for i, l := range ls {
		if !l.directive || inGroup[i] {
			continue
		}
		kw, rest := directive(sk, l)
		if kw != "define" {
			continue
		}
		// The value from the source (comments were blanked in sk).
		_, val := splitDefine(rest)
		name, _ := splitDefine(rest)
		if name == "" || val == "(function)" {
			continue
		}
		out[name] = val
	}
	return out
}
