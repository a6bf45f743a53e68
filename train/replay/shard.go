// Package replay holds what self-play teaches: samples (a position, the
// search's policy, the value target), shards (one round of a producer's
// complete games, in a compact checksummed file) and the window of the
// most recent positions that training draws its batches from.
package replay

import (
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/store"
)

// Sample is one self-play position: its network input, the search's policy
// over the legal actions, and the game's outcome for the side to move.
type Sample struct {
	State   string    `msgpack:"s"` // the position in the game's text form, for people
	Input   []float32 `msgpack:"x"`
	Actions []int32   `msgpack:"a"` // legal actions
	Policy  []float32 `msgpack:"p"` // search policy, one per legal action
	Value   float32   `msgpack:"z"`
	// Surprise is how far the search's value of the position was from its
	// target, |q - z| in [0, 2]: training may draw surprising positions
	// more often. Shards written before it was kept have 0.
	Surprise float32 `msgpack:"q,omitempty"`
	// Left is the plies from the position to its game's end, the plies
	// head's target; 0 (no position is at its game's end) in shards
	// written before it was kept.
	Left int16 `msgpack:"l,omitempty"`
}

// Shard is one round of a producer's self-play: complete games only.
type Shard struct {
	Seq int
	// Game is the game the shard's positions belong to: a run refuses
	// shards of another.
	Game    registry.Spec
	Games   int
	Plies   int
	Samples []Sample
	// Producer and WeightsVersion say who played the round and with which
	// published weights.
	Producer       string
	WeightsVersion int
	// Wins counts the games by the winner's side name ("tie" for ties),
	// and Sims, Evals and Seconds the producer's work: the learner's
	// metrics come from them. Shards written before they were recorded
	// have none.
	Wins    map[string]int
	Sims    int64
	Evals   int64
	Seconds float64
	// Capped counts the games the ply cap ended (0 in shards written
	// before it was kept).
	Capped int
	// Examples are a few of the round's games, whole, for people to look
	// at (the run's self-play page); training does not read them.
	Examples []GameExample
}

// GameExample is a self-play game as moves from its start.
type GameExample struct {
	Start  string   `msgpack:"start" json:"start"`
	Moves  []string `msgpack:"moves" json:"moves"`
	Winner string   `msgpack:"winner" json:"winner"` // a side's name or "tie"
}

// shardFile is a shard on disk. Format 2 keeps each sample's network input
// packed (pack.go) and the samples zstd-compressed in Data, about 30
// times smaller than format 1, which kept the inputs as float32s in
// Samples; format 1 still reads.
type shardFile struct {
	Seq       int               `msgpack:"seq"`
	Game      registry.Spec     `msgpack:"game"`
	Games     int               `msgpack:"games"`
	Plies     int               `msgpack:"plies"`
	Positions int               `msgpack:"positions"`
	Data      []byte            `msgpack:"data,omitempty"`
	Samples   []Sample          `msgpack:"samples,omitempty"` // format 1
	Producer  string            `msgpack:"producer,omitempty"`
	Weights   int               `msgpack:"weights_version,omitempty"`
	Wins      store.Sorted[int] `msgpack:"wins,omitempty"`
	Sims      int64             `msgpack:"sims,omitempty"`
	Evals     int64             `msgpack:"evals,omitempty"`
	Seconds   float64           `msgpack:"seconds,omitempty"`
	Examples  []GameExample     `msgpack:"examples,omitempty"`
	Capped    int               `msgpack:"capped,omitempty"`
}

// Kind and format of shard files.
const (
	KindShard    = "shard"
	ShardVersion = 2
)

// Encode is a shard file's bytes, in format 2.
func Encode(s *Shard) ([]byte, error) {
	g, err := games.New(s.Game)
	if err != nil {
		return nil, err
	}
	data, err := compressSamples(s.Samples, g.InputShape())
	if err != nil {
		return nil, err
	}
	f := shardFile{Seq: s.Seq, Game: s.Game, Games: s.Games, Plies: s.Plies, Positions: len(s.Samples), Data: data,
		Producer: s.Producer, Weights: s.WeightsVersion, Wins: s.Wins, Sims: s.Sims, Evals: s.Evals, Seconds: s.Seconds, Examples: s.Examples, Capped: s.Capped}
	return store.Encode(KindShard, ShardVersion, &f)
}

// EncodeV1 writes a shard in format 1, which recorded no game: for tests
// that old shards still read.
func EncodeV1(s *Shard) ([]byte, error) {
	return store.Encode(KindShard, 1, shardFile{Seq: s.Seq, Games: s.Games, Plies: s.Plies, Samples: s.Samples})
}

