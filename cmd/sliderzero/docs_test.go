package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// docs/protocol.md's example session is what the engine answers: the
// block's first line is the command line, then each command is followed
// by its answer and a blank line.
func TestProtocolDocExample(t *testing.T) {
	data, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "## Example")
	if start < 0 {
		t.Fatal("docs/protocol.md has no example")
	}
	open := strings.Index(text[start:], "```\n") + start + 4
	end := strings.Index(text[open:], "```") + open
	lines := strings.Split(text[open:end], "\n")
	cmdLine, ok := strings.CutPrefix(lines[0], "$ sliderzero ")
	if !ok {
		t.Fatalf("the example's first line %q is not a command line", lines[0])
	}
	var input, want strings.Builder
	expectCommand := true
	for _, l := range lines[1:] {
		switch {
		case expectCommand && l != "":
			input.WriteString(l + "\n")
			expectCommand = false
		case l == "":
			if !expectCommand {
				want.WriteString("\n")
			}
			expectCommand = true
		default:
			want.WriteString(l + "\n")
		}
	}
	got, err := runCmd(t, input.String(), strings.Fields(cmdLine)...)
	if err != nil {
		t.Fatal(err)
	}
	if got != want.String() {
		t.Errorf("docs/protocol.md's example: the engine answers\n%s\nthe docs say\n%s", got, want.String())
	}
}

// docCommands are the command lines of a Markdown document: lines of its
// code blocks and inline code that run sliderzero, continuation lines
// joined, comments dropped, without the program's name.
func docCommands(text string) []string {
	var out []string
	add := func(line string) {
		line = strings.ReplaceAll(line, "\n", " ")
		for _, end := range []string{" #", " > ", " | ", " 2>"} {
			line, _, _ = strings.Cut(line, end)
		}
		line = strings.TrimSpace(line)
		for _, prefix := range []string{"go run ./cmd/sliderzero ", "sliderzero "} {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				out = append(out, rest)
				return
			}
		}
	}
	for i, block := range strings.Split(text, "```") {
		if i%2 == 1 {
			lines := strings.Split(block, "\n")
			for j := 0; j < len(lines); j++ {
				l := lines[j]
				for strings.HasSuffix(l, "\\") && j+1 < len(lines) {
					j++
					l = strings.TrimSuffix(l, "\\") + " " + strings.TrimSpace(lines[j])
				}
				add(l)
			}
			continue
		}
		for k, span := range strings.Split(block, "`") {
			if k%2 == 1 {
				add(span)
			}
		}
	}
	return out
}

// splitArgs splits a command line into arguments as a shell would for the
// documents' simple lines: spaces, and double or single quotes.
func splitArgs(line string) []string {
	var args []string
	var cur strings.Builder
	quote, inArg := rune(0), false
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inArg = r, true
		case r == ' ' || r == '\t':
			if inArg {
				args, cur, inArg = append(args, cur.String()), strings.Builder{}, false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args
}

// Every command line of the README and the docs names a command and flags
// the program has, with values of the right form: each is parsed, up to a
// --help added at its end, by the current program. (Lines with a
// placeholder for the command or a choice, "COMMAND" or "a|b", are read
// by people, not run.)
func TestDocCommandsParse(t *testing.T) {
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range docCommands(string(data)) {
			if strings.Contains(line, "COMMAND") || strings.Contains(line, "|") || strings.Contains(line, "...") {
				continue
			}
			args := splitArgs(line)
			if slices.ContainsFunc(args, func(a string) bool { return a == "N" || a == "M" || a == "S" }) {
				continue // a number left for the reader to choose
			}
			args = append(args, "--help")
			if out, err := runCmd(t, "", args...); err != nil {
				t.Errorf("%s: sliderzero %s: %v\n%.300s", filepath.Base(file), line, err, out)
			}
			checked++
		}
	}
	t.Logf("%d command lines parsed", checked)
	if checked < 20 {
		t.Errorf("only %d command lines found in the docs", checked)
	}
}
