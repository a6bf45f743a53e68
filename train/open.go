// Opening a run: a new one in a fresh folder (Create), or one resumed from
// its last checkpoint with the shards written after it (Resume).

package train

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/model/learn"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

// Create starts a new run in dir, which must not hold one already.
func Create(dir string, cfg Config) (*Run, error) {
	cfg = cfg.Resolved()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	g, err := games.New(cfg.Game)
	if err != nil {
		return nil, err
	}
	arch := cfg.Net.Arch(g)
	w, err := model.NewWeights(arch, rand.New(rand.NewPCG(cfg.Seed, initStream)))
	if err != nil {
		return nil, err
	}
	if cfg.StartFrom != "" {
		if w, err = startWeights(cfg, g, arch); err != nil {
			return nil, err
		}
	}
	// A missing or mismatched teacher is refused before there is a folder.
	var teacher *model.Weights
	if cfg.Teacher != "" {
		if teacher, err = networkOf("teacher", cfg.Teacher, g); err != nil {
			return nil, err
		}
	}
	f, err := createFolder(dir, cfg)
	if err != nil {
		return nil, err
	}
	if teacher != nil {
		if err := f.writeTeacher(cfg.Game, teacher); err != nil {
			f.close()
			return nil, err
		}
	}
	ck := Checkpoint{Game: cfg.Game, Weights: w, Config: cfg, Adam: learn.NewAdam(cfg.WeightDecay)}
	r, err := newRun(f, ck, g, teacher)
	if err == nil && cfg.Auto != nil {
		st := cfg.Auto.Stats
		r.logf("settings from the game: measured %d random games (%.1f plies on average, %.1f moves a position, %.0f%% capped), then chose:",
			st.Games, st.Length.Mean, st.Branching, 100*st.Capped)
		for _, line := range cfg.Auto.Chosen {
			r.logf("  %s", line)
		}
	}
	if err == nil {
		err = r.publish(context.Background())
	}
	// The first checkpoint makes the folder a run at once.
	if err == nil {
		err = r.folder.writeCheckpoint(&r.state)
	}
	if err != nil {
		f.close()
		return nil, err
	}
	return r, nil
}

// startWeights is the network of cfg.StartFrom for a run of arch on g:
// the file's own if its architecture is arch, widened if only narrower.
func startWeights(cfg Config, g env.Game, arch model.Arch) (*model.Weights, error) {
	path := cfg.StartFrom
	w, err := networkOf("start_from", path, g)
	if err != nil {
		return nil, err
	}
	narrower := w.Arch
	narrower.Width = arch.Width
	if !narrower.Equal(arch) {
		return nil, fmt.Errorf("start_from: %s holds a %s network, the configuration asks for %s: only the width may grow", path, w.Arch, arch)
	}
	if w.Arch.Width > arch.Width {
		return nil, fmt.Errorf("start_from: %s holds a network of width %d, wider than the configuration's %d", path, w.Arch.Width, arch.Width)
	}
	wide, err := w.Widen(arch.Width, rand.New(rand.NewPCG(cfg.Seed, initStream)))
	if err != nil {
		return nil, fmt.Errorf("start_from: %s: %w", path, err)
	}
	return wide, nil
}

// networkOf loads the network of a player, weights or checkpoint file
// named by the configuration's setting, and checks that it plays g.
func networkOf(setting, path string, g env.Game) (*model.Weights, error) {
	spec, w, err := player.LoadNetwork(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", setting, err)
	}
	// Games are compared built, so that a setting left at its default
	// and the same setting given match.
	if fg, err := games.New(spec); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", setting, path, err)
	} else if fg.Describe() != g.Describe() {
		return nil, fmt.Errorf("%s: %s plays %s, but the run learns %s", setting, path, games.Describe(fg), games.Describe(g))
	}
	if err := w.Arch.CheckGame(g); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", setting, path, err)
	}
	return w, nil
}

// Resume reopens the run in dir at its last checkpoint. Shards written
// after that checkpoint (self-play finished, training not yet saved) are
// taken and counted: they are finished games.
func Resume(dir string) (*Run, error) {
	f, ck, err := openFolder(dir)
	if err != nil {
		return nil, err
	}
	r, err := resume(f, ck)
	if err != nil {
		f.close()
		return nil, err
	}
	return r, nil
}

