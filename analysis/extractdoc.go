package analysis

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// ExtractDoc returns an analyzer's documentation from the source of its
// package's doc.go (embedded with //go:embed doc.go). The package comment
// must contain a heading "# Analyzer NAME"; the text after it, up to the
// next heading, is the doc, and its first line is the title. Keeping the doc
// in doc.go means go doc, --help and `cudaperf explain` say the same thing.
func ExtractDoc(goSrc, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", goSrc, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("analysis: doc of %s: %w", name, err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("analysis: doc of %s: doc.go has no package comment", name)
	}
	text := f.Doc.Text()
	heading := "# Analyzer " + name
	var out []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "# ") {
			if in {
				break
			}
			in = strings.TrimSpace(line) == heading
			continue
		}
		if in {
			out = append(out, line)
		}
	}
	doc := strings.TrimSpace(strings.Join(out, "\n"))
	if doc == "" {
		return "", fmt.Errorf("analysis: doc of %s: package comment has no %q section (write \"%s\" followed by the title line)", name, heading, heading)
	}
	return doc, nil
}

// MustExtractDoc is ExtractDoc for package-level initialisation: a missing
// doc is a programming error, caught by every test of the pass.
func MustExtractDoc(goSrc, name string) string {
	doc, err := ExtractDoc(goSrc, name)
	if err != nil {
		panic(err)
	}
	return doc
}
