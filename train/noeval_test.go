package train_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/traintest"
)

// plainGame hides TakeAway's evaluation function: a game as a user may
// first write it.
type plainGame struct{ env.Game }

func init() {
	registry.Register(registry.Game{Name: "plaintakeaway", New: func(registry.Spec) (env.Game, error) {
		return plainGame{&envtest.TakeAway{Stones: 40}}, nil
	}})
}

// A game without an evaluation function trains with the built-in
// configuration: its ladder drops greedy and alphabeta, which need one,
// and the run says so; a ladder the user wrote is checked as written.
func TestGameWithoutEvaluatorTrainsByDefault(t *testing.T) {
	cfg := traintest.TinyConfig()
	cfg.Game = registry.Spec{Name: "plaintakeaway"}
	cfg.Eval.Ladder = train.DefaultConfig().Eval.Ladder
	cfg.Eval.AccuracyTable = ""
	r, err := train.Create(t.TempDir()+"/run", cfg)
	if err != nil {
		t.Fatalf("the built-in configuration on a game without an evaluation function: %v", err)
	}
	var log bytes.Buffer
	r.Log = &log
	if err := r.Train(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.Close()
	ladder := r.Config().Eval.Ladder
	if strings.Join(ladder, " ") != "random mcts:sims=200 mcts:sims=1000" || !strings.Contains(log.String(), "has no evaluation function") {
		t.Errorf("ladder %v; log:\n%s", ladder, log.String())
	}
	cfg.Eval.Ladder = []string{"random", "greedy"}
	if _, err := train.Create(t.TempDir()+"/run2", cfg); err == nil || !strings.Contains(err.Error(), "needs an evaluation function") {
		t.Errorf("a user's ladder with greedy: %v", err)
	}
}
