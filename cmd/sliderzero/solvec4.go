// solve --game connect4: positions read a line at a time, each solved
// exactly (or weakly) with the game's solver, the results written as
// they come.

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	c4 "github.com/sliderzero/sliderzero/env/connect4/solve"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/store"
)

// c4Options are solve's flags for Connect Four.
type c4Options struct {
	in, out string
	limit   time.Duration
	weak    bool
	tableMB int
}

// c4Stats adds up what the positions took.
type c4Stats struct {
	answered, timedOut, bad int
	elapsed                 time.Duration
	nodes                   uint64
}

// solveConnect4 answers each Connect Four position of the input with its
// score and every column's (see solveAbout).
func solveConnect4(ctx context.Context, std stdio, o c4Options) error {
	if o.limit < 0 {
		return usageError{fmt.Errorf("solve: --time %s is negative", o.limit)}
	}
	if o.tableMB < 1 || o.tableMB > 1<<20 {
		return usageError{fmt.Errorf("solve: --table-mb %d is outside 1 to %d", o.tableMB, 1<<20)}
	}
	if o.out != "" {
		if err := checkWritable(o.out); err != nil {
			return err
		}
	}
	in, total := std.in, -1
	if o.in != "" {
		f, err := store.Open(o.in)
		if err != nil {
			return fmt.Errorf("--in: %w", err)
		}
		defer f.Close()
		if total, err = countPositions(f); err != nil {
			return fmt.Errorf("--in %s: %w", o.in, err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("--in %s: %w", o.in, err)
		}
		in = f
	}
	w, finish, abort, err := openResults(o.out, std.out)
	if err != nil {
		return err
	}
	defer abort()
	mode := c4.Strong
	if o.weak {
		mode = c4.Weak
	}
	s := c4.New(solver.Connect4Board, o.tableMB<<20/c4.EntryBytes)
	var bar *countBar
	if total >= 0 {
		bar = newCountBar(std.err, total, "positions")
	}
	var st c4Stats
	r := bufio.NewReaderSize(in, maxLineBytes)
	for n := 1; ; n++ {
		line, tooLong, rerr := readLine(r)
		if rerr != nil && rerr != io.EOF {
			return fmt.Errorf("solve: reading line %d: %w", n, rerr)
		}
		text := strings.TrimSpace(line)
		if text != "" && !strings.HasPrefix(text, "#") {
			var answer string
			if tooLong {
				answer = st.badLine(std.err, n, text, fmt.Errorf("the line is longer than %d bytes: not a position", maxLineBytes))
			} else {
				answer, err = solveLine(ctx, s, mode, o.limit, n, text, &st, std.err)
				if err != nil {
					return err
				}
			}
			if _, err := io.WriteString(w, answer+"\n"); err != nil {
				return fmt.Errorf("solve: writing the results: %w", err)
			}
			if bar != nil {
				bar.Add(1)
			}
		}
		if rerr == io.EOF {
			break
		}
	}
	if bar != nil {
		bar.Finish()
	}
	if err := finish(); err != nil {
		return err
	}
	st.report(std.err, o.weak)
	if st.bad > 0 {
		return fmt.Errorf("solve: %d of %d lines were not positions to solve (see above)", st.bad, st.bad+st.answered)
	}
	return nil
}

// solveLine answers one position line: its output line. Only an
// interrupted command (ctx ended) is an error; a bad line is answered as
// such and counted.
func solveLine(ctx context.Context, s *c4.Solver, mode c4.Mode, limit time.Duration, n int, text string, st *c4Stats, errOut io.Writer) (string, error) {
	p, err := parseConnect4(text)
	if err != nil {
		return st.badLine(errOut, n, text, err), nil
	}
	pctx, cancel := ctx, context.CancelFunc(func() {})
	if limit > 0 {
		pctx, cancel = context.WithTimeout(ctx, limit)
	}
	n0, t0 := s.Nodes(), time.Now()
	moves, err := s.Analyze(pctx, p, mode)
	el := time.Since(t0)
	cancel()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	timedOut := errors.Is(err, context.DeadlineExceeded)
	if err != nil && !timedOut {
		return st.badLine(errOut, n, text, err), nil
	}
	st.answered++
	st.elapsed += el
	st.nodes += s.Nodes() - n0
	// The position's score is its best move's: at least the highest lower
	// bound, at most the highest upper bound.
	cols := make([]string, solver.Connect4Board.W)
	for i := range cols {
		cols[i] = "-"
	}
	var best c4.Bounds
	for i, m := range moves {
		if i == 0 || m.Score.Lo > best.Lo {
			best.Lo = m.Score.Lo
		}
		if i == 0 || m.Score.Hi > best.Hi {
			best.Hi = m.Score.Hi
		}
		cols[m.Column] = m.Score.String()
	}
	answer := text + "\t" + best.String() + "\t" + strings.Join(cols, " ")
	if timedOut {
		st.timedOut++
		answer += "\ttimeout"
	}
	return answer, nil
}

// badLine reports a line that is not a position to solve, on standard
// error as "line N: why", and returns its output line: the line (cut, and
// with no tab or control character), error, why.
func (st *c4Stats) badLine(errOut io.Writer, n int, text string, err error) string {
	st.bad++
	msg := oneLine(err.Error())
	fmt.Fprintf(errOut, "line %d: %s\n", n, msg)
	return oneLine(env.Excerpt(text, 80)) + "\terror\t" + msg
}

// report prints the totals to standard error.
func (st *c4Stats) report(w io.Writer, weak bool) {
	if st.answered == 0 {
		fmt.Fprintf(w, "no position solved (%d bad lines)\n", st.bad)
		return
	}
	what := "exact scores"
	if weak {
		what = "win, draw or loss"
	}
	plural := "s"
	if st.answered == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "solved %d position%s (%s", st.answered, plural, what)
	if st.timedOut > 0 {
		fmt.Fprintf(w, "; %d cut by --time", st.timedOut)
	}
	if st.bad > 0 {
		fmt.Fprintf(w, "; %d bad lines", st.bad)
	}
	mean := st.elapsed / time.Duration(st.answered)
	fmt.Fprintf(w, ") in %s: mean %s a position, %d nodes, %.2fM nodes/s\n",
		roundDuration(st.elapsed), roundDuration(mean), st.nodes, float64(st.nodes)/max(st.elapsed.Seconds(), 1e-9)/1e6)
}

