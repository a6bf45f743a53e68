package train

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
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
}

// Shard is one round of self-play: complete games only.
type Shard struct {
	Seq int
	// Game is the game the shard's positions belong to: a run refuses
	// shards of another.
	Game    games.Spec
	Games   int
	Plies   int
	Samples []Sample
	// Producer and WeightsVersion say, for a shard of an external
	// self-play process, who played it and with which published weights.
	Producer       string
	WeightsVersion int
}

// shardFile is a shard on disk. Format 2 keeps each sample's network input
// packed (pack.go) and the samples zstd-compressed in Data, about 30
// times smaller than format 1, which kept the inputs as float32s in
// Samples; format 1 still reads.
type shardFile struct {
	Seq       int        `msgpack:"seq"`
	Game      games.Spec `msgpack:"game"`
	Games     int        `msgpack:"games"`
	Plies     int        `msgpack:"plies"`
	Positions int        `msgpack:"positions"`
	Data      []byte     `msgpack:"data,omitempty"`
	Samples   []Sample   `msgpack:"samples,omitempty"` // format 1
	Producer  string     `msgpack:"producer,omitempty"`
	Weights   int        `msgpack:"weights_version,omitempty"`
}

const (
	kindShard    = "shard"
	shardVersion = 2
)

// writeShard stores a shard in format 2.
func writeShard(path string, s *Shard) error {
	data, err := encodeShard(s)
	if err != nil {
		return err
	}
	return store.WriteAtomic(path, data)
}

// encodeShard is a shard file's bytes, in format 2.
func encodeShard(s *Shard) ([]byte, error) {
	g, err := games.New(s.Game)
	if err != nil {
		return nil, err
	}
	data, err := compressSamples(s.Samples, g.InputShape())
	if err != nil {
		return nil, err
	}
	f := shardFile{Seq: s.Seq, Game: s.Game, Games: s.Games, Plies: s.Plies, Positions: len(s.Samples), Data: data,
		Producer: s.Producer, Weights: s.WeightsVersion}
	return store.Encode(kindShard, shardVersion, &f)
}

// loadShard reads a shard file of either format; with counts only, it
// leaves the samples packed.
func loadShard(path string, countsOnly bool) (*Shard, int, error) {
	data, err := store.ReadFile(path, store.MaxFileSize)
	if err != nil {
		return nil, 0, err
	}
	return decodeShard(data, path, countsOnly)
}

// decodeShard reads a shard file's bytes; name says where they came from.
func decodeShard(data []byte, path string, countsOnly bool) (*Shard, int, error) {
	var f shardFile
	version, err := store.Decode(data, path, kindShard, shardVersion, &f)
	if err != nil {
		return nil, 0, err
	}
	s := &Shard{Seq: f.Seq, Game: f.Game, Games: f.Games, Plies: f.Plies, Producer: f.Producer, WeightsVersion: f.Weights}
	if version == 1 {
		s.Samples = f.Samples
		return s, len(f.Samples), nil
	}
	if countsOnly {
		return s, f.Positions, nil
	}
	g, err := games.New(f.Game)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	if s.Samples, err = decompressSamples(f.Data, g.InputShape()); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	if len(s.Samples) != f.Positions {
		return nil, 0, fmt.Errorf("%s holds %d positions, and says %d", path, len(s.Samples), f.Positions)
	}
	return s, f.Positions, nil
}

func shardPath(dir string, seq int) string {
	return filepath.Join(dir, "replay", fmt.Sprintf("shard-%06d.msgpack", seq))
}

// shardSeqs lists the sequence numbers of the shards in a run, ascending.
func shardSeqs(dir string) ([]int, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "replay"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p, err := readPruned(dir)
	if err != nil {
		return nil, err
	}
	var seqs []int
	for _, e := range entries {
		var seq int
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue // a temporary file of a write that was cut short
		}
		if _, err := fmt.Sscanf(name, "shard-%06d.msgpack", &seq); err == nil {
			if seq <= p.UpTo {
				// Pruned, but a stop came before its file was deleted.
				os.Remove(shardPath(dir, seq))
				continue
			}
			seqs = append(seqs, seq)
		}
	}
	sort.Ints(seqs)
	return seqs, nil
}

func readShard(dir string, seq int) (*Shard, error) {
	s, _, err := loadShard(shardPath(dir, seq), false)
	if err != nil {
		return nil, err
	}
	if s.Seq != seq {
		return nil, fmt.Errorf("%s says it is shard %d", shardPath(dir, seq), s.Seq)
	}
	return s, nil
}

// checkGame refuses a shard of another game than g (spec): by the game it
// records, and for shards written before shards recorded it, by the size
// of its positions and actions.
func (s *Shard) checkGame(path string, spec games.Spec, g env.Game) error {
	if s.Game != (games.Spec{}) {
		if sg, err := games.New(s.Game); err != nil || sg.Describe() != g.Describe() {
			return fmt.Errorf("%s holds positions of %s, and this run plays %s", path, s.Game, spec)
		}
		return nil
	}
	in, actions := g.InputShape().Size(), g.ActionSize()
	for _, x := range s.Samples {
		if len(x.Input) != in || len(x.Actions) != len(x.Policy) {
			return fmt.Errorf("%s holds positions of %d inputs, and this run plays %s (%d inputs)", path, len(x.Input), spec, in)
		}
		for _, a := range x.Actions {
			if a < 0 || int(a) >= actions {
				return fmt.Errorf("%s holds action %d, and this run plays %s (%d actions)", path, a, spec, actions)
			}
		}
	}
	return nil
}