// MaxShardFileSize bounds a shard file: a round of a thousand 7x7 games
// is a few megabytes; a larger file is set aside unread.
const MaxShardFileSize = 256 << 20

// Decode reads a shard file's bytes, of either format; name says where
// they came from. With countsOnly it leaves the samples packed and
// returns the shard's counts (Samples nil) and its number of positions.
func Decode(data []byte, name string, countsOnly bool) (*Shard, int, error) {
	var f shardFile
	version, err := store.Decode(data, name, KindShard, ShardVersion, &f)
	if err != nil {
		return nil, 0, err
	}
	s := &Shard{Seq: f.Seq, Game: f.Game, Games: f.Games, Plies: f.Plies, Producer: f.Producer, WeightsVersion: f.Weights,
		Wins: map[string]int(f.Wins), Sims: f.Sims, Evals: f.Evals, Seconds: f.Seconds, Examples: f.Examples, Capped: f.Capped}
	if version == 1 {
		f.Positions = len(f.Samples)
	}
	if err := f.checkCounts(); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	if version == 1 {
		s.Samples = f.Samples
		return s, len(f.Samples), nil
	}
	if countsOnly {
		return s, f.Positions, nil
	}
	g, err := games.New(f.Game)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	if s.Samples, err = decompressSamples(f.Data, g.InputShape(), g.ActionSize(), f.Positions); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	return s, f.Positions, nil
}

// MaxShardCount bounds the games, plies and positions a shard may claim
// (a round of 1,000,000 games, the most a run plays, of 1,000 plies each),
// so that no total of them overflows, however many shards a run takes.
const MaxShardCount = 1 << 30

// maxShardWork bounds the simulations and evaluations a shard may claim:
// a position's search takes at most mcts.MaxSims (10^7), and a round at
// most MaxShardCount positions.
const maxShardWork = 1 << 53

// checkCounts refuses counts a shard cannot hold (issue 65: a shard
// claiming 2^62 games beside 879 positions was taken, and two of them
// made the run's total of games negative): every count non-negative and
// bounded, the positions (one a ply at most) and games (a ply each at
// least) within the plies, the capped games and the wins within the
// games.
func (f *shardFile) checkCounts() error {
	wins := 0
	for side, n := range f.Wins {
		if n < 0 || n > MaxShardCount {
			return fmt.Errorf("claims %d wins for %s", n, env.Quote(side))
		}
		wins += n
	}
	switch {
	case f.Games < 0 || f.Plies < 0 || f.Positions < 0 || f.Capped < 0:
		return fmt.Errorf("claims a negative count (%d games, %d plies, %d positions, %d capped)", f.Games, f.Plies, f.Positions, f.Capped)
	case f.Plies > MaxShardCount:
		return fmt.Errorf("claims %d plies: at most %d", f.Plies, MaxShardCount)
	case f.Positions > f.Plies || f.Games > f.Plies:
		return fmt.Errorf("claims %d games and %d positions in %d plies", f.Games, f.Positions, f.Plies)
	case f.Capped > f.Games || wins > f.Games:
		return fmt.Errorf("claims %d capped games and %d wins in %d games", f.Capped, wins, f.Games)
	case f.Sims < 0 || f.Sims > maxShardWork || f.Evals < 0 || f.Evals > maxShardWork:
		return fmt.Errorf("claims %d simulations and %d evaluations", f.Sims, f.Evals)
	case !(f.Seconds >= 0 && f.Seconds <= 1e9):
		return fmt.Errorf("claims %v seconds of work", f.Seconds)
	}
	return nil
}

// CheckGame refuses a shard of another game than g (spec): by the game it
// records, and for shards written before shards recorded it, by the size
// of its positions and actions.
func (s *Shard) CheckGame(name string, spec registry.Spec, g env.Game) error {
	if !s.Game.Equal(registry.Spec{}) {
		if sg, err := games.New(s.Game); err != nil || sg.Describe() != g.Describe() {
			return fmt.Errorf("%s holds positions of %s, and this run plays %s", name, s.Game, spec)
		}
		return nil
	}
	in, actions := g.InputShape().Size(), g.ActionSize()
	for _, x := range s.Samples {
		if len(x.Input) != in || len(x.Actions) != len(x.Policy) {
			return fmt.Errorf("%s holds positions of %d inputs, and this run plays %s (%d inputs)", name, len(x.Input), spec, in)
		}
		for _, a := range x.Actions {
			if a < 0 || int(a) >= actions {
				return fmt.Errorf("%s holds action %d, and this run plays %s (%d actions)", name, a, spec, actions)
			}
		}
	}
	return nil
}
