// Records files: a series' games one JSON line each, written and read
// back with every game checked.

package match

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/store"
)

// line is a record as one line of a records file. Files written before
// the end reason existed have "repetition" instead; they still read.
type line struct {
	Spec       registry.Spec `json:"game"`
	Start      string        `json:"start"`
	Players    [2]string     `json:"players"`
	Moves      []string      `json:"moves"`
	Winner     int           `json:"winner"` // side, or -1 for a tie
	End        End           `json:"end,omitempty"`
	Detail     string        `json:"detail,omitempty"`
	Seed       uint64        `json:"seed,omitempty"`
	Number     int           `json:"number,omitempty"`
	Date       time.Time     `json:"date,omitempty"`
	Seconds    []float64     `json:"seconds,omitempty"`
	Values     []*float32    `json:"values,omitempty"` // null where the player reported none
	Visits     []int         `json:"visits,omitempty"`
	Repetition bool          `json:"repetition,omitempty"`
}

// WriteRecords writes records one JSON line each: the game and its
// configuration, the start position, the players by side, the moves in the
// game's notation, the winner and how the game ended, its seed and date,
// and per move the time taken and the player's value and visits where it
// reports them.
func WriteRecords(w io.Writer, recs []Record) error {
	enc := json.NewEncoder(w)
	for _, r := range recs {
		l := line{Spec: r.Spec, Start: r.Start, Players: r.Players, Moves: r.Moves,
			Winner: int(r.Outcome.Winner), End: r.End, Detail: r.Detail, Seed: r.Seed, Number: r.Number, Date: r.Date,
			Seconds: r.Seconds, Visits: r.Visits}
		for _, v := range r.Values {
			if v != v { // NaN: no value reported
				l.Values = append(l.Values, nil)
				continue
			}
			v := v
			l.Values = append(l.Values, &v)
		}
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return nil
}

// ReadRecords reads a records file and checks every game: its start
// position parses and its moves are legal in order and end it as recorded.
func ReadRecords(path string) ([]Record, error) {
	var recs []Record
	err := EachRecord(path, func(rec Record) bool {
		recs = append(recs, rec)
		return true
	})
	if err != nil {
		return nil, err
	}
	return recs, nil
}

// EachRecord reads a records file a game at a time, checking each as
// ReadRecords does, and hands it to fn until fn returns false: what it
// holds is one game, however large the file.
func EachRecord(path string, fn func(Record) bool) error {
	f, err := store.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), maxRecordLine)
	n := 1
	for ; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
		rec := recordOf(l)
		if _, err := rec.Replay(nil); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
		if !fn(rec) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%s line %d is longer than %d MB", path, n, maxRecordLine>>20)
		}
		return fmt.Errorf("%s line %d: %w", path, n, err)
	}
	return nil
}

// recordOf is a records file's line as a record.
func recordOf(l line) Record {
	rec := Record{Spec: l.Spec, Start: l.Start, Players: l.Players, Moves: l.Moves,
		Outcome: env.Outcome{Over: true, Winner: env.Side(l.Winner)}, End: l.End, Detail: l.Detail,
		Seed: l.Seed, Number: l.Number, Date: l.Date, Seconds: l.Seconds, Visits: l.Visits}
	for _, v := range l.Values {
		if v == nil {
			rec.Values = append(rec.Values, nanValue)
		} else {
			rec.Values = append(rec.Values, *v)
		}
	}
	if rec.End == "" {
		rec.End = EndRules
		if l.Repetition {
			rec.End = EndRepetition
		}
	}
	return rec
}

// maxRecordLine bounds a records file's line: a game of about a million
// plies.
const maxRecordLine = 16 << 20

// Replay replays the record's moves from its start, calling step (if not
// nil) after each; it returns the final position and checks that the
// recorded result is the game's.
func (r Record) Replay(step func(s env.State, ply int, move string)) (env.State, error) {
	g, err := games.New(r.Spec)
	if err != nil {
		return nil, err
	}
	s, err := g.ParseState(r.Start)
	if err != nil {
		return nil, fmt.Errorf("start position: %w", err)
	}
	for i, m := range r.Moves {
		a, err := s.ParseAction(m)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, m, err)
		}
		s.Apply(a)
		if step != nil {
			step(s, i+1, m)
		}
	}
	if !r.End.Forfeit() && r.End != EndRepetition && s.Outcome() != r.Outcome {
		return nil, fmt.Errorf("the moves end %s, but the record says %s", outcomeWords(g, s.Outcome()), outcomeWords(g, r.Outcome))
	}
	return s, nil
}

// outcomeWords tells an outcome for people: "unfinished", "in a tie",
// "in a win for H".
func outcomeWords(g env.Game, o env.Outcome) string {
	switch {
	case !o.Over:
		return "unfinished"
	case o.Winner == env.NoSide:
		return "in a tie"
	}
	return "in a win for " + g.SideName(o.Winner)
}
