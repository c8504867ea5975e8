package buildctx

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FileName is the compilation database's name (the JSON Compilation
// Database format of clang).
const FileName = "compile_commands.json"

// Find returns the compilation database for files under dir: the nearest
// compile_commands.json in dir or a parent, or in a build/ folder of one;
// "" when there is none.
func Find(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		for _, p := range []string{filepath.Join(dir, FileName), filepath.Join(dir, "build", FileName)} {
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// DB maps source files to their preprocessor flags.
type DB struct {
	Path  string
	flags map[string][]string // absolute, cleaned file path → flags
}

type entry struct {
	Directory string   `json:"directory"`
	File      string   `json:"file"`
	Command   string   `json:"command"`
	Arguments []string `json:"arguments"`
}

// Load reads a compilation database.
func Load(path string) (*DB, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("buildctx: %w", err)
	}
	var es []entry
	if err := json.Unmarshal(b, &es); err != nil {
		return nil, fmt.Errorf("buildctx: %s is not a JSON compilation database (a list of {directory, file, command|arguments}): %v", path, err)
	}
	db := &DB{Path: path, flags: map[string][]string{}}
	base, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("buildctx: %w", err)
	}
	for _, e := range es {
		// The format wants an absolute directory, but generators write
		// relative ones; like clang's reader, take those against the
		// database's own folder (they matched no file at all before).
		if !filepath.IsAbs(e.Directory) {
			e.Directory = filepath.Join(base, e.Directory)
		}
		args := e.Arguments
		if len(args) == 0 {
			args = Split(e.Command)
		}
		file := e.File
		if !filepath.IsAbs(file) {
			file = filepath.Join(e.Directory, file)
		}
		db.flags[filepath.Clean(file)] = Preprocessor(args, e.Directory)
	}
	return db, nil
}

// Flags returns the preprocessor flags of file, nil when the database has
// no entry for it (a header, a file outside the build).
func (db *DB) Flags(file string) []string {
	if db == nil {
		return nil
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil
	}
	return db.flags[filepath.Clean(abs)]
}

// Preprocessor keeps the -D, -U and include-folder flags of a compile
// command, each as one argument (-DNAME=V, -IDIR), with relative include
// folders made absolute against dir.
func Preprocessor(args []string, dir string) []string {
	var out []string
	abs := func(p string) string {
		if dir != "" && !filepath.IsAbs(p) {
			return filepath.Join(dir, p)
		}
		return p
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		switch {
		case a == "-D" || a == "--define-macro":
			if v, ok := next(); ok {
				out = append(out, "-D"+v)
			}
		case a == "-U" || a == "--undefine-macro":
			if v, ok := next(); ok {
				out = append(out, "-U"+v)
			}
		case a == "-I" || a == "--include-path" || a == "-isystem" || a == "--system-include":
			if v, ok := next(); ok {
				out = append(out, "-I"+abs(v))
			}
		case strings.HasPrefix(a, "--define-macro="):
			out = append(out, "-D"+strings.TrimPrefix(a, "--define-macro="))
		case strings.HasPrefix(a, "--include-path="):
			out = append(out, "-I"+abs(strings.TrimPrefix(a, "--include-path=")))
		case strings.HasPrefix(a, "-isystem"):
			out = append(out, "-I"+abs(strings.TrimPrefix(a, "-isystem")))
		case strings.HasPrefix(a, "-D"), strings.HasPrefix(a, "-U"):
			out = append(out, a)
		case strings.HasPrefix(a, "-I"):
			out = append(out, "-I"+abs(strings.TrimPrefix(a, "-I")))
		}
	}
	return out
}

// Absolute returns args with the folder of every include flag (-I, -isystem,
// --include-path, in either spelling) made absolute against dir, and the
// rest as is: flags that travel to a plugin, which runs in its own folder.
func Absolute(args []string, dir string) []string {
	out := make([]string, 0, len(args))
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			return filepath.Join(dir, p)
		}
		return p
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-I" || a == "-isystem" || a == "--include-path" || a == "--system-include") && i+1 < len(args):
			out = append(out, a, abs(args[i+1]))
			i++
		case strings.HasPrefix(a, "--include-path="):
			out = append(out, "--include-path="+abs(strings.TrimPrefix(a, "--include-path=")))
		case strings.HasPrefix(a, "-isystem") && len(a) > len("-isystem"):
			out = append(out, "-isystem"+abs(strings.TrimPrefix(a, "-isystem")))
		case strings.HasPrefix(a, "-I") && len(a) > 2:
			out = append(out, "-I"+abs(a[2:]))
		default:
			out = append(out, a)
		}
	}
	return out
}

// Split splits a shell command line into arguments: spaces separate,
// single and double quotes group, a backslash escapes the next character
// (outside single quotes). It is what compile_commands.json's "command"
// needs, not a shell.
func Split(cmd string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\\' && i+1 < len(cmd):
			i++
			cur.WriteByte(cmd[i])
			in = true
		case quote == '"':
			if c == '"' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
