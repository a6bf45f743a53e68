// What one intake took, for the round's metrics line.

package train

import (
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// intakeStats is what one intake took.
type intakeStats struct {
	Shards, Games, Positions, Plies int
	Dropped, SetAside               int
	Wins                            map[string]int
	// Capped counts the games the ply cap ended; seen counts each
	// position the samples hold, and zSum and zSq sum their value targets
	// and squares: the round's health (package health).
	Capped    int
	seen      map[string]int
	zSum, zSq float64
	// NewestLocal is the newest round of this process's producers taken.
	NewestLocal int
	// Per producer, the work its shards record, for the rates.
	work map[string]*producerWork
	// Examples are the whole games the shards kept, for people.
	Examples []replay.GameExample
}

type producerWork struct {
	games       int
	sims, evals int64
	secs        float64
}

func (s *intakeStats) add(sh *replay.Shard) {
	if s.Wins == nil {
		s.Wins, s.work = map[string]int{}, map[string]*producerWork{}
	}
	s.Shards++
	s.Games += sh.Games
	s.Positions += len(sh.Samples)
	s.Plies += sh.Plies
	for k, v := range sh.Wins {
		s.Wins[k] += v
	}
	s.Capped += sh.Capped
	if s.seen == nil {
		s.seen = map[string]int{}
	}
	for _, smp := range sh.Samples {
		s.seen[smp.State]++
		s.zSum += float64(smp.Value)
		s.zSq += float64(smp.Value) * float64(smp.Value)
	}
	s.Examples = append(s.Examples, sh.Examples...)
	w := s.work[sh.Producer]
	if w == nil {
		w = &producerWork{}
		s.work[sh.Producer] = w
	}
	w.games += sh.Games
	w.sims += sh.Sims
	w.evals += sh.Evals
	w.secs += sh.Seconds
	if sh.Producer == selfplay.LocalName {
		s.NewestLocal = max(s.NewestLocal, sh.Seq)
	}
}

// health is the share of the round's games the ply cap ended, the share
// of its positions that occur more than once in it, and the variance of
// their value targets.
func (s *intakeStats) health() (capped, repeated, variance float64) {
	if s.Games > 0 {
		capped = float64(s.Capped) / float64(s.Games)
	}
	n := 0
	for _, c := range s.seen {
		n += c
		if c > 1 {
			repeated += float64(c)
		}
	}
	if n > 0 {
		repeated /= float64(n)
		mean := s.zSum / float64(n)
		variance = max(0, s.zSq/float64(n)-mean*mean)
	}
	return capped, repeated, variance
}

// rates are the producers' games, simulations and evaluations a second,
// summed over producers (which play at the same time), and the longest
// time one of them played.
func (s *intakeStats) rates() (games, sims, evals, secs float64) {
	for _, w := range s.work {
		if w.secs <= 0 {
			continue
		}
		games += float64(w.games) / w.secs
		sims += float64(w.sims) / w.secs
		evals += float64(w.evals) / w.secs
		secs = max(secs, w.secs)
	}
	return
}
