// Package pons judges Connect Four players on Pascal Pons' public test
// sets (blog.gamesolver.org, "Solving Connect Four", part 2: the test
// protocol), counted as AlphaZero.jl counts them
// (games/connect-four/scripts/pons_benchmark.jl): in every position of a
// set the player moves once, and the move is an error when its class
// (win, draw or loss for the mover, with best play) is worse than the
// best move's. Lost positions count too (no move there is an error).
//
// A set file is one position a line, "MOVES SCORE": the columns played
// from the empty board (digits 1 to 7) and the position's exact score for
// the side to move, on the scale of Pons' solver (and of
// env/connect4/solve). The sets give the position's score, not its
// moves', so every legal move of every position is labelled once with
// its class by the project's exact solver (Label) and the labels are
// kept in a file beside the set (Labels), which later runs read instead
// of solving again.
package pons

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/store"
)

// Set is one of Pons' test sets.
type Set struct {
	// Name is the set's file name, Test_L1_R1 for Pons' own.
	Name string
	// Digest identifies the file's content (SHA-256, hex): a labels file
	// names the set it labels by it.
	Digest  string
	Entries []Entry
}

// Entry is one position of a set.
type Entry struct {
	// Line is the position's line in the file, from 1.
	Line int
	// Moves are the columns played from the empty board, digits 1 to 7.
	Moves string
	// Score is the set's exact score of the position for the side to
	// move: positive a win, 0 a draw, negative a loss.
	Score int
}

// Class is the entry's value for the side to move: Win, Draw or Loss.
func (e Entry) Class() Class { return classOf(e.Score) }

// State is the entry's position.
func (e Entry) State() (env.State, error) { return play(e.Moves) }

// Limits of a set file.
const (
	// MaxSetBytes bounds a set file (Pons' largest is 38 kB).
	MaxSetBytes = 16 << 20
	// maxLine bounds one line: 42 moves, a score and some spaces.
	maxLine = 256
)

// ReadSet reads a set file; its name is the file's base name.
func ReadSet(path string) (*Set, error) {
	data, err := store.ReadFile(path, MaxSetBytes)
	if err != nil {
		return nil, err
	}
	return ParseSet(filepath.Base(path), data)
}

// ParseSet reads a set from its file's content. Blank lines are skipped; any
// other line must be "MOVES SCORE" (separated by spaces or tabs) with
// legal moves that do not end the game and a score the position allows;
// a line that is not is refused with an error naming it.
func ParseSet(name string, data []byte) (*Set, error) {
	sum := sha256.Sum256(data)
	s := &Set{Name: name, Digest: hex.EncodeToString(sum[:])}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, maxLine), maxLine)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		e, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, n, err)
		}
		e.Line = n
		s.Entries = append(s.Entries, e)
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			err = fmt.Errorf("a line longer than %d bytes", maxLine)
		}
		return nil, fmt.Errorf("%s line %d: %w", name, len(s.Entries)+1, err)
	}
	if len(s.Entries) == 0 {
		return nil, fmt.Errorf("%s: no positions", name)
	}
	return s, nil
}

// parseLine reads "MOVES SCORE".
func parseLine(line string) (Entry, error) {
	f := strings.Fields(line)
	if len(f) != 2 {
		return Entry{}, fmt.Errorf("%s: want the moves and the score, separated by a space (such as 4453 -2)", env.Quote(line))
	}
	st, err := play(f[0])
	if err != nil {
		return Entry{}, err
	}
	score, err := strconv.Atoi(f[1])
	if err != nil {
		return Entry{}, fmt.Errorf("score %s is not a whole number", env.Quote(f[1]))
	}
	// A win scores at most the mover's discs left, the next one
	// included; a loss at least minus the opponent's.
	n := st.Ply()
	lo, hi := -(connect4.Cols*connect4.Rows-n)/2, (connect4.Cols*connect4.Rows+1-n)/2
	if score < lo || score > hi {
		return Entry{}, fmt.Errorf("score %d is outside %d to %d, the scores a position after %d moves can have", score, lo, hi, n)
	}
	return Entry{Moves: f[0], Score: score}, nil
}

// play is the position after the moves, refused when a move is not a
// column 1 to 7 with room, or the game is over.
func play(moves string) (env.State, error) {
	if moves == "" {
		return nil, fmt.Errorf("no moves (the sets have no empty board)")
	}
	st := connect4.New().Start(nil)
	for i := 0; i < len(moves); i++ {
		c := moves[i]
		if c < '1' || c > '0'+connect4.Cols {
			return nil, fmt.Errorf("moves %s: %s is not a column 1 to %d", env.Quote(moves), env.Quote(moves[i:i+1]), connect4.Cols)
		}
		if st.Outcome().Over {
			return nil, fmt.Errorf("moves %s: the game is over after move %d", env.Quote(moves), i)
		}
		a := int(c - '1')
		if !env.IsLegal(st, a) {
			return nil, fmt.Errorf("moves %s: move %d plays column %c, which is full", env.Quote(moves), i+1, c)
		}
		st.Apply(a)
	}
	if st.Outcome().Over {
		return nil, fmt.Errorf("moves %s: the game is over after the last move", env.Quote(moves))
	}
	return st, nil
}

// setName is the name of Pons' files: Test_L<stage>_R<difficulty>.
var setName = regexp.MustCompile(`^Test_L(\d)_R(\d)$`)

// ReadDir reads every set file of a folder (files named as Pons' are,
// Test_L1_R1 to Test_L3_R1), in the order of their names.
func ReadDir(dir string) ([]*Set, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if setName.MatchString(e.Name()) && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no set file (Test_L1_R1 and the like, from Pons' test sets)", dir)
	}
	sort.Strings(names)
	var sets []*Set
	for _, n := range names {
		s, err := ReadSet(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	return sets, nil
}

// Describe says what a set of Pons' is, from its name: the stage (moves
// played: beginning up to 14, middle up to 28, end) and the difficulty
// (moves left with best play: easy under 14, medium up to 28, hard),
// as AlphaZero.jl names them ("beginning, easy"); "" for another name.
func Describe(name string) string {
	m := setName.FindStringSubmatch(name)
	if m == nil {
		return ""
	}
	stage := map[string]string{"1": "beginning", "2": "middle", "3": "end"}[m[1]]
	diff := map[string]string{"1": "easy", "2": "medium", "3": "hard"}[m[2]]
	if stage == "" || diff == "" {
		return ""
	}
	return stage + ", " + diff
}

// Write writes the set in its file format (tests make sets with it).
func (s *Set) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, e := range s.Entries {
		fmt.Fprintf(bw, "%s %d\n", e.Moves, e.Score)
	}
	return bw.Flush()
}