func resume(f *folder, ck *Checkpoint) (*Run, error) {
	ctx := context.Background()
	g, err := games.New(ck.Config.Game)
	if err != nil {
		return nil, err
	}
	if err := ck.Weights.Arch.CheckGame(g); err != nil {
		return nil, fmt.Errorf("%s: checkpoint does not match its game: %w", f.dir, err)
	}
	teacher, err := f.readTeacher(ck.Config, g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.dir, err)
	}
	r, err := newRun(f, *ck, g, teacher)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.dir, err)
	}
	in, st := r.intake, &r.state
	if err := in.migrate(ctx, st); err != nil {
		return nil, err
	}
	in.remember(st)
	if err := in.resumePrune(ctx, st); err != nil {
		return nil, err
	}
	if err := in.rebuild(ctx, st); err != nil {
		return nil, err
	}
	lost, err := r.takeWrittenAfterTheCheckpoint(ctx)
	if err != nil {
		return nil, err
	}
	last, err := f.trimMetrics(st)
	if err != nil {
		return nil, err
	}
	for round := last + 1; round <= st.Round; round++ {
		if m, ok := lost[round]; ok {
			if err := f.appendMetrics(m); err != nil {
				return nil, err
			}
		}
	}
	if err := in.prune(ctx, st); err != nil {
		return nil, err
	}
	return r, r.republish(ctx)
}

// takeWrittenAfterTheCheckpoint takes the shards a stop left untaken; this
// process's rounds among them count as played, and it returns their
// metrics lines (self-play figures only: their training was lost), for
// the rounds whose line the stop cut off.
func (r *Run) takeWrittenAfterTheCheckpoint(ctx context.Context) (map[int]runfolder.Metrics, error) {
	keys, err := r.intake.pending(ctx, 0)
	if err != nil {
		return nil, err
	}
	lines := map[int]runfolder.Metrics{}
	from, games := r.state.Round, 0
	for _, key := range keys {
		got, err := r.intake.take(ctx, &r.state, []string{key})
		if err != nil {
			return nil, err
		}
		games += got.Games
		if round := got.NewestLocal; round > r.state.Round {
			r.state.Round = round
			m := runfolder.Metrics{Round: round, Time: time.Now().UTC(), Elapsed: r.state.Elapsed}
			got.addTo(&m)
			m.Steps, m.Games, m.Positions, m.Replay = r.state.Steps, r.state.Games, r.state.Positions, r.window.Len()
			m.LearningRate = r.cfg.rate(&r.state)
			lines[round] = m
		}
	}
	if r.state.Round > from {
		r.logf("kept rounds %d to %d, written after the checkpoint: %d games", from+1, r.state.Round, games)
	}
	return lines, nil
}

// newRun assembles a run from its checkpoint; its storage is its folder,
// and it plays with a producer of its own.
func newRun(f *folder, ck Checkpoint, g env.Game, teacher *model.Weights) (*Run, error) {
	cfg := ck.Config
	r := &Run{folder: f, cfg: cfg, game: g, state: ck, window: replay.NewWindow(cfg.ReplayWindow), teacher: teacher}
	var err error
	if r.learner, err = newLearner(&r.state, cfg, g); err != nil {
		return nil, err
	}
	if cfg.Eval.GateGames > 0 && r.state.Best == nil {
		r.state.Best, r.state.BestSteps = r.state.Weights.Clone(), r.state.Steps
	}
	if teacher != nil {
		r.logf("self-play plays the teacher %s (%s, copied into %s when the run was created), not the run's own network",
			cfg.Teacher, teacher.Arch, filepath.Join(f.dir, TeacherFile))
	}
	if r.folderStore, err = runstore.Open(context.Background(), f.dir); err != nil {
		return nil, err
	}
	r.storage = r.folderStore
	r.intake = newIntake(r.storage, f.dir, cfg, g, r.window, r.logf)
	r.intake.remember(&r.state)
	if r.local, err = r.newLocalProducer(); err != nil {
		return nil, err
	}
	return r, nil
}