// parseConnect4 reads a position in one of the forms solveAbout lists,
// and refuses one whose game is over.
func parseConnect4(text string) (c4.Position, error) {
	b := solver.Connect4Board
	if i := strings.IndexFunc(text, func(r rune) bool { return r != ' ' && unicode.IsSpace(r) || unicode.IsControl(r) }); i >= 0 {
		return c4.Position{}, fmt.Errorf("malformed position %s: a tab or control character inside (separate moves with spaces)", env.Quote(text))
	}
	var p c4.Position
	var err error
	switch {
	case text == "-":
		// the empty board
	case strings.Contains(text, "/"):
		var st env.State
		if st, err = connect4.New().ParseState(text); err == nil {
			p, err = solver.Connect4Position(st)
		}
	case strings.Trim(text, "0123456789") == "":
		p, err = b.ParseMoves(text)
	default:
		p, err = parseLetters(text)
	}
	if err != nil {
		return c4.Position{}, err
	}
	if b.LastWon(p) {
		side := "X"
		if p.Moves()%2 == 0 {
			side = "O"
		}
		return c4.Position{}, fmt.Errorf("the game is over: %s has four in a row", side)
	}
	if b.Over(p) {
		return c4.Position{}, fmt.Errorf("the game is over: the board is full")
	}
	return p, nil
}

// parseLetters reads the game's moves from the empty board: letters a to
// g (or digits), one a move, with or without spaces between them.
func parseLetters(text string) (c4.Position, error) {
	var moves []string
	if strings.Contains(text, " ") {
		moves = strings.Fields(text)
	} else {
		for _, r := range text {
			moves = append(moves, string(r))
		}
	}
	st := connect4.New().Start(nil)
	for i, m := range moves {
		a, err := st.ParseAction(m)
		if err != nil {
			return c4.Position{}, fmt.Errorf("move %d: %w", i+1, err)
		}
		st.Apply(a)
	}
	return solver.Connect4Position(st)
}

// readLine reads one line without its end of line; tooLong says it was
// longer than the reader's buffer, and only its beginning is returned.
func readLine(r *bufio.Reader) (line string, tooLong bool, err error) {
	b, err := r.ReadSlice('\n')
	line = string(b)
	for err == bufio.ErrBufferFull {
		tooLong = true
		_, err = r.ReadSlice('\n')
	}
	return strings.TrimSuffix(line, "\n"), tooLong, err
}

// countPositions counts the lines that are positions (not blank, not a
// comment), for the progress bar.
func countPositions(f io.Reader) (int, error) {
	r := bufio.NewReaderSize(f, maxLineBytes)
	n := 0
	for {
		line, _, err := readLine(r)
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			n++
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// openResults is where the results go: standard output as they come, or
// a temporary file beside path that finish renames into place (abort,
// which is harmless after finish, removes it).
func openResults(path string, stdout io.Writer) (w io.Writer, finish func() error, abort func(), err error) {
	if path == "" {
		return stdout, func() error { return nil }, func() {}, nil
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--out %s: %w", path, err)
	}
	bw := bufio.NewWriter(f)
	done := false
	abort = func() {
		if !done {
			f.Close()
			os.Remove(f.Name())
		}
	}
	finish = func() error {
		err := errors.Join(bw.Flush(), f.Chmod(0o644), f.Sync(), f.Close())
		if err == nil {
			// the name may have become something else meanwhile
			err = checkWritable(path)
		}
		if err == nil {
			err = os.Rename(f.Name(), path)
		}
		if err != nil {
			os.Remove(f.Name())
			done = true
			return fmt.Errorf("writing %s: %w", path, err)
		}
		done = true
		return nil
	}
	return bw, finish, abort, nil
}

// oneLine replaces tabs, line breaks and other control characters by
// spaces, so that a field stays one field of one line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
