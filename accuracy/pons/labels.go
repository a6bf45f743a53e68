package pons

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/store"
)

// Class is a move's value for the mover with best play, or Full for a
// column with no room. Larger is better.
type Class int8

// The classes.
const (
	Full Class = -2
	Loss Class = -1
	Draw Class = 0
	Win  Class = 1
)

func classOf(score int) Class {
	switch {
	case score > 0:
		return Win
	case score < 0:
		return Loss
	}
	return Draw
}

// classChars write the classes in a labels file: Full, Loss, Draw, Win.
const classChars = ".-=+"

func (c Class) String() string {
	switch c {
	case Win:
		return "win"
	case Draw:
		return "draw"
	case Loss:
		return "loss"
	}
	return "full"
}

// Row is the class of playing each column of a position, 1 to 7.
type Row [connect4.Cols]Class

// Best is the best class of the row's moves.
func (r Row) Best() Class {
	best := Full
	for _, c := range r {
		best = max(best, c)
	}
	return best
}

func (r Row) String() string {
	var b [connect4.Cols]byte
	for i, c := range r {
		b[i] = classChars[c-Full]
	}
	return string(b[:])
}

func parseRow(text string) (Row, error) {
	var r Row
	if len(text) != connect4.Cols {
		return r, fmt.Errorf("classes %s: want %d characters, one a column, each of %s", env.Quote(text), connect4.Cols, classChars)
	}
	for i := range r {
		k := strings.IndexByte(classChars, text[i])
		if k < 0 {
			return r, fmt.Errorf("classes %s: %s is not one of %s (full, loss, draw, win)", env.Quote(text), env.Quote(text[i:i+1]), classChars)
		}
		r[i] = Class(k) + Full
	}
	return r, nil
}

// Labels are the classes of the moves of a set's positions, kept in a
// file beside the set so that they are solved once. They may cover only
// some of the set's positions (a run cut short keeps what it labelled).
type Labels struct {
	// Set and Digest name the set labelled (Set.Name, Set.Digest).
	Set, Digest string
	// Rows are the labelled positions' rows, by their index in the set's
	// entries.
	Rows map[int]Row
}

// NewLabels returns empty labels for a set.
func NewLabels(s *Set) *Labels {
	return &Labels{Set: s.Name, Digest: s.Digest, Rows: map[int]Row{}}
}

// Labels files are text: a header of "# " lines (the first the magic, then
// the set's name and digest), then one line a labelled position,
// tab-separated: its line in the set file, its moves, and its row.
const labelsMagic = "# sliderzero pons labels 1"

// maxLabelsBytes bounds a labels file.
const maxLabelsBytes = 16 << 20

// Bytes is the labels' file content, positions in the set's order.
func (l *Labels) Bytes(s *Set) []byte {
	var b bytes.Buffer
	fmt.Fprintln(&b, labelsMagic)
	fmt.Fprintf(&b, "# set: %s\n# sha256: %s\n", l.Set, l.Digest)
	fmt.Fprintln(&b, "# line\tmoves\tplaying column 1 to 7: + wins, = draws, - loses, . full (the mover's value with best play)")
	idx := make([]int, 0, len(l.Rows))
	for i := range l.Rows {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		e := s.Entries[i]
		fmt.Fprintf(&b, "%d\t%s\t%s\n", e.Line, e.Moves, l.Rows[i])
	}
	return b.Bytes()
}

// WriteFile writes the labels to path atomically.
func (l *Labels) WriteFile(path string, s *Set) error {
	return store.WriteAtomic(path, l.Bytes(s))
}

