package accuracy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/store"
)

// A Set is a position set: critical positions with the exact score of
// every legal move, as a file any game with an exact solver writes and any
// player is judged on. Scores are on the solver's scale (a positive score
// a win for the side to move, 0 a draw, a negative score a loss; larger
// is better), and only their signs decide what a move keeps.
type Set struct {
	// Name is the set's name ("real-games", "random").
	Name string
	// Game is the game's Describe line, which builds it again.
	Game string
	// Scale says what the scores mean.
	Scale string
	// From says where the positions came from.
	From    string
	Entries []Entry
}

// Entry is one position of a set.
type Entry struct {
	// Position is the game's one-line form of the position.
	Position string
	// Score is the position's score: its best move's.
	Score int
	// Moves are the legal moves, in the game's notation, with their
	// scores for the side to move.
	Moves []MoveScore
}

// MoveScore is a move and its exact score.
type MoveScore struct {
	Move  string
	Score int
}

// Class is a score's class: +1 a win, 0 a draw, -1 a loss.
func Class(score int) int {
	switch {
	case score > 0:
		return 1
	case score < 0:
		return -1
	}
	return 0
}

// Keeping counts the moves that keep the position's class.
func (e Entry) Keeping() int {
	n := 0
	for _, m := range e.Moves {
		if Class(m.Score) == Class(e.Score) {
			n++
		}
	}
	return n
}

// Critical reports whether some move gives the position's class away.
func (e Entry) Critical() bool { return e.Keeping() < len(e.Moves) }

// Set files are text: a header of "# key: value" lines, then one line a
// position, tab-separated: the position, its score, and its moves as
// "move:score" separated by spaces.
const (
	setMagic = "# sliderzero position set 1"
	// MaxSetBytes bounds a set file: a set of 100,000 positions of the
	// largest boards fits.
	MaxSetBytes = 64 << 20
	// maxSetLine bounds one line of a set file.
	maxSetLine = 64 << 10
)

