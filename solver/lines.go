// Scoring positions read a line at a time, each solved exactly (or only
// won, drawn or lost) by a game's exact solver, the answers written as
// they come: solve --game connect4.

package solver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

// MaxLineBytes bounds an input line: a position's longest form is under
// 100 bytes, and a longer line is answered as a bad one without being
// kept whole.
const MaxLineBytes = 4096

// LineOptions say how to score lines.
type LineOptions struct {
	// Limit is the time for each position (0: none); a position cut
	// short gets bounds.
	Limit time.Duration
	// Weak answers only win (1), draw (0) or loss (-1).
	Weak bool
	// Errors hears each bad line as "line N: why".
	Errors io.Writer
	// Answered, when set, hears of each line answered.
	Answered func()
}

// LineStats add up what the positions took.
type LineStats struct {
	// Interrupted is 1 when an interrupt cut the last position answered.
	Answered, TimedOut, Bad, Interrupted int
	Elapsed                              time.Duration
	// Nodes are the positions the solver searched, when it counts them.
	Nodes uint64
}

// PositionReader is how the named game's positions are read for
// ScoreLines: its solver's ReadPosition, else the game's one-line form
// (and "-" for the start), refusing a finished game.
func PositionReader(g env.Game) func(string) (env.State, error) {
	if s, ok := registry.SolverOf(g.Name()); ok && s.ReadPosition != nil {
		return s.ReadPosition
	}
	return func(text string) (env.State, error) {
		if text == "-" {
			return g.Start(nil), nil
		}
		st, err := g.ParseState(text)
		if err == nil && st.Outcome().Over {
			err = fmt.Errorf("the game is over")
		}
		return st, err
	}
}

// ScoreLines answers each position of in, one a line, on a line of out in
// input order: the position as given, its score and every move's,
// separated by tabs (the moves' scores by spaces, in the order of the
// game's actions, - for an action that is not legal), and a fourth field
// "timeout" when the limit cut it. Blank lines and lines starting with #
// are skipped. A line read cannot read, or whose position x refuses, is
// answered "LINE<tab>error<tab>REASON" and counted; only an interrupted
// solve (ctx ended) or a failed read or write is an error. Interrupted in
// the middle of a position, it answers that position with the bounds
// proven so far and a fourth field "interrupted" before it returns
// ctx's error; the lines after it are not read.
func ScoreLines(ctx context.Context, x env.ExactSolver, read func(string) (env.State, error), in io.Reader, out io.Writer, o LineOptions) (LineStats, error) {
	var st LineStats
	r := bufio.NewReaderSize(in, MaxLineBytes)
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		line, tooLong, rerr := readLine(r)
		if err := ctx.Err(); err != nil {
			return st, err // the read may have been cut by it
		}
		if rerr != nil && rerr != io.EOF {
			return st, fmt.Errorf("reading line %d: %w", n, rerr)
		}
		text := strings.TrimSpace(line)
		if text != "" && !strings.HasPrefix(text, "#") {
			var answer string
			var cut error
			if tooLong {
				answer = st.badLine(o.Errors, n, text, fmt.Errorf("the line is longer than %d bytes: not a position", MaxLineBytes))
			} else {
				answer, cut = st.scoreLine(ctx, x, read, o, n, text)
			}
			if _, err := io.WriteString(out, answer+"\n"); err != nil {
				return st, fmt.Errorf("writing the results: %w", err)
			}
			if cut != nil {
				return st, cut
			}
			if o.Answered != nil {
				o.Answered()
			}
		}
		if rerr == io.EOF {
			return st, nil
		}
	}
}

// scoreLine answers one position line: its output line. Only an
// interrupted command (ctx ended) is an error, returned with the line of
// the bounds proven so far; a bad line is answered as such and counted.
func (st *LineStats) scoreLine(ctx context.Context, x env.ExactSolver, read func(string) (env.State, error), o LineOptions, n int, text string) (string, error) {
	s, err := read(text)
	if err != nil {
		return st.badLine(o.Errors, n, text, err), nil
	}
	pctx, cancel := ctx, context.CancelFunc(func() {})
	if o.Limit > 0 {
		pctx, cancel = context.WithTimeout(ctx, o.Limit)
	}
	counter, counts := x.(interface{ Nodes() uint64 })
	var n0 uint64
	if counts {
		n0 = counter.Nodes()
	}
	t0 := time.Now()
	moves, err := env.ScoreMoves(pctx, x, s, nil, o.Weak)
	el := time.Since(t0)
	cancel()
	interrupted := ctx.Err()
	timedOut := errors.Is(err, context.DeadlineExceeded) && interrupted == nil
	if err != nil && !timedOut && interrupted == nil {
		return st.badLine(o.Errors, n, text, err), nil
	}
	st.Answered++
	st.Elapsed += el
	if counts {
		st.Nodes += counter.Nodes() - n0
	}
	cols := make([]string, s.Game().ActionSize())
	for i := range cols {
		cols[i] = "-"
	}
	for _, m := range moves {
		cols[m.Action] = m.Score.String()
	}
	answer := text + "\t" + env.PositionBounds(moves).String() + "\t" + strings.Join(cols, " ")
	switch {
	case interrupted != nil:
		st.Interrupted++
		answer += "\tinterrupted"
	case timedOut:
		st.TimedOut++
		answer += "\ttimeout"
	}
	return answer, interrupted
}

// badLine reports a line that is not a position to solve, as "line N:
// why", and returns its output line: the line (cut, and quoted with
// escapes, env.Quote, when it holds a tab, a control character or bytes
// that are not text, so that none reaches a terminal), error, why.
func (st *LineStats) badLine(errOut io.Writer, n int, text string, err error) string {
	st.Bad++
	msg := oneLine(err.Error())
	if errOut != nil {
		fmt.Fprintf(errOut, "line %d: %s\n", n, msg)
	}
	shown := env.Excerpt(text, 80)
	if !printable(text) {
		shown = env.Quote(text)
	}
	return shown + "\terror\t" + msg
}

// printable reports whether s is text with no control character.
func printable(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, unicode.IsControl) < 0
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

// CountLines counts the lines ScoreLines answers (not blank, not a
// comment), for a progress bar.
func CountLines(f io.Reader) (int, error) {
	r := bufio.NewReaderSize(f, MaxLineBytes)
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