// ReadLabels reads the labels file of a set; a file that does not exist
// gives empty labels. A file made for another set (another name or
// content), or whose lines do not match the set's positions, is refused.
func ReadLabels(path string, s *Set) (*Labels, error) {
	data, err := store.ReadFile(path, maxLabelsBytes)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		return NewLabels(s), nil
	}
	if err != nil {
		return nil, err
	}
	l, err := ParseLabels(data, s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

// ParseLabels reads a labels file's content, checking it against the set:
// its name and digest, each line's position, the columns that are full,
// and each position's best class against the set's score.
func ParseLabels(data []byte, s *Set) (*Labels, error) {
	l := NewLabels(s)
	byLine := make(map[int]int, len(s.Entries))
	for i, e := range s.Entries {
		byLine[e.Line] = i
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, maxLine), maxLine)
	n := 0
	header := map[string]string{}
	for sc.Scan() {
		n++
		line := sc.Text()
		if n == 1 {
			if line != labelsMagic {
				return nil, fmt.Errorf("not a labels file of Pons' sets (its first line is not %q)", labelsMagic)
			}
			continue
		}
		if k, v, ok := strings.Cut(strings.TrimPrefix(line, "# "), ": "); ok && strings.HasPrefix(line, "# ") {
			header[k] = v
			continue
		}
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		if err := sameSet(header, s); err != nil {
			return nil, err
		}
		i, r, err := parseLabelLine(line, s, byLine)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if _, dup := l.Rows[i]; dup {
			return nil, fmt.Errorf("line %d: the set's line %d is labelled twice", n, s.Entries[i].Line)
		}
		l.Rows[i] = r
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", n+1, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("empty, not a labels file")
	}
	if err := sameSet(header, s); err != nil {
		return nil, err
	}
	return l, nil
}

// sameSet refuses the labels of another set than s.
func sameSet(header map[string]string, s *Set) error {
	if header["set"] != s.Name || header["sha256"] != s.Digest {
		return fmt.Errorf("labels of set %s (sha256 %s), not of %s (sha256 %s): delete the file to label the set again", header["set"], short(header["sha256"]), s.Name, short(s.Digest))
	}
	return nil
}

func short(digest string) string {
	if len(digest) > 12 {
		return digest[:12]
	}
	return digest
}

// parseLabelLine reads one position's line and checks it against the
// set's position: the same moves, a class for exactly the columns with
// room, and the best class the set's score says.
func parseLabelLine(line string, s *Set, byLine map[int]int) (int, Row, error) {
	f := strings.Split(line, "\t")
	if len(f) != 3 {
		return 0, Row{}, fmt.Errorf("%s: want the set's line, the moves and the classes, separated by tabs", env.Quote(line))
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 0, Row{}, fmt.Errorf("%s is not a line number", env.Quote(f[0]))
	}
	i, ok := byLine[n]
	if !ok {
		return 0, Row{}, fmt.Errorf("the set %s has no position on line %d", s.Name, n)
	}
	e := s.Entries[i]
	if f[1] != e.Moves {
		return 0, Row{}, fmt.Errorf("moves %s, but the set's line %d is %s", env.Quote(f[1]), n, e.Moves)
	}
	r, err := parseRow(f[2])
	if err != nil {
		return 0, Row{}, err
	}
	if err := check(e, r); err != nil {
		return 0, Row{}, err
	}
	return i, r, nil
}

// check refuses a row that does not fit its position: a class for a full
// column or none for a column with room, or a best move of another class
// than the set's score.
func check(e Entry, r Row) error {
	st, err := e.State()
	if err != nil {
		return err
	}
	for c, k := range r {
		if legal := env.IsLegal(st, c); legal != (k != Full) {
			return fmt.Errorf("%s: column %d has room, but the labels call it full, or the reverse", e.Moves, c+1)
		}
	}
	if r.Best() != e.Class() {
		return fmt.Errorf("%s: the labels' best move is a %s, but the set scores the position %d (a %s)", e.Moves, r.Best(), e.Score, e.Class())
	}
	return nil
}

// Missing are the indexes of the set's first limit positions (0: all)
// that have no row yet.
func (l *Labels) Missing(s *Set, limit int) []int {
	n := len(s.Entries)
	if limit > 0 {
		n = min(n, limit)
	}
	var out []int
	for i := 0; i < n; i++ {
		if _, ok := l.Rows[i]; !ok {
			out = append(out, i)
		}
	}
	return out
}
