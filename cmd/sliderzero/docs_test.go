package main

import (
	"os"
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
