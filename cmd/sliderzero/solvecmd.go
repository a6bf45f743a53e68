package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	c4 "github.com/sliderzero/sliderzero/env/connect4/solve"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/store"
)

const solveAbout = `Solves positions exactly, for judging players (sliderzero accuracy, sets,
the solver players, the training ladder); training never learns from it.
--game chooses the game: slider (the default) or connect4.

Slider (--game slider): solves a small board by retrograde analysis into a
table file (--out, required): the value (win, draw or loss for the side to
move) and the distance to the end in plies (shortest win, longest loss) of
every position, either side to move, with no ply cap; positions neither
side can force are draws. The file also keeps two sets of critical
positions (where some legal move gives away the value), --positions each:
from real games between baseline players, and drawn uniformly from every
position. On two cores: 4x4 in well under a second; 5x5 in about a
minute, with about 0.5 GB of memory and a 60 MB file. 6x6 is out of reach
(about 10^11 positions). --verify then checks every entry against its
moves.

Connect Four (--game connect4, 7x6): reads positions, one a line, from
--in (default standard input) and writes each one's exact score and every
column's, by the search solver of env/connect4/solve. A position is
  the columns played from the empty board as digits 1 to 7: 4453
  the same as the game's moves, letters a to g, maybe spaced: ddec, d d e c
  the game's one-line form: ......./......./......./......./......./...X... O
  - for the empty board.
Blank lines and lines starting with # are skipped (they get no output
line). Each position gets one output line, in input order, its fields
separated by tabs: the position as given; its score for the side to move;
the score of playing each column 1 to 7, separated by spaces, - for a full
column:
  4453	-2	-4 -3 -2 -2 -3 -4 -5
Scores: 0 a draw; a win scores the winner's discs left unplayed after its
winning disc, plus one (18 for the fastest win, 1 for a win with the last
disc); a loss scores the negative. --weak answers only 1, 0 or -1, faster.
When --time cuts a position, its scores are bounds, lo..hi, and a fourth
field says timeout. A bad line (malformed, an illegal move, a finished
game) gets the line, error and the reason, on standard output and on
standard error, and the command exits with status 1 once every other line
is answered. The table (--table-mb) is kept from one position to the next:
positions of one game solve faster in order. Positions late in the game
solve in microseconds, middle-game ones in milliseconds; the first moves
can take minutes (give --time). --out is written to a temporary name and
renamed into place when all is done.

Examples:
  sliderzero solve --size 5 --out checkpoints/tables/slider-5x5.table
  echo 4453 | sliderzero solve --game connect4
  sliderzero solve --game connect4 --in positions.txt --out scores.txt --time 10s`

// solveFlags are the flags each game's solve takes (the rest are
// refused).
var solveFlags = map[string][]string{
	"slider":   {"size", "blocked", "verify", "positions", "games-per-pair", "seed", "parallel"},
	"connect4": {"in", "time", "weak", "table-mb"},
}

