package report

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"
)

// DefaultInfoURI is where SARIF consumers learn about the tool.
const DefaultInfoURI = "https://github.com/cudaperf/cudaperf"

// SARIFOptions describes the run being reported.
type SARIFOptions struct {
	ToolVersion string
	InfoURI     string
	// BaseDir is the directory file paths are made relative to (the
	// repository root for GitHub code scanning). Empty means the working
	// directory.
	BaseDir string
	// Rules are all checks the run knew about; checks seen in diagnostics
	// but missing here get a minimal rule so the log stays valid.
	Rules []Rule
	// Failures make the run's invocation unsuccessful
	// (executionSuccessful false), one toolExecutionNotification each.
	Failures []Failure
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	ColumnKind         string                      `json:"columnKind"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult               `json:"results"`
	Invocations        []sarifInvocation           `json:"invocations"`
}

// sarifInvocation says whether the run completed: a plugin failure makes
// the results incomplete, which a consumer must not read as "no findings".
type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level      string            `json:"level"`
	Message    sarifText         `json:"message"`
	Descriptor *sarifDescriptor  `json:"descriptor,omitempty"`
	Locations  []sarifLocation   `json:"locations,omitempty"`
	Properties map[string]string `json:"properties,omitempty"`
}

type sarifDescriptor struct {
	ID string `json:"id"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	Name                 string            `json:"name,omitempty"`
	ShortDescription     sarifText         `json:"shortDescription"`
	FullDescription      sarifText         `json:"fullDescription"`
	Help                 sarifText         `json:"help"`
	HelpURI              string            `json:"helpUri,omitempty"`
	DefaultConfiguration map[string]string `json:"defaultConfiguration,omitempty"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           sarifRegion      `json:"region"`
	} `json:"physicalLocation"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

// sarifLevel maps our severities to SARIF's levels.
func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// WriteSARIF prints a SARIF 2.1.0 log with one run. Paths under BaseDir are
// written relative to %SRCROOT%, as GitHub code scanning expects; rule ids are
// the check names, which are stable across versions.
func WriteSARIF(w io.Writer, ds []Diagnostic, opt SARIFOptions) error {
	base := opt.BaseDir
	if base == "" {
		base, _ = os.Getwd()
	}
	base, _ = filepath.Abs(base)
	info := opt.InfoURI
	if info == "" {
		info = DefaultInfoURI
	}

	run := sarifRun{
		// Rules is an array even when no rule is known (a plugin failed
		// before describing its checks): null fails the schema.
		Tool: sarifTool{Driver: sarifDriver{Name: "cudaperf", Version: opt.ToolVersion, InformationURI: info, Rules: []sarifRule{}}},
		// SARIF counts columns in UTF-16 code units (or code points), never
		// bytes, which is what findings carry: converted below per line.
		ColumnKind: "utf16CodeUnits",
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{
			"%SRCROOT%": {URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(base) + "/"}).String()},
		},
		Results: []sarifResult{},
	}
	index := map[string]int{}
	addRule := func(r Rule) {
		if _, ok := index[r.ID]; ok {
			return
		}
		index[r.ID] = len(run.Tool.Driver.Rules)
		title := r.Title
		if title == "" {
			title = r.ID
		}
		doc := r.Doc
		if doc == "" {
			doc = title
		}
		sr := sarifRule{
			ID:               r.ID,
			ShortDescription: sarifText{Text: title},
			FullDescription:  sarifText{Text: doc},
			Help:             sarifText{Text: doc, Markdown: doc},
			HelpURI:          r.URL,
		}
		if r.Severity != "" {
			sr.DefaultConfiguration = map[string]string{"level": sarifLevel(r.Severity)}
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sr)
	}
	for _, r := range opt.Rules {
		addRule(r)
	}
	lines := &lineCache{files: map[string][]string{}}
	seen := map[string]int{} // fingerprint base → occurrences, to keep repeats distinct
	for _, d := range ds {
		addRule(Rule{ID: d.Check, URL: d.URL})
		var loc sarifLocation
		loc.PhysicalLocation.ArtifactLocation = artifact(d.File, base)
		start := lines.line(d.File, d.Line)
		end := start
		if d.EndLine != d.Line {
			end = lines.line(d.File, d.EndLine)
		}
		loc.PhysicalLocation.Region = sarifRegion{StartLine: max(d.Line, 1), StartColumn: utf16Column(start, d.Column),
			EndLine: d.EndLine, EndColumn: utf16Column(end, d.EndColumn)}
		fp := fingerprint(d, start)
		seen[fp]++
		run.Results = append(run.Results, sarifResult{
			RuleID: d.Check, RuleIndex: index[d.Check], Level: sarifLevel(d.Severity),
			Message:             sarifText{Text: d.Message},
			Locations:           []sarifLocation{loc},
			PartialFingerprints: map[string]string{"primaryLocationLineHash": fmt.Sprintf("%s:%d", fp, seen[fp])},
		})
	}
	inv := sarifInvocation{ExecutionSuccessful: len(opt.Failures) == 0}
	for _, f := range opt.Failures {
		n := sarifNotification{Level: "error", Message: sarifText{Text: f.Message}, Descriptor: &sarifDescriptor{ID: FailureCheck}}
		if f.Plugin != "" {
			n.Properties = map[string]string{"plugin": f.Plugin}
		}
		if f.File != "" {
			var loc sarifLocation
			loc.PhysicalLocation.ArtifactLocation = artifact(f.File, base)
			loc.PhysicalLocation.Region = sarifRegion{StartLine: 1}
			n.Locations = []sarifLocation{loc}
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, n)
	}
	run.Invocations = []sarifInvocation{inv}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// artifact makes a file path relative to base when it lies under it.
func artifact(file, base string) sarifArtifactLoc {
	abs, err := filepath.Abs(file)
	if err == nil {
		if rel, err := filepath.Rel(base, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return sarifArtifactLoc{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), URIBaseID: "%SRCROOT%"}
		}
	} else {
		abs = file
	}
	return sarifArtifactLoc{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()}
}

// fingerprint identifies a result independently of its line number, so an
// alert survives edits above it: the check and the text of the flagged line.
func fingerprint(d Diagnostic, lineText string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s", d.Check, strings.Join(strings.Fields(lineText), " "))
	if lineText == "" {
		fmt.Fprintf(h, "\x00%s", d.Message)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// lineCache reads each file once for fingerprints.
type lineCache struct{ files map[string][]string }

// utf16Column turns a 1-based byte column of line into SARIF's 1-based
// UTF-16 column; a column past the line (or of a line that could not be
// read) counts the missing bytes as one unit each, and 0 stays 0 (none).
func utf16Column(line string, byteCol int) int {
	if byteCol <= 1 {
		return byteCol
	}
	prefix := line[:min(byteCol-1, len(line))]
	col := 1 + (byteCol - 1 - len(prefix))
	for _, r := range prefix {
		col += utf16.RuneLen(r)
	}
	return col
}

func (c *lineCache) line(file string, n int) string {
	ls, ok := c.files[file]
	if !ok {
		if b, err := os.ReadFile(file); err == nil {
			sc := bufio.NewScanner(bytes.NewReader(b))
			sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
			for sc.Scan() {
				ls = append(ls, sc.Text())
			}
		}
		c.files[file] = ls
	}
	if n >= 1 && n <= len(ls) {
		return ls[n-1]
	}
	return ""
}
