package train

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
)

// A run started from another's network plays what that network played,
// widened or not; a file of another game or shape is refused before any
// folder is made.
func TestStartFrom(t *testing.T) {
	from := trainNew(t, tinyConfig())
	nf, err := model.LoadNetFile(filepath.Join(from, "checkpoint.msgpack"))
	if err != nil {
		t.Fatal(err)
	}
	played := filepath.Join(t.TempDir(), "tiny.player")
	if _, err := player.Export(filepath.Join(from, "checkpoint.msgpack"), played, mcts.Params{Sims: 8}.WithDefaults(), nil); err != nil {
		t.Fatal(err)
	}
	for i, width := range []int{16, 40, 40} {
		cfg := tinyConfig()
		cfg.StartFrom = filepath.Join(from, "checkpoint.msgpack")
		if i == 2 {
			cfg.StartFrom = played
		}
		cfg.Net.Width = width
		r, err := Create(filepath.Join(t.TempDir(), "run"), cfg)
		if err != nil {
			t.Fatal(err)
		}
		got := r.state.Weights
		r.Close()
		if got.Arch.Width != width || r.state.Steps != 0 {
			t.Fatalf("width %d: started at %v, step %d", width, got.Arch, r.state.Steps)
		}
		x := make([]float32, 3*got.Arch.Input)
		rng := rand.New(rand.NewPCG(1, 1))
		for i := range x {
			x[i] = float32(rng.IntN(2))
		}
		l0, v0 := forward(t, nf.Weights, 3, x)
		l1, v1 := forward(t, got, 3, x)
		for i := range l0 {
			if math.Abs(float64(l0[i]-l1[i])) > 1e-4 {
				t.Fatalf("width %d: logit %d is %v, the file's network gives %v", width, i, l1[i], l0[i])
			}
		}
		for i := range v0 {
			if math.Abs(float64(v0[i]-v1[i])) > 1e-4 {
				t.Fatalf("width %d: value %d is %v, the file's network gives %v", width, i, v1[i], v0[i])
			}
		}
	}
	// A setting given at its default is the same game.
	same := tinyConfig()
	same.StartFrom = filepath.Join(from, "checkpoint.msgpack")
	same.Game = same.Game.With("plycap", "64")
	if r, err := Create(filepath.Join(t.TempDir(), "run"), same); err != nil {
		t.Errorf("the default ply cap given: %v", err)
	} else {
		r.Close()
	}
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Game = c.Game.With("size", "5") }, "but the run learns"},
		{func(c *Config) { c.Game = c.Game.With("plycap", "65") }, "but the run learns"},
		{func(c *Config) { c.Net.Depth = 2 }, "only the width may grow"},
		{func(c *Config) { c.Net.Width = 8 }, "wider than the configuration's 8"},
		{func(c *Config) { c.StartFrom = filepath.Join(from, "missing.player") }, "missing.player"},
	} {
		cfg := tinyConfig()
		cfg.StartFrom = filepath.Join(from, "checkpoint.msgpack")
		c.change(&cfg)
		dir := filepath.Join(t.TempDir(), "run")
		if _, err := Create(dir, cfg); err == nil || !strings.HasPrefix(err.Error(), "start_from: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error with %q, got %v", c.want, err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("a refused start left %s (%v)", dir, err)
		}
	}
}

func forward(t *testing.T, w *model.Weights, batch int, x []float32) (logits, values []float32) {
	t.Helper()
	net, err := model.NewNet(w)
	if err != nil {
		t.Fatal(err)
	}
	f := net.NewForward()
	logits, values = make([]float32, batch*w.Arch.Actions), make([]float32, batch)
	f.Run(batch, x, logits, values, nil)
	return logits, values
}
