package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/analysis/driver"
	"github.com/cudaperf/cudaperf/grammar"
)

func parseCommand() *cli.Command {
	return &cli.Command{
		Name:      "parse",
		Usage:     "print the syntax tree of CUDA files, or check them for syntax errors",
		ArgsUsage: "FILE... (- reads standard input)",
		Description: "Parses each FILE with cudaperf's CUDA grammar (tree-sitter-cpp plus CUDA's\n" +
			"qualifiers, launch bounds and <<<...>>> launches; node names in grammar/README.md)\n" +
			"and prints its syntax tree as an indented S-expression: one named node per line,\n" +
			"field names as 'name:' prefixes, and each node's range as [row, column] - [row, column],\n" +
			"0-based, exactly as 'tree-sitter parse' prints it (--no-ranges drops the ranges).\n" +
			"With several files, each tree is preceded by a ';; FILE' line.\n\n" +
			"With --check, prints nothing but the syntax errors, one per ERROR or MISSING node,\n" +
			"as 'FILE:LINE:COL: error: syntax error near '...'' (1-based, as GCC prints), and\n" +
			"exits 1 if there is any, 0 otherwise. A file that cannot be read is reported and\n" +
			"the others are still parsed; the exit status is then 2.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "print syntax errors only; exit 1 if there are any"},
			&cli.BoolFlag{Name: "no-ranges", Usage: "print the tree without node ranges"},
		},
		Action: runParse,
	}
}

func runParse(c *cli.Context) error {
	files := c.Args().Slice()
	if len(files) == 0 {
		return usageErrorf("parse: no files given (usage: cudaperf parse [--check] FILE...)")
	}
	if err := grammar.Check(); err != nil {
		return failuref("parse: %w", err)
	}
	format := grammar.WithRanges
	if c.Bool("no-ranges") {
		format = grammar.NoRanges
	}
	out := c.App.Writer
	var unreadable []string
	syntaxErrors := 0
	for i, name := range files {
		src, err := readSource(name)
		if err != nil {
			fmt.Fprintf(c.App.ErrWriter, "cudaperf: parse: %v\n", err)
			unreadable = append(unreadable, name)
			continue
		}
		tree, err := grammar.Parse(c.Context, src)
		if err != nil {
			return failuref("parse %s: %w", name, err)
		}
		root := tree.RootNode()
		if c.Bool("check") {
			for _, e := range grammar.SyntaxErrors(root, src) {
				fmt.Fprintf(out, "%s:%d:%d: error: %s\n", name, e.Line, e.Column, e.Message())
				syntaxErrors++
			}
		} else {
			if len(files) > 1 {
				if i > 0 {
					fmt.Fprintln(out)
				}
				fmt.Fprintf(out, ";; %s\n", name)
			}
			if err := grammar.WriteTree(out, root, format); err != nil {
				tree.Close()
				return failuref("parse: write tree of %s: %w", name, err)
			}
		}
		tree.Close()
	}
	switch {
	case len(unreadable) > 0:
		return usageErrorf("parse: cannot read %s (check the path; see the messages above)", strings.Join(unreadable, ", "))
	case syntaxErrors > 0:
		return findings("")
	}
	return nil
}

// readSource reads a file named on the command line ("-" is standard input)
// and says what to do when it cannot.
func readSource(name string) ([]byte, error) {
	if name == "-" {
		src, err := io.ReadAll(os.Stdin)
		if err != nil {
			return nil, fmt.Errorf("read standard input: %w", err)
		}
		return src, nil
	}
	st, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: no such file; give the path of a CUDA source file", name)
	case err != nil:
		return nil, err
	case st.IsDir():
		return nil, fmt.Errorf("%s is a directory; give CUDA source files (for example %s/*.cu)", name, strings.TrimRight(name, "/"))
	}
	src, err := os.ReadFile(name)
	if err == nil && driver.IsBinary(src) {
		return nil, fmt.Errorf("%s: binary file (it contains NUL bytes), not CUDA source", name)
	}
	return src, err
}
