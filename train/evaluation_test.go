// Tests of a run's evaluation: the ladder, snapshots, gating, the
// examiner, every game.

package train

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

func TestEvaluationGoesIntoTheMetrics(t *testing.T) {
	cfg := tinyConfig()
	cfg.Games = 6
	cfg.Eval = evaluate.Config{Minutes: 1e-9, Games: 4, Sims: 4, Ladder: []string{"random", "greedy"}}
	dir := trainNew(t, cfg)
	m, data := lastMetrics(t, dir)
	if m.Elo == nil || len(m.EvalScores) != 2 || m.EvalSecs <= 0 {
		t.Errorf("metrics after an evaluation: %s", data)
	}
	for base, seats := range m.EvalSeats {
		if len(seats) != 2 || seats[0].Side != "H" || seats[1].Side != "V" ||
			seats[0].Wins+seats[0].Losses > 2 || seats[1].Wins+seats[1].Losses > 2 {
			t.Errorf("seats against %s: %+v (4 games, 2 a side)", base, seats)
		}
	}
	if len(m.EvalSeats) != 2 {
		t.Errorf("seats for %d baselines, want 2: %s", len(m.EvalSeats), data)
	}
	if *m.EloLo > *m.Elo || *m.Elo > *m.EloHi {
		t.Errorf("Elo %v outside its interval [%v, %v]", *m.Elo, *m.EloLo, *m.EloHi)
	}
}

// Snapshots join the ladder as fixed opponents: each is placed against the
// baselines once, then the network under test plays the latest ones.
func TestSnapshotOpponents(t *testing.T) {
	cfg := tinyConfig()
	cfg.Games = 30 // five rounds
	cfg.SnapshotMinutes = 1e-9
	cfg.Eval = evaluate.Config{Minutes: 1e-9, Games: 2, Sims: 4, Ladder: []string{"random", "greedy"}, SnapshotOpponents: 2}
	dir := trainNew(t, cfg)
	last, _ := lastMetrics(t, dir)
	var snaps []string
	for name := range last.EvalScores {
		if strings.HasPrefix(name, "snapshot-") {
			snaps = append(snaps, name)
		}
	}
	if len(snaps) != 2 || len(last.EvalScores) != 4 || last.Elo == nil {
		t.Fatalf("last evaluation: %v (want random, greedy and two snapshots), Elo %v", last.EvalScores, last.Elo)
	}
	ck, err := (&folder{dir: dir}).readCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	placed := map[string]int{}
	for _, lr := range ck.Ladder {
		placed[lr.A]++
	}
	for _, s := range snaps {
		if placed[s] != 2 {
			t.Errorf("%s placed against %d baselines, want 2 (once each): %v", s, placed[s], ck.Ladder)
		}
	}
}

func TestGating(t *testing.T) {
	cfg := tinyConfig()
	cfg.Games = 12
	cfg.Eval = evaluate.Config{Minutes: 1e-9, Games: 2, Sims: 4, Ladder: []string{"random"}, GateGames: 4, GateScore: 0.5}
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	train(t, r)
	// Self-play plays the best network: the newest published weights.
	st, err := runstore.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, published, err := selfplay.NewestWeights(context.Background(), st)
	if err != nil || sameWeights(published, r.state.Best) != nil {
		t.Errorf("the producers are given another network than the best (%v)", err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, runfolder.MetricsFile))
	if !strings.Contains(string(data), `"gate_score"`) {
		t.Fatalf("no gating in the metrics:\n%s", data)
	}
	// A network replaces the best when it scores at least gate_score
	// against it, and only then.
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m runfolder.Metrics
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m.GateScore != nil && m.GatePassed != (*m.GateScore >= cfg.Eval.GateScore) {
			t.Errorf("round %d: scored %.2f against the best, gate %.2f: passed %v", m.Round, *m.GateScore, cfg.Eval.GateScore, m.GatePassed)
		}
		if m.GatePassed && m.BestSteps != m.Steps {
			t.Errorf("round %d: passed the gate at step %d, the best is step %d's", m.Round, m.Steps, m.BestSteps)
		}
	}
	back, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.state.Best == nil || back.state.BestSteps != r.state.BestSteps {
		t.Errorf("best network not restored: steps %d, want %d", back.state.BestSteps, r.state.BestSteps)
	}
	if err := sameWeights(back.state.Best, r.state.Best); err != nil {
		t.Error(err)
	}
}