// Write writes the set in its file format.
func (s *Set) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, setMagic)
	for _, h := range [][2]string{{"name", s.Name}, {"game", s.Game}, {"scale", s.Scale}, {"from", s.From}} {
		fmt.Fprintf(bw, "# %s: %s\n", h[0], oneLine(h[1]))
	}
	fmt.Fprintln(bw, "# position\tscore\tmove:score ...")
	for _, e := range s.Entries {
		bw.WriteString(e.Position)
		fmt.Fprintf(bw, "\t%d\t", e.Score)
		for i, m := range e.Moves {
			if i > 0 {
				bw.WriteByte(' ')
			}
			fmt.Fprintf(bw, "%s:%d", m.Move, m.Score)
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// WriteFile writes the set to path atomically.
func (s *Set) WriteFile(path string) error {
	var buf bytes.Buffer
	if err := s.Write(&buf); err != nil {
		return err
	}
	return store.WriteAtomic(path, buf.Bytes())
}

// ReadSet reads a set in its file format. It checks the format, not the
// positions: Check does that against the game.
func ReadSet(r io.Reader) (*Set, error) {
	sc := bufio.NewScanner(io.LimitReader(r, MaxSetBytes+1))
	sc.Buffer(make([]byte, 0, 4096), maxSetLine)
	s := &Set{}
	n, read := 0, 0
	for sc.Scan() {
		n++
		line := sc.Text()
		read += len(line) + 1
		if read > MaxSetBytes {
			return nil, fmt.Errorf("a set file is at most %d MB", MaxSetBytes>>20)
		}
		if n == 1 {
			if strings.TrimSpace(line) != setMagic {
				return nil, fmt.Errorf("line 1: not a position set (want %q, found %s)", setMagic, env.Quote(line))
			}
			continue
		}
		if strings.HasPrefix(line, "#") {
			k, v, ok := strings.Cut(strings.TrimPrefix(line, "#"), ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			switch strings.TrimSpace(k) {
			case "name":
				s.Name = v
			case "game":
				s.Game = v
			case "scale":
				s.Scale = v
			case "from":
				s.From = v
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		e, err := parseEntry(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		s.Entries = append(s.Entries, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d KB", n+1, maxSetLine>>10)
		}
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("empty file: not a position set")
	}
	if s.Game == "" {
		return nil, fmt.Errorf("the set names no game (a \"# game:\" line)")
	}
	return s, nil
}

func parseEntry(line string) (Entry, error) {
	f := strings.Split(line, "\t")
	if len(f) != 3 {
		return Entry{}, fmt.Errorf("want 3 tab-separated fields (position, score, moves), found %d in %s", len(f), env.Quote(line))
	}
	e := Entry{Position: f[0]}
	var err error
	if e.Score, err = strconv.Atoi(f[1]); err != nil {
		return Entry{}, fmt.Errorf("score %s is not a whole number", env.Quote(f[1]))
	}
	seen := map[string]bool{}
	for _, item := range strings.Fields(f[2]) {
		mv, sc, ok := strings.Cut(item, ":")
		if !ok || mv == "" {
			return Entry{}, fmt.Errorf("move %s is not move:score", env.Quote(item))
		}
		v, err := strconv.Atoi(sc)
		if err != nil {
			return Entry{}, fmt.Errorf("move %s: score %s is not a whole number", env.Quote(mv), env.Quote(sc))
		}
		if seen[mv] {
			return Entry{}, fmt.Errorf("move %s is listed twice", env.Quote(mv))
		}
		seen[mv] = true
		e.Moves = append(e.Moves, MoveScore{mv, v})
	}
	if len(e.Moves) == 0 {
		return Entry{}, fmt.Errorf("a position without moves")
	}
	return e, nil
}

// ReadSetFile reads a set file, refusing one over MaxSetBytes before
// reading it.
func ReadSetFile(path string) (*Set, error) {
	data, err := store.ReadFile(path, MaxSetBytes)
	if err != nil {
		return nil, err
	}
	s, err := ReadSet(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Check checks the set against the game, so that it measures something
// (issue 65: an empty set, positions no move gives away, a score of 99 on
// Connect Four's scale of -18 to 18, all once measured as kept): it holds
// positions; every position parses and is not over; its moves are exactly
// its legal moves, each legal (an illegal one is named as such); every
// score is one the game's solver gives; the position's score is its best
// move's; and the position is critical, some move giving its value away
// (a lost position never is: every move keeps a loss).
func (s *Set) Check(g env.Game) error {
	if len(s.Entries) == 0 {
		return fmt.Errorf("the set holds no positions: it measures nothing")
	}
	sv, _ := registry.SolverOf(g.Name())
	for i, e := range s.Entries {
		if err := e.check(g, sv); err != nil {
			return fmt.Errorf("position %d %s: %w", i+1, env.Quote(e.Position), err)
		}
	}
	return nil
}

// check is Check of one entry, with the game's solver's scale.
func (e Entry) check(g env.Game, sv registry.Solver) error {
	st, err := g.ParseState(e.Position)
	if err != nil {
		return err
	}
	if st.Outcome().Over {
		return fmt.Errorf("the game is over")
	}
	listed := map[int]bool{}
	best := e.Moves[0].Score
	for _, m := range e.Moves {
		a, err := st.ParseAction(m.Move)
		if err == nil && !env.IsLegal(st, a) {
			err = fmt.Errorf("move %s is not legal there", env.Quote(m.Move))
		}
		if err != nil {
			return err
		}
		if listed[a] {
			return fmt.Errorf("move %s is listed twice", env.Quote(m.Move))
		}
		listed[a] = true
		if err := checkScore(st, sv, m.Score); err != nil {
			return fmt.Errorf("move %s: %w", env.Quote(m.Move), err)
		}
		best = max(best, m.Score)
	}
	switch legal := st.LegalActions(nil); {
	case len(legal) != len(e.Moves):
		return fmt.Errorf("%d moves listed, %d legal", len(e.Moves), len(legal))
	case best != e.Score:
		return fmt.Errorf("the position's score %d is not its best move's, %d", e.Score, best)
	case Class(e.Score) < 0:
		return fmt.Errorf("the position is lost for the side to move: every move keeps a loss, and it measures nothing")
	case !e.Critical():
		return fmt.Errorf("no move gives the position's value away: it is not critical, and measures nothing")
	}
	return nil
}

// checkScore refuses a score the game's solver never gives: past its
// largest, or one that says the game ends in fewer than one ply.
func checkScore(st env.State, sv registry.Solver, score int) error {
	if sv.MaxScore > 0 && (score > sv.MaxScore || score < -sv.MaxScore) {
		return fmt.Errorf("score %d is outside the solver's scale, %d to %d", score, -sv.MaxScore, sv.MaxScore)
	}
	if sv.PliesToEnd != nil && score != 0 {
		if n, ok := sv.PliesToEnd(st, score); !ok || n < 1 {
			return fmt.Errorf("score %d is not one the solver gives here", score)
		}
	}
	return nil
}

// Entry of a position from an exact solver's move scores, which must be
// exact.
func entryOf(s env.State, scores []env.MoveScore) (Entry, error) {
	e := Entry{Position: s.String()}
	for i, m := range scores {
		if !m.Score.Exact() {
			return Entry{}, fmt.Errorf("the solver left move %s unsettled (%v)", s.ActionString(m.Action), m.Score)
		}
		if i == 0 || m.Score.Lo > e.Score {
			e.Score = m.Score.Lo
		}
		e.Moves = append(e.Moves, MoveScore{s.ActionString(m.Action), m.Score.Lo})
	}
	return e, nil
}

// Sources of a set's positions.
const (
	// FromGames: positions of games between players (each ordered pair,
	// each player against itself included).
	FromGames = "selfplay"
	// FromRandom: positions of random playouts, one drawn from each.
	FromRandom = "random"
)
