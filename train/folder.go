package train

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/model/learn"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

// Files of a run folder, besides its configuration and metrics log
// (runfolder.ConfigFile, runfolder.MetricsFile: what programs that read a
// run without training it need). Besides these, the folder is the run's
// storage unless self-play meets the learner elsewhere
// (selfplay/storage.go): weights/ and shards/.
const (
	CheckpointFile = "checkpoint.msgpack"
	WeightsFile    = "weights.msgpack" // the latest trained network, for players
	// TeacherFile is the run's copy of its teacher's network, taken when
	// the run is created, so that a file moved or rewritten since does
	// not change the games the run learns from.
	TeacherFile = "teacher.msgpack"
	// ExamplesFile holds the last self-play games kept whole, in the
	// records format (sliderzero replay and the web app's replay read it).
	ExamplesFile = "selfplay.jsonl"
	SnapshotDir  = "snapshots"
)

// Checkpoint is everything a run needs to continue: the network and the
// optimiser's state, the counters, the shards taken, and the run's
// configuration. The local producers' random streams are derived from the
// seed and the round number, so the round number is their saved state.
type Checkpoint struct {
	Game           registry.Spec  `msgpack:"game"`
	Weights        *model.Weights `msgpack:"weights"`
	Steps          int64          `msgpack:"steps"`
	Games          int64          `msgpack:"games"`
	Positions      int64          `msgpack:"positions"`
	Config         Config         `msgpack:"config"`
	Adam           *learn.Adam    `msgpack:"adam"`
	SamplesTrained int64          `msgpack:"samples_trained"`
	// Round is the learner's last finished round; with the producers of
	// this process, also the last of their rounds whose shard is counted.
	Round   int     `msgpack:"round"`
	Elapsed float64 `msgpack:"elapsed_seconds"`
	// Ladder holds the results of the ladder's baselines against each other,
	// played once, so that every evaluation places the network on the same
	// scale.
	Ladder []evaluate.LadderResult `msgpack:"ladder"`
	// Averaged is the moving average of the trained weights, with
	// averaging on: what evaluation, snapshots and players use.
	Averaged *model.Weights `msgpack:"averaged,omitempty"`
	// Best is the network self-play uses when gating is on.
	Best      *model.Weights `msgpack:"best"`
	BestSteps int64          `msgpack:"best_steps"`
	Saved     time.Time      `msgpack:"saved"`
	// Taken lists the shards the learner took, oldest first, less those
	// pruned from the storage; Published is the number of weights versions
	// published; DroppedGames counts the games of shards played with
	// weights too old.
	Taken        []TakenShard `msgpack:"taken,omitempty"`
	Published    int          `msgpack:"published,omitempty"`
	DroppedGames int64        `msgpack:"dropped_games,omitempty"`
	// The record of shards taken before one pipeline (external self-play
	// only): read from old checkpoints, turned into Taken.
	Ingested     []string `msgpack:"ingested,omitempty"`
	IngestedSize []int32  `msgpack:"ingested_size,omitempty"`
	PrunedShared int      `msgpack:"pruned_shared,omitempty"`
}

// TakenShard is a shard the learner took: its key in the run's storage,
// its games and positions, and whether its positions went into the
// window (not when damaged, of another game, or played with weights too
// old).
type TakenShard struct {
	Key       string `msgpack:"k"`
	Games     int32  `msgpack:"g"`
	Positions int32  `msgpack:"p"`
	Used      bool   `msgpack:"u"`
}

// folder is a run's folder, locked by this process while it is open.
type folder struct {
	dir  string
	lock *os.File
}

// createFolder makes dir a new run's folder, refusing one that holds a
// run already.
func createFolder(dir string, cfg Config) (*folder, error) {
	if err := CheckNewFolder(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	f := &folder{dir: dir, lock: lock}
	if err := store.WriteAtomic(filepath.Join(dir, runfolder.ConfigFile), cfg.JSON()); err != nil {
		f.close()
		return nil, err
	}
	return f, nil
}

// CheckNewFolder refuses a folder for a new run that holds a run already
// (a checkpoint, or shards of a run killed before its first): a caller
// with work to do first (an exact table to solve) asks before it.
func CheckNewFolder(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, CheckpointFile)); err == nil {
		return fmt.Errorf("%s already holds a run; resume it with --resume %s, or choose another --run", dir, dir)
	}
	for _, shards := range []string{"shards", "replay"} {
		if entries, _ := os.ReadDir(filepath.Join(dir, shards)); len(entries) > 0 {
			return fmt.Errorf("%s already holds replay shards of a run without a checkpoint; remove the folder or choose another --run", dir)
		}
	}
	return nil
}

