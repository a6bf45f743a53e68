package train

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

// With a teacher, self-play is the teacher's whatever the run's own
// network: two runs of different widths with one teacher and seed play the
// same games, and a run without it others; each run still trains its own
// network, and the only network published is the teacher's. The run plays
// its own copy of the teacher, taken when it was created; a missing or
// mismatched teacher is refused before any folder is made.
func TestTeacher(t *testing.T) {
	ctx := context.Background()
	from := trainNew(t, tinyConfig())
	teacher := filepath.Join(t.TempDir(), "teacher.msgpack")
	if data, err := os.ReadFile(filepath.Join(from, "checkpoint.msgpack")); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(teacher, data, 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := model.LoadNetFile(teacher)
	if err != nil {
		t.Fatal(err)
	}
	// published checks that the newest network a run published is the
	// teacher's.
	published := func(dir string) {
		t.Helper()
		st, err := runstore.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		_, got, err := selfplay.NewestWeights(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameWeights(want.Weights, got); err != nil || got.Arch.Width != want.Weights.Arch.Width {
			t.Fatalf("%s published a network other than the teacher's (%v, width %d): %v", dir, got.Arch, got.Arch.Width, err)
		}
	}

	var runs []*Run
	for _, c := range []struct {
		width   int
		teacher string
	}{{16, teacher}, {24, teacher}, {16, ""}} {
		cfg := tinyConfig()
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
		if c.teacher != "" {
			published(r.Dir())
		}
		runs = append(runs, r)
	}
	// Four rounds: the last two are played after the learner has trained
	// (and, without a teacher, published) a network of its own.
	for seq := 1; seq <= 4; seq++ {
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
		if seq > 2 && reflect.DeepEqual(shards[0], shards[2]) {
			t.Errorf("round %d: the run without a teacher played the teacher's games", seq)
		}
	}

	// The teacher's file gone, the run goes on with its copy; its copy
	// gone, it says so.
	if err := os.Remove(teacher); err != nil {
		t.Fatal(err)
	}
	r, err := Resume(runs[0].Dir())
	if err != nil {
		t.Fatal(err)
	}
	r.SetLimits(0, 0, 36)
	train(t, r)
	published(r.Dir())
	if _, err := readShard(r.Dir(), 6); err != nil {
		t.Fatalf("the resumed run played no more rounds: %v", err)
	}
	if err := os.Remove(filepath.Join(r.Dir(), TeacherFile)); err != nil {
		t.Fatal(err)
	}
	if r, err := Resume(runs[0].Dir()); err == nil || !strings.Contains(err.Error(), "copy of its teacher "+teacher) {
		if err == nil {
			r.Close()
		}
		t.Errorf("resumed without its copy of the teacher: want a teacher error, got %v", err)
	}

	other := tinyConfig()
	other.Game = other.Game.With("size", "5")
	other.Games = 6
	otherRun := trainNew(t, other)
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
