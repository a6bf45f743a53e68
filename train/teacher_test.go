package train

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// With a teacher, self-play is the teacher's whatever the run's own
// network: two runs of different widths with one teacher and seed play the
// same games, and a run without it others; each run still trains its own
// network. The teacher is read at every opening, and a missing or
// mismatched one is refused before any folder is made.
func TestTeacher(t *testing.T) {
	from := trainNew(t, tinyConfig())
	teacher := filepath.Join(t.TempDir(), "teacher.msgpack")
	if data, err := os.ReadFile(filepath.Join(from, "checkpoint.msgpack")); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(teacher, data, 0o644); err != nil {
		t.Fatal(err)
	}

	var runs []*Run
	for _, c := range []struct {
		width   int
		teacher string
	}{{16, teacher}, {24, teacher}, {16, ""}} {
		cfg := tinyConfig()
		cfg.Games = 12
		cfg.Net.Width = c.width
		cfg.Teacher = c.teacher
		r, err := Create(filepath.Join(t.TempDir(), "run"), cfg)
		if err != nil {
			t.Fatal(err)
		}
		train(t, r)
		if r.state.Steps == 0 || r.state.Weights.Arch.Width != c.width {
			t.Fatalf("width %d, teacher %q: %d steps, own network %v", c.width, c.teacher, r.state.Steps, r.state.Weights.Arch)
		}
		runs = append(runs, r)
	}
	for seq := 1; seq <= 2; seq++ {
		var shards [3][]any
		for i, r := range runs {
			s, err := readShard(r.Dir(), seq)
			if err != nil {
				t.Fatal(err)
			}
			shards[i] = []any{s.Samples, s.Plies}
		}
		if !reflect.DeepEqual(shards[0], shards[1]) {
			t.Errorf("round %d: runs of width 16 and 24 with one teacher played different games", seq)
		}
		if reflect.DeepEqual(shards[0], shards[2]) {
			t.Errorf("round %d: the run without a teacher played the teacher's games", seq)
		}
	}

	// Resumed, the run reads its teacher again: gone, it says so.
	if err := os.Remove(teacher); err != nil {
		t.Fatal(err)
	}
	if r, err := Resume(runs[0].Dir()); err == nil || !strings.Contains(err.Error(), "teacher: "+teacher) {
		if err == nil {
			r.Close()
		}
		t.Errorf("resumed without its teacher: want a teacher error, got %v", err)
	}

	other := tinyConfig()
	other.Game = other.Game.With("size", "5")
	otherRun := trainNew(t, func() Config { c := other; c.Games = 6; return c }())
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Teacher = filepath.Join(otherRun, "checkpoint.msgpack") }, "but the run learns"},
		{func(c *Config) { c.Teacher = teacher }, "teacher.msgpack"},
		{func(c *Config) { c.Teacher = filepath.Join(from, "checkpoint.msgpack"); c.Eval.GateGames = 10 }, "teacher and eval.gate_games"},
		{func(c *Config) { c.Teacher = filepath.Join(from, "checkpoint.msgpack"); c.Averaging.SelfPlay = true }, "teacher and averaging.selfplay"},
	} {
		cfg := tinyConfig()
		c.change(&cfg)
		dir := filepath.Join(t.TempDir(), "run")
		if _, err := Create(dir, cfg); err == nil || !strings.Contains(err.Error(), "teacher") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error with %q, got %v", c.want, err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("a refused start left %s (%v)", dir, err)
		}
	}
}