// openFolder locks an existing run's folder and reads its checkpoint.
func openFolder(dir string) (*folder, *Checkpoint, error) {
	lock, err := lockDir(dir)
	if err != nil {
		if _, serr := os.Stat(filepath.Join(dir, CheckpointFile)); serr != nil {
			return nil, nil, fmt.Errorf("%s holds no run (no %s)", dir, CheckpointFile)
		}
		return nil, nil, err
	}
	f := &folder{dir: dir, lock: lock}
	ck, err := f.readCheckpoint()
	if err == nil {
		err = checkWritable(dir, filepath.Join(dir, "shards"))
	}
	if err != nil {
		f.close()
		return nil, nil, err
	}
	removeTemporaries(dir)
	return f, ck, nil
}

func (f *folder) close() error {
	err := unlockDir(f.lock)
	f.lock = nil
	return err
}

func (f *folder) readCheckpoint() (*Checkpoint, error) {
	var ck Checkpoint
	if _, err := store.Read(filepath.Join(f.dir, CheckpointFile), model.KindCheckpoint, model.FormatVersion, &ck); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("%s holds no run (no %s)", f.dir, CheckpointFile)
		}
		return nil, err
	}
	if ck.Weights == nil || ck.Adam == nil {
		return nil, fmt.Errorf("%s: the checkpoint lacks its network or optimiser state", f.dir)
	}
	if err := ck.Config.Check(); err != nil {
		return nil, fmt.Errorf("%s: the checkpoint's configuration: %w", f.dir, err)
	}
	return &ck, nil
}

// writeCheckpoint saves the run atomically.
func (f *folder) writeCheckpoint(ck *Checkpoint) error {
	ck.Saved = time.Now().UTC()
	return store.Write(filepath.Join(f.dir, CheckpointFile), model.KindCheckpoint, model.FormatVersion, ck)
}

// writeWeights writes the latest trained network for players.
func (f *folder) writeWeights(nf model.NetFile) error {
	return store.Write(filepath.Join(f.dir, WeightsFile), model.KindWeights, model.FormatVersion, nf)
}

// writeTeacher keeps the run's copy of its teacher.
func (f *folder) writeTeacher(spec registry.Spec, w *model.Weights) error {
	return store.Write(filepath.Join(f.dir, TeacherFile), model.KindWeights, model.FormatVersion, model.NetFile{Game: spec, Weights: w})
}

// readTeacher reads the run's copy of its teacher (nil for a run without
// one), checking that it plays g.
func (f *folder) readTeacher(cfg Config, g env.Game) (*model.Weights, error) {
	if cfg.Teacher == "" {
		return nil, nil
	}
	w, err := networkOf("teacher", filepath.Join(f.dir, TeacherFile), g)
	if err != nil {
		return nil, fmt.Errorf("the run's copy of its teacher %s: %w", cfg.Teacher, err)
	}
	return w, nil
}

// snapshot keeps a network for later evaluation.
func (f *folder) snapshot(nf model.NetFile) error {
	path := filepath.Join(f.dir, SnapshotDir, fmt.Sprintf("weights-%07d.msgpack", nf.Steps))
	return store.Write(path, model.KindWeights, model.FormatVersion, nf)
}