// The trainer knows no game: every registered game trains, checkpoints
// and resumes through the same code.
func TestTrainsEveryGame(t *testing.T) {
	for _, name := range registry.Names() {
		t.Run(name, func(t *testing.T) {
			cfg := tinyConfig()
			cfg.Game = registry.Spec{Name: name}
			if name == "rlgame" {
				cfg.Game = cfg.Game.With("size", "6").With("base", "1").With("pawns", "4")
			}
			cfg.Games = 6
			cfg.GamesPerRound = 3
			cfg.MinReplay = 16
			dir := filepath.Join(t.TempDir(), "run")
			r, err := Create(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			train(t, r)
			if r.state.Steps == 0 || r.state.Games != 6 {
				t.Errorf("%s: %s", name, counters(r.state))
			}
			// Each round kept whole games for people to look at: they
			// replay to the result they record.
			recs, err := match.ReadRecords(filepath.Join(dir, ExamplesFile))
			if err != nil || len(recs) != 2*selfplay.ExamplesPerRound {
				t.Fatalf("%s: self-play examples: %v, %d games", name, err, len(recs))
			}
			for _, rec := range recs {
				if _, err := rec.Replay(nil); err != nil || !rec.Outcome.Over {
					t.Errorf("%s: an example game: %v, outcome %+v", name, err, rec.Outcome)
				}
			}
			back, err := Resume(dir)
			if err != nil {
				t.Fatal(err)
			}
			if back.state.Steps != r.state.Steps {
				t.Errorf("%s: resumed at step %d, want %d", name, back.state.Steps, r.state.Steps)
			}
		})
	}
}

// A configuration's game replaces the default game whole: fields it leaves
// out are that game's defaults, not Slider's.
func TestConfigGameReplacesTheDefault(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(path, []byte(`{"game": {"name": "catsdogs"}, "minutes": 3}`), 0o644)
	c, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Game.Equal(registry.Spec{Name: "catsdogs"}) || c.Minutes != 3 || c.BatchSize != DefaultConfig().BatchSize {
		t.Errorf("loaded %+v", c)
	}
}

// countingExaminer plays each player once on a fixed position and reports
// how many it was given.
type countingExaminer struct{ calls, players int }

func (x *countingExaminer) Examine(ctx context.Context, newPlayer func(uint64) (player.Player, error)) ([]evaluate.Accuracy, error) {
	x.calls++
	g := slider.MustNew(slider.Config{Size: 4})
	for seed := uint64(0); seed < 3; seed++ {
		p, err := newPlayer(seed)
		if err != nil {
			return nil, err
		}
		if _, err := p.Move(ctx, g.NewState(nil)); err != nil {
			return nil, err
		}
		x.players++
	}
	return []evaluate.Accuracy{{Set: "test", Kept: 2, Total: 3}}, nil
}

func TestExaminerGoesIntoTheMetrics(t *testing.T) {
	cfg := tinyConfig()
	cfg.Games = 6
	cfg.Eval = evaluate.Config{Minutes: 1e-9, Games: 2, Sims: 4, Ladder: []string{"random"}}
	r, err := Create(filepath.Join(t.TempDir(), "run"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	x := &countingExaminer{}
	r.Examiner = x
	train(t, r)
	data, _ := os.ReadFile(filepath.Join(r.Dir(), runfolder.MetricsFile))
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	var m runfolder.Metrics
	if err := json.Unmarshal(lines[len(lines)-1], &m); err != nil {
		t.Fatal(err)
	}
	if x.calls == 0 || x.players != 3*x.calls || len(m.Accuracy) != 1 || m.Accuracy[0].Kept != 2 || m.Accuracy[0].Share() < 0.66 {
		t.Errorf("examiner called %d times with %d players; metrics %s", x.calls, x.players, lines[len(lines)-1])
	}
}