// Replay is the sliding window of the most recent positions.
type Replay struct {
	window  int
	samples []Sample // a ring once full
	next    int
}

func newReplay(window int) *Replay { return &Replay{window: window} }

// Add appends positions, dropping the oldest beyond the window.
func (r *Replay) Add(samples []Sample) {
	for _, s := range samples {
		if len(r.samples) < r.window {
			r.samples = append(r.samples, s)
			continue
		}
		r.samples[r.next] = s
		r.next = (r.next + 1) % r.window
	}
}

// Len is the number of positions in the window.
func (r *Replay) Len() int { return len(r.samples) }

// fill draws a batch uniformly from the window. Indices count from the
// oldest position, so a window rebuilt from shards after a resume draws
// exactly the samples the uninterrupted run would have. For games with
// symmetries (sym non-nil) each sample is seen under a random one.
func (r *Replay) fill(rng *rand.Rand, b *model.Batch, inputSize, actions int, sym env.Symmetric) {
	clear(b.Policy)
	clear(b.Legal)
	n := len(r.samples)
	for i := 0; i < b.Size; i++ {
		s := &r.samples[(r.next+rng.IntN(n))%n]
		k := 0
		if sym != nil {
			k = rng.IntN(sym.Symmetries())
		}
		dst := b.Input[i*inputSize : (i+1)*inputSize]
		if k == 0 {
			copy(dst, s.Input)
		} else {
			sym.TransformInput(k, s.Input, dst)
		}
		row := i * actions
		for j, a := range s.Actions {
			act := int(a)
			if k != 0 {
				act = sym.TransformAction(k, act)
			}
			b.Legal[row+act] = 1
			b.Policy[row+act] = s.Policy[j]
		}
		b.Value[i] = s.Value
	}
}

func newBatch(size, inputSize, actions int) *model.Batch {
	return &model.Batch{
		Size:   size,
		Input:  make([]float32, size*inputSize),
		Policy: make([]float32, size*actions),
		Legal:  make([]float32, size*actions),
		Value:  make([]float32, size),
	}
}

// ReplayTotals reads every shard of a run and returns the sequence numbers
// of those on disk, and the games and positions of every shard the run
// wrote (the deleted ones by replay/pruned.json).
func ReplayTotals(dir string) (seqs []int, games, positions int64, err error) {
	seqs, err = shardSeqs(dir)
	if err != nil {
		return nil, 0, 0, err
	}
	p, err := readPruned(dir)
	if err != nil {
		return nil, 0, 0, err
	}
	games, positions = p.Games, p.Positions
	for _, seq := range seqs {
		s, n, err := loadShard(shardPath(dir, seq), true)
		if err != nil {
			return nil, 0, 0, err
		}
		games += int64(s.Games)
		positions += int64(n)
	}
	return seqs, games, positions, nil
}

// prunedFile records the shards a run deleted under keep_shards: every
// shard up to UpTo, and their totals, so that the run's counts still add
// up. It is written before the shards are deleted.
const prunedFile = "pruned.json"

type pruned struct {
	UpTo      int   `json:"up_to"`
	Games     int64 `json:"games"`
	Positions int64 `json:"positions"`
}

func readPruned(dir string) (pruned, error) {
	var p pruned
	data, err := store.ReadFile(filepath.Join(dir, "replay", prunedFile), 1<<16)
	if errors.Is(err, store.ErrNotFound) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("%s: %w", filepath.Join(dir, "replay", prunedFile), err)
	}
	return p, nil
}

// shardInfo is what the run knows of a shard on disk.
type shardInfo struct {
	seq              int
	games, positions int64
}

// prune deletes the shards older than the window needs, but for the keep
// newest of those. held lists the shards on disk, oldest first; it
// returns those left.
func prune(dir string, held []shardInfo, window, keep int) ([]shardInfo, error) {
	if keep <= 0 {
		return held, nil
	}
	need, first := int64(window), len(held)
	for first > 0 && need > 0 {
		first--
		need -= held[first].positions
	}
	cut := first - keep
	if cut <= 0 {
		return held, nil
	}
	p, err := readPruned(dir)
	if err != nil {
		return held, err
	}
	for _, s := range held[:cut] {
		p.Games += s.games
		p.Positions += s.positions
		p.UpTo = s.seq
	}
	data, _ := json.Marshal(p)
	if err := store.WriteAtomic(filepath.Join(dir, "replay", prunedFile), data); err != nil {
		return held, err
	}
	for _, s := range held[:cut] {
		if err := os.Remove(shardPath(dir, s.seq)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return held, err
		}
	}
	return append([]shardInfo(nil), held[cut:]...), nil
}