// snapshotOpponents loads the latest n snapshots taken before step steps
// (the network under test is not its own opponent), oldest first.
func (f *folder) snapshotOpponents(n int, steps int64) ([]evaluate.Opponent, error) {
	names, err := filepath.Glob(filepath.Join(f.dir, SnapshotDir, "weights-*.msgpack"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names) // the step count is zero-padded: names sort by step
	var ops []evaluate.Opponent
	for i := len(names) - 1; i >= 0 && len(ops) < n; i-- {
		nf, err := model.LoadNetFile(names[i])
		if err != nil {
			return nil, fmt.Errorf("snapshot opponent: %w", err)
		}
		if nf.Steps >= steps {
			continue
		}
		ops = append(ops, evaluate.Opponent{Name: fmt.Sprintf("snapshot-%07d", nf.Steps), Weights: nf.Weights})
	}
	slices.Reverse(ops)
	return ops, nil
}

// maxExamples bounds the self-play games ExamplesFile keeps.
const maxExamples = 200

// keepExamples adds self-play games to ExamplesFile, keeping the last
// maxExamples; the file is replaced atomically.
func (f *folder) keepExamples(spec registry.Spec, g env.Game, examples []replay.GameExample) error {
	if len(examples) == 0 {
		return nil
	}
	path := filepath.Join(f.dir, ExamplesFile)
	var recs []match.Record
	if old, err := match.ReadRecords(path); err == nil {
		recs = old
	} else if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, store.ErrNotFound) {
		recs = nil // a damaged file is replaced
	}
	for _, ex := range examples {
		rec := match.Record{Spec: spec, Game: g.Describe(), Start: ex.Start, Players: [2]string{"self-play", "self-play"}, Moves: ex.Moves, End: match.EndRules, Date: time.Now().UTC()}
		st, err := g.ParseState(ex.Start)
		if err != nil {
			continue
		}
		for _, m := range ex.Moves {
			a, err := st.ParseAction(m)
			if err != nil {
				break
			}
			st.Apply(a)
		}
		rec.Outcome = st.Outcome()
		if env.EndedByCap(st) {
			rec.End = match.EndPlyCap
		}
		recs = append(recs, rec)
	}
	if len(recs) > maxExamples {
		recs = recs[len(recs)-maxExamples:]
	}
	var buf bytes.Buffer
	if err := match.WriteRecords(&buf, recs); err != nil {
		return err
	}
	return store.WriteAtomic(path, buf.Bytes())
}

// appendMetrics adds a line to the metrics log.
func (f *folder) appendMetrics(m runfolder.Metrics) error {
	line, err := json.Marshal(m)
	if err != nil {
		return err
	}
	file, err := os.OpenFile(filepath.Join(f.dir, runfolder.MetricsFile), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, werr := file.Write(append(line, '\n'))
	return errors.Join(werr, file.Close())
}

// trimMetrics makes the metrics log agree with what survived a stop: the
// shards (kept even when written after the checkpoint) and the checkpoint's
// training. A line whose round's shard is gone, or cut short by a kill, is
// dropped; a line whose round's games survive but whose training was lost
// keeps its self-play figures, with the steps of the checkpoint and without
// the losses and evaluation of a network that no longer exists. So no round
// is counted twice, and the steps never go back. It returns the last round
// with a line.
func (f *folder) trimMetrics(ck *Checkpoint) (int, error) {
	path := filepath.Join(f.dir, runfolder.MetricsFile)
	data, err := store.ReadFile(path, store.MaxFileSize)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	last := 0
	var kept []byte
	seen := map[int]bool{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		var m runfolder.Metrics
		if len(line) == 0 || json.Unmarshal(line, &m) != nil || m.Round > ck.Round || seen[m.Round] {
			continue
		}
		seen[m.Round] = true
		last = max(last, m.Round)
		if m.Steps > ck.Steps {
			m.Steps, m.PolicyLoss, m.ValueLoss, m.Entropy, m.PliesLoss, m.SamplesPerSec = ck.Steps, 0, 0, 0, 0, 0
			m.EvalScores, m.EvalSeats, m.Elo, m.EloLo, m.EloHi, m.EvalSecs, m.Accuracy = nil, nil, nil, nil, nil, 0, nil
			m.GateScore, m.GatePassed = nil, false
			if line, err = json.Marshal(m); err != nil {
				return 0, err
			}
		}
		kept = append(append(kept, line...), '\n')
	}
	if bytes.Equal(kept, data) {
		return last, nil
	}
	return last, store.WriteAtomic(path, kept)
}

// checkWritable finds out at once, not a round later, that a run's
// folders cannot be written.
func checkWritable(dirs ...string) error {
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("%s cannot be written: %w", d, err)
		}
		f, err := os.CreateTemp(d, ".write-test*")
		if err != nil {
			return fmt.Errorf("%s cannot be written: %w", d, err)
		}
		f.Close()
		os.Remove(f.Name())
	}
	return nil
}

// removeTemporaries deletes the temporary files of writes that a kill cut
// short; they are never read, and only waste space. The storage's may
// belong to a producer writing now, so only old ones go.
func removeTemporaries(dir string) {
	for _, pattern := range []string{".*.tmp*", "*/.*.tmp*", "*/*.tmp"} {
		left, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, f := range left {
			fi, err := os.Stat(f)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if filepath.Base(f)[0] != '.' && time.Since(fi.ModTime()) < staleTemporary {
				continue
			}
			os.Remove(f)
		}
	}
}

// staleTemporary is the age after which a storage's temporary file is
// surely a write that was cut short.
const staleTemporary = 10 * time.Minute
