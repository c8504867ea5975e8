package report

import (
	"encoding/xml"
	"io"
)

type csResult struct {
	XMLName xml.Name `xml:"checkstyle"`
	Version string   `xml:"version,attr"`
	Files   []csFile `xml:"file"`
}

type csFile struct {
	Name   string    `xml:"name,attr"`
	Errors []csError `xml:"error"`
}

type csError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

// WriteCheckstyle prints diagnostics as Checkstyle XML (what Jenkins, reviewdog
// and many CI dashboards read). Diagnostics must be sorted by file.
func WriteCheckstyle(w io.Writer, ds []Diagnostic) error {
	res := csResult{Version: "4.3"}
	for _, d := range ds {
		if n := len(res.Files); n == 0 || res.Files[n-1].Name != d.File {
			res.Files = append(res.Files, csFile{Name: d.File})
		}
		sev := string(d.Severity)
		if d.Severity == Note {
			sev = "info" // checkstyle's name for it
		}
		f := &res.Files[len(res.Files)-1]
		f.Errors = append(f.Errors, csError{Line: d.Line, Column: d.Column, Severity: sev, Message: d.Message, Source: "cudaperf." + d.Check})
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(res); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
