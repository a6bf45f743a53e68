package solver

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sliderzero/sliderzero/env/connect4"
	c4solve "github.com/sliderzero/sliderzero/env/connect4/solve"
	"github.com/sliderzero/sliderzero/env/slider"
)

// ScoreLines answers each position line in order with the exact scores
// (a position that wins with the fastest possible disc, and known late
// ones), answers bad lines as errors without stopping, skips comments
// and blank lines, and cuts a position at the limit with bounds.
func TestScoreLines(t *testing.T) {
	g := connect4.New()
	input := strings.Join([]string{
		"# a comment, then a blank line",
		"",
		"44444453",
		"......./......./......./...O.../...O.../...X.XX O",
		"4444444",
		"d d d d d d e c",
		"12x",
		"1212121",
		strings.Repeat("1", MaxLineBytes+10),
	}, "\n")
	var out, errs strings.Builder
	answered := 0
	st, err := ScoreLines(context.Background(), c4solve.NewExact(16, 0), PositionReader(g), strings.NewReader(input), &out,
		LineOptions{Errors: &errs, Answered: func() { answered++ }})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"44444453\t2\t-2 -2 2 - -2 1 -1",
		"......./......./......./...O.../...O.../...X.XX O\t5\t-18 -18 -18 -18 5 -18 -18",
		"4444444\terror\tmove 7: column 4 is full",
		"d d d d d d e c\t2\t-2 -2 2 - -2 1 -1",
		"12x\terror\tmove 3: malformed move \"x\": want a column, a to g (or 1 to 7)",
		"1212121\terror\tthe game is over: X has four in a row",
		strings.Repeat("1", 80) + "...\terror\tthe line is longer than 4096 bytes: not a position",
	}
	if got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the answers:\n%s\nwant\n%s", out.String(), strings.Join(want, "\n"))
	}
	if st.Answered != 3 || st.Bad != 4 || answered != 7 || st.Nodes == 0 {
		t.Errorf("stats %+v, %d lines answered", st, answered)
	}
	for _, w := range []string{"line 5: move 7: column 4 is full", "line 7: move 3:", "line 8: the game is over", "line 9: the line is longer"} {
		if !strings.Contains(errs.String(), w) {
			t.Errorf("the errors lack %q:\n%s", w, errs.String())
		}
	}
	if n, err := CountLines(strings.NewReader(input)); err != nil || n != 7 {
		t.Errorf("CountLines: %d, %v; want 7", n, err)
	}

	// The weak mode answers 1, 0 or -1; a limit cuts the empty board
	// with bounds.
	out.Reset()
	if _, err = ScoreLines(context.Background(), c4solve.NewExact(16, 0), PositionReader(g), strings.NewReader("4444445333331221\n"), &out,
		LineOptions{Weak: true}); err != nil || out.String() != "4444445333331221\t1\t0 0 0 - 1 1 0\n" {
		t.Fatalf("weak answers: %v\n%s", err, out.String())
	}
	out.Reset()
	st, err = ScoreLines(context.Background(), c4solve.NewExact(16, 0), PositionReader(g), strings.NewReader("-\n"), &out,
		LineOptions{Weak: true, Limit: 50 * time.Millisecond})
	if f := strings.Split(strings.TrimSpace(out.String()), "\t"); err != nil || len(f) != 4 || f[0] != "-" || !strings.Contains(f[1], "..") || f[3] != "timeout" || st.TimedOut != 1 {
		t.Errorf("a position cut by the limit: %q, %v (%+v)", out.String(), err, st)
	}

	// An interrupted solve is an error, not an answer.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ScoreLines(ctx, c4solve.NewExact(16, 0), PositionReader(g), strings.NewReader("4\n"), &out, LineOptions{}); err == nil {
		t.Error("a cancelled solve answered")
	}
}

// A game whose solver reads no positions of its own is read in its
// one-line form, "-" its start; a finished game is refused.
func TestPositionReaderDefault(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 3})
	read := PositionReader(g)
	if s, err := read("-"); err != nil || s.String() != g.Start(nil).String() {
		t.Errorf("-: %v, %v", s, err)
	}
	if s, err := read("H++/H++/+VV V"); err != nil || s.String() != "H++/H++/+VV V" {
		t.Errorf("a position: %v, %v", s, err)
	}
	if _, err := read("+++/+++/+VV V"); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("a finished game: %v", err)
	}
}

// An interrupt in the middle of a position answers it with the bounds
// proven so far and "interrupted", after the lines already answered, and
// reads no further (issue 65: an interrupted solve printed only "context
// canceled").
func TestScoreLinesInterrupted(t *testing.T) {
	g := connect4.New()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// interrupted 0.2 s into the second position, the first column played
	out := &cancelAfterFirstLine{cancel: cancel}
	st, err := ScoreLines(ctx, c4solve.NewExact(16, 0), PositionReader(g), strings.NewReader("44444453\n4\n44444453\n"), out, LineOptions{})
	if err != context.Canceled || time.Since(out.cut) > 2*time.Second {
		t.Fatalf("error %v %s after the interrupt, want the interrupt at once", err, time.Since(out.cut))
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || lines[0] != "44444453\t2\t-2 -2 2 - -2 1 -1" || !strings.HasPrefix(lines[1], "4\t") ||
		!strings.Contains(lines[1], "..") || !strings.HasSuffix(lines[1], "\tinterrupted") || st.Answered != 2 || st.Interrupted != 1 {
		t.Errorf("answers %q, stats %+v", lines, st)
	}
}

// cancelAfterFirstLine is an output that interrupts 0.2 s after its first
// line.
type cancelAfterFirstLine struct {
	b      strings.Builder
	cancel func()
	cut    time.Time
}

func (c *cancelAfterFirstLine) Write(p []byte) (int, error) {
	if c.b.Len() == 0 {
		c.cut = time.Now().Add(200 * time.Millisecond)
		time.AfterFunc(200*time.Millisecond, c.cancel)
	}
	return c.b.Write(p)
}

func (c *cancelAfterFirstLine) String() string { return c.b.String() }

// A bad line's control characters and bytes that are not text never reach
// the output as they are: the line is quoted with escapes (issue 65).
func TestBadLinesAreQuoted(t *testing.T) {
	g := connect4.New()
	var out strings.Builder
	input := "44\x1b[31m53\n\x07\x08abc\n\xff\xfe4\n12x\n"
	if _, err := ScoreLines(context.Background(), c4solve.NewExact(16, 0), PositionReader(g), strings.NewReader(input), &out, LineOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		field, _, _ := strings.Cut(l, "\t")
		if strings.IndexFunc(l, func(r rune) bool { return r == 0x1b || r == 7 || r == 8 }) >= 0 || !utf8.ValidString(l) || (field != "12x" && !strings.HasPrefix(field, `"`)) {
			t.Errorf("answer %q", l)
		}
	}
	if !strings.HasPrefix(out.String(), `"44\x1b[31m53"`+"\terror\t") {
		t.Errorf("the first answer: %q", out.String())
	}
}
