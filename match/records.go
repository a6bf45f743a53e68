// Reading records files, a game at a time.

package match

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/store"
)

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
