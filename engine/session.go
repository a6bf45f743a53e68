// The session: the command table, reading lines, and the loop that answers
// them (Run).

package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

type command struct {
	name string
	run  func(e *Engine, args []string) (string, error)
}

// commands lists every command in the order list_commands prints them
// (set in init: list_commands refers to it).
var commands []command

func init() {
	commands = []command{
		{"protocol_version", func(*Engine, []string) (string, error) { return ProtocolVersion, nil }},
		{"name", func(e *Engine, _ []string) (string, error) { return e.cfg.Name, nil }},
		{"version", func(e *Engine, _ []string) (string, error) { return e.cfg.Version, nil }},
		{"list_commands", (*Engine).listCommands},
		{"known_command", (*Engine).knownCommand},
		{"game", (*Engine).gameCmd},
		{"boardsize", (*Engine).boardsize},
		{"clear_board", (*Engine).clearBoard},
		{"position", (*Engine).position},
		{"play", (*Engine).play},
		{"genmove", (*Engine).genmove},
		{"undo", (*Engine).undoCmd},
		{"analyze", (*Engine).analyze},
		{"legal_moves", (*Engine).legalMoves},
		{"showboard", (*Engine).showboard},
		{"result", (*Engine).result},
		{"set", (*Engine).set},
		{"isready", func(*Engine, []string) (string, error) { return "ready", nil }},
		{"stop", func(*Engine, []string) (string, error) { return "", nil }},
		{"time_settings", (*Engine).timeSettings},
		{"time_left", (*Engine).timeLeft},
		{"quit", func(*Engine, []string) (string, error) { return "", nil }},
	}
}

// takesNoArguments are the commands that refuse arguments.
var takesNoArguments = map[string]bool{"protocol_version": true, "name": true, "version": true,
	"list_commands": true, "quit": true, "clear_board": true, "undo": true, "legal_moves": true,
	"showboard": true, "result": true, "isready": true, "stop": true}

func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// errLineTooLong answers a line longer than MaxLine.
var errLineTooLong = fmt.Errorf("line too long: at most %d bytes", MaxLine)

// readLine returns the next line without its end, or errLineTooLong after
// skipping the rest of an over-long one.
func readLine(r *bufio.Reader) (string, error) {
	line, err := r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = r.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		return "", errLineTooLong
	}
	if err != nil && (len(line) == 0 || !errors.Is(err, io.EOF)) {
		return "", err
	}
	return string(bytes.TrimSuffix(line, []byte("\n"))), nil
}

// input is a line read, or the error that ended reading.
type input struct {
	raw string
	err error
}

// Run reads commands from in and writes responses to out until quit or
// the end of in. Only a failure to read or write, or ctx ending, returns
// an error. Lines are read beside the commands, so that a streamed
// analysis stops as soon as the next command arrives.
func (e *Engine) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	e.ctx = ctx
	r := bufio.NewReaderSize(in, MaxLine)
	w := bufio.NewWriter(out)
	lines := make(chan input)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			raw, err := readLine(r)
			select {
			case lines <- input{raw, err}:
			case <-done:
				return
			}
			if err != nil && !errors.Is(err, errLineTooLong) {
				return
			}
		}
	}()
	var next *input // a line that stopped a streamed analysis
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var l input
		if next != nil {
			l, next = *next, nil
		} else {
			select {
			case l = <-lines:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		raw, rerr := l.raw, l.err
		if rerr != nil && !errors.Is(rerr, errLineTooLong) {
			if errors.Is(rerr, io.EOF) {
				return w.Flush()
			}
			return rerr
		}
		var result string
		var err error
		id, name := "", ""
		if rerr != nil {
			err = rerr
		} else {
			line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			fields := strings.Fields(line)
			if _, perr := strconv.ParseUint(fields[0], 10, 64); perr == nil {
				id, fields = fields[0], fields[1:]
			}
			switch {
			case len(fields) == 0:
				err = fmt.Errorf("missing command after id %s", id)
			case lookup(fields[0]) == nil:
				err = fmt.Errorf("unknown command: %s", env.Quote(fields[0]))
			case takesNoArguments[fields[0]] && len(fields) > 1:
				err = fmt.Errorf("usage: %s (it takes no arguments)", fields[0])
			case fields[0] == "analyze" && (len(fields) == 3 || len(fields) == 4):
				stopped, serr := e.streamAnalyze(ctx, id, fields[1:], w, lines)
				if serr == nil {
					next = stopped
					if err := w.Flush(); err != nil {
						return err
					}
					continue
				}
				err = serr
			default:
				name = fields[0]
				result, err = lookup(name).run(e, fields[1:])
			}
		}
		if err != nil {
			fmt.Fprintf(w, "?%s %s\n\n", id, env.Excerpt(oneLine(err.Error()), maxErrorLine))
		} else if result == "" {
			fmt.Fprintf(w, "=%s\n\n", id)
		} else {
			fmt.Fprintf(w, "=%s %s\n\n", id, result)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if err == nil && name == "quit" {
			return nil
		}
	}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

func wantArgs(args []string, n int, usage string) error {
	if len(args) != n {
		return fmt.Errorf("usage: %s", usage)
	}
	return nil
}

func (e *Engine) listCommands([]string) (string, error) {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, "\n"), nil
}

func (e *Engine) knownCommand(args []string) (string, error) {
	if err := wantArgs(args, 1, "known_command NAME"); err != nil {
		return "", err
	}
	return strconv.FormatBool(lookup(args[0]) != nil), nil
}

// maxErrorLine bounds an error answer: a message quotes what it refuses,
// and a megabyte of garbage must not come back as a megabyte of error.
const maxErrorLine = 300
