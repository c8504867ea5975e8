package ptxas

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

var (
	compilingRE = regexp.MustCompile(`Compiling entry function '([^']+)' for '([^']+)'`)
	propsRE     = regexp.MustCompile(`Function properties for '?([^'\s]+)'?`)
	usedRE      = regexp.MustCompile(`^Used (\d+) registers`)
	// "N bytes X" or, in old reports, "N+M bytes smem" (static+dynamic
	// reserved); X may be "cmem[0]", "spill stores", "stack frame", ...
	bytesRE    = regexp.MustCompile(`^(\d+)(?:\+(\d+))? bytes (.+)$`)
	barriersRE = regexp.MustCompile(`^used (\d+) barriers?$`)
	cmemRE     = regexp.MustCompile(`^cmem\[(\d+)\]$`)
	archRE     = regexp.MustCompile(`^(?:sm|compute)_\d+[af]?$`)
)

// Parse reads ptxas output (the stderr of `nvcc -Xptxas -v`; other lines,
// such as compiler warnings, are skipped). A resource line that does not
// follow a function header is an error naming its line number, since it
// means the input is not a ptxas report in a known format.
func Parse(r io.Reader) (*Report, error) {
	rep := &Report{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var cur *Function
	arch := ""
	// byKey finds the function a "Function properties" line refers to
	// when its "Compiling entry function" line came first.
	lineNo := 0
	for sc.Scan() {
		lineNo++
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		msg, isInfo := infoMessage(line)
		switch {
		case isInfo && compilingRE.MatchString(msg):
			m := compilingRE.FindStringSubmatch(msg)
			arch = m[2]
			cur = rep.add(m[1], arch, true)
		case isInfo && propsRE.MatchString(msg) && strings.HasPrefix(msg, "Function properties"):
			name := propsRE.FindStringSubmatch(msg)[1]
			if cur == nil || cur.Mangled != name || cur.Arch != arch {
				// A device function (no "Compiling entry" line) or a
				// report where properties come first.
				cur = rep.add(name, arch, false)
			}
		case isInfo && usedRE.MatchString(msg):
			if cur == nil {
				return nil, fmt.Errorf("ptxas: line %d: %q has no function header before it; pass the complete output of nvcc -Xptxas -v", lineNo, line)
			}
			if err := cur.parseFields(msg); err != nil {
				return nil, fmt.Errorf("ptxas: line %d: %w", lineNo, err)
			}
		case !isInfo && strings.HasPrefix(raw, " ") && strings.Contains(line, "bytes stack frame"):
			if cur == nil {
				return nil, fmt.Errorf("ptxas: line %d: %q has no function header before it; pass the complete output of nvcc -Xptxas -v", lineNo, line)
			}
			if err := cur.parseFields(line); err != nil {
				return nil, fmt.Errorf("ptxas: line %d: %w", lineNo, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("ptxas: read report: %w", err)
	}
	return rep, nil
}

// ParseBytes is Parse on a byte slice.
func ParseBytes(b []byte) (*Report, error) { return Parse(bytes.NewReader(b)) }

// infoMessage strips the "ptxas info    :" prefix.
func infoMessage(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "ptxas info")
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	rest, ok = strings.CutPrefix(rest, ":")
	return strings.TrimSpace(rest), ok
}

func (r *Report) add(mangled, arch string, entry bool) *Function {
	if !archRE.MatchString(arch) {
		arch = ""
	}
	for _, f := range r.Functions {
		if f.Mangled == mangled && f.Arch == arch {
			f.Entry = f.Entry || entry
			return f
		}
	}
	f := &Function{Mangled: mangled, Arch: arch, Entry: entry}
	f.Name, f.Qualified = Demangle(mangled)
	r.Functions = append(r.Functions, f)
	return f
}

// parseFields reads a comma-separated list such as
// "Used 10 registers, used 1 barriers, 32768 bytes smem, 352 bytes cmem[0]"
// or "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads".
func (f *Function) parseFields(s string) error {
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if m := usedRE.FindStringSubmatch(part); m != nil && strings.HasSuffix(part, "registers") {
			f.Registers, _ = strconv.Atoi(m[1])
			continue
		}
		if m := barriersRE.FindStringSubmatch(part); m != nil {
			f.Barriers, _ = strconv.Atoi(m[1])
			continue
		}
		m := bytesRE.FindStringSubmatch(part)
		if m == nil {
			return fmt.Errorf("unrecognised resource field %q", part)
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			return fmt.Errorf("field %q: %w", part, err)
		}
		what := m[3]
		switch {
		case what == "smem":
			f.SharedBytes = n
		case what == "lmem":
			f.LocalBytes = n
		case what == "stack frame":
			f.StackFrame = n
		case what == "spill stores":
			f.SpillStores = n
		case what == "spill loads":
			f.SpillLoads = n
		case cmemRE.MatchString(what):
			bank, _ := strconv.Atoi(cmemRE.FindStringSubmatch(what)[1])
			if f.ConstBytes == nil {
				f.ConstBytes = map[int]int{}
			}
			f.ConstBytes[bank] = n
		default:
			if f.Other == nil {
				f.Other = map[string]int{}
			}
			f.Other[what] = n
		}
	}
	return nil
}