func runSolve(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	gameName := fs.String("game", "slider", "the game: slider (a board's table) or connect4 (positions read from --in)")
	size := fs.Int("size", 5, "slider: board size (3 to 5 in practice)")
	blockedFlag := fs.String("blocked", "none", "slider: blocked cells: none, or a list such as c3,d4 (one table per layout)")
	out := fs.String("out", "", "slider: the table file to write (required); connect4: the results (default: standard output)")
	verify := fs.Bool("verify", false, "slider: check every entry against its moves after solving")
	positions := fs.Int("positions", 1000, "slider: critical positions in each set (0: no sets, just the values)")
	gamesPerPair := fs.Int("games-per-pair", 6, "slider: real games per ordered pair of baselines")
	seed := fs.Uint64("seed", 1, "slider: seed of the baselines' games and of the random positions")
	parallel := fs.Int("parallel", runtime.NumCPU(), "slider: games played at once")
	in := fs.String("in", "", "connect4: the positions, one a line (default: standard input)")
	limit := fs.Duration("time", 0, "connect4: time for each position, such as 10s; a position cut short gets bounds (0: no limit)")
	weak := fs.Bool("weak", false, "connect4: only win (1), draw (0) or loss (-1), faster")
	tableMB := fs.Int("table-mb", 180, "connect4: the transposition table's memory in MB")
	if err := parseFlags(fs, args, io, solveAbout); err != nil {
		return ignoreHelp(err)
	}
	game := strings.ToLower(*gameName)
	if _, ok := solveFlags[game]; !ok {
		if _, err := games.Options(game); err != nil {
			return fmt.Errorf("solve: %w", err)
		}
		return fmt.Errorf("solve: --game %s: solve solves slider (into a table) and connect4 (positions); see sliderzero prove for the others", game)
	}
	var misplaced error
	fs.Visit(func(f *flag.Flag) {
		for g, names := range solveFlags {
			if g != game && slices.Contains(names, f.Name) && misplaced == nil {
				misplaced = fmt.Errorf("solve: --%s applies to --game %s, not %s", f.Name, g, game)
			}
		}
	})
	if misplaced != nil {
		return misplaced
	}
	if game == "connect4" {
		return solveConnect4(ctx, io, c4Options{in: *in, out: *out, limit: *limit, weak: *weak, tableMB: *tableMB})
	}
	if *out == "" {
		return fmt.Errorf("solve: --out FILE is required")
	}
	if err := checkWritable(*out); err != nil {
		return err
	}
	cells, random, err := slider.ParseBlocked(*blockedFlag)
	if err != nil {
		return fmt.Errorf("--blocked: %w", err)
	}
	if random {
		return fmt.Errorf("--blocked random: a table covers one layout; give the cells, or none")
	}
	if *positions < 0 || *parallel < 1 || *gamesPerPair < 1 {
		return fmt.Errorf("solve: --positions must not be negative, --games-per-pair and --parallel must be at least 1")
	}
	t0 := time.Now()
	bar := newCountBar(io.err, 1000, "solving")
	last := 0
	tab, err := solver.Solve(ctx, *size, cells, func(done, total int64) {
		now := int(1000 * done / total)
		bar.Add(now - last)
		last = now
	})
	bar.Finish()
	if err != nil {
		return err
	}
	st := tab.Stats()
	fmt.Fprintf(io.out, "%s: %d positions solved in %.1fs\n", tab.Describe(), tab.Positions(), tab.Seconds)
	fmt.Fprintf(io.out, "with both sides on the board: %d wins, %d draws, %d losses for the side to move; longest game %d plies\n",
		st.Wins, st.Draws, st.Losses, st.Longest)
	g := tab.Game()
	start := g.NewState(nil)
	for _, side := range []env.Side{slider.H, slider.V} {
		s, err := g.PositionOn(start.Pieces(slider.H), start.Pieces(slider.V), start.Blocked(), side)
		if err != nil {
			return err
		}
		v, _ := tab.Value(s)
		fmt.Fprintf(io.out, "the start with %s to move: %v for %s\n", g.SideName(side), v, g.SideName(side))
	}
	if *verify {
		t1 := time.Now()
		n, err := tab.Verify(ctx)
		if err != nil {
			return fmt.Errorf("verification failed: %w", err)
		}
		fmt.Fprintf(io.out, "verified: all %d entries agree with their moves (%.1fs)\n", n, time.Since(t1).Seconds())
	}
	if *positions > 0 {
		gbar := newCountBar(io.err, len(accuracy.Baselines)*len(accuracy.Baselines)**gamesPerPair, "baseline games")
		err = accuracy.Build(ctx, tab, accuracy.BuildOptions{Count: *positions, GamesPerPair: *gamesPerPair, Seed: *seed,
			Parallel: *parallel, Progress: func(int, int) { gbar.Add(1) }})
		gbar.Finish()
		if err != nil {
			return err
		}
		for _, name := range accuracy.SetNames {
			fmt.Fprintf(io.out, "position set %s: %d critical positions\n", name, len(tab.Sets[name]))
		}
	}
	if err := tab.Write(*out); err != nil {
		return err
	}
	fmt.Fprintf(io.out, "wrote %s (%.1f MB) in %.1fs in all; peak memory %s\n", *out, fileMB(*out), time.Since(t0).Seconds(), peakMemory())
	return nil
}

// fileMB is a file's size in megabytes, 0 if it cannot be read.
func fileMB(path string) float64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return float64(fi.Size()) / (1 << 20)
}

// c4Options are solve's flags for Connect Four.
type c4Options struct {
	in, out string
	limit   time.Duration
	weak    bool
	tableMB int
}

// maxLineBytes bounds an input line: a position's longest form is under
// 100 bytes, and a longer line is answered as a bad one without being
// kept whole.
const maxLineBytes = 4096

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
		return fmt.Errorf("solve: --time %s is negative", o.limit)
	}
	if o.tableMB < 1 || o.tableMB > 1<<20 {
		return fmt.Errorf("solve: --table-mb %d is outside 1 to %d", o.tableMB, 1<<20)
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

// roundDuration keeps three significant digits of a duration.
func roundDuration(d time.Duration) time.Duration {
	unit := time.Duration(1)
	for d/unit >= 1000 {
		unit *= 10
	}
	return d.Round(unit)
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
