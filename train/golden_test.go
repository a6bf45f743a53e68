package train_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/train/traintest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from a new tiny run (after a deliberate change of format)")

const golden = "testdata/golden"

// The run folder's formats, kept as files of the current version: a
// checkpoint, a self-play shard and a metrics line. The current code reads
// each and writes it again byte for byte, so a change that alters a format
// fails here until it is made deliberately (a new version, its migration,
// and these files rewritten with -update).
func TestGoldenRunFiles(t *testing.T) {
	if *update {
		writeGolden(t)
	}
	// The checkpoint.
	want, err := os.ReadFile(filepath.Join(golden, train.CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	var ck train.Checkpoint
	if _, err := store.Decode(want, train.CheckpointFile, model.KindCheckpoint, model.FormatVersion, &ck); err != nil {
		t.Fatal(err)
	}
	if ck.Steps == 0 || ck.Games == 0 || ck.Config.Game.Int("size") != 4 {
		t.Errorf("checkpoint read as %d steps, %d games, game %+v", ck.Steps, ck.Games, ck.Config.Game)
	}
	got, err := store.Encode(model.KindCheckpoint, model.FormatVersion, &ck)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("checkpoint: read and written again, %d bytes against the file's %d", len(got), len(want))
	}
	// The shard.
	want, err = os.ReadFile(filepath.Join(golden, "shard.msgpack"))
	if err != nil {
		t.Fatal(err)
	}
	sh, _, err := replay.Decode(want, "shard.msgpack", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(sh.Samples) == 0 || sh.Games == 0 {
		t.Errorf("shard read as %d samples of %d games", len(sh.Samples), sh.Games)
	}
	if got, err = replay.Encode(sh); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("shard: read and written again, %d bytes against the file's %d", len(got), len(want))
	}
	// The metrics line.
	want, err = os.ReadFile(filepath.Join(golden, runfolder.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	want = bytes.TrimSuffix(want, []byte("\n"))
	var m runfolder.Metrics
	if err := json.Unmarshal(want, &m); err != nil {
		t.Fatal(err)
	}
	if m.Round == 0 || m.Games == 0 {
		t.Errorf("metrics line read as round %d, %d games", m.Round, m.Games)
	}
	if got, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("metrics line: read and written again:\n%s\nagainst the file's\n%s", got, want)
	}
}

// writeGolden rewrites the golden files from a new tiny run: its
// checkpoint, its first shard and its last metrics line.
func writeGolden(t *testing.T) {
	run := traintest.Run(t, traintest.TinyConfig())
	if err := os.MkdirAll(golden, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(run, train.CheckpointFile), filepath.Join(golden, train.CheckpointFile))
	shards, _ := filepath.Glob(filepath.Join(run, "shards", "*", "*.msgpack"))
	if len(shards) == 0 {
		shards, _ = filepath.Glob(filepath.Join(run, "shards", "*.msgpack"))
	}
	if len(shards) == 0 {
		t.Fatal("the run wrote no shard")
	}
	sort.Strings(shards)
	copyFile(t, shards[0], filepath.Join(golden, "shard.msgpack"))
	lines := bytes.Split(bytes.TrimSpace(mustRead(t, filepath.Join(run, runfolder.MetricsFile))), []byte("\n"))
	os.WriteFile(filepath.Join(golden, runfolder.MetricsFile), append(lines[len(lines)-1], '\n'), 0o644)
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if err := os.WriteFile(to, mustRead(t, from), 0o644); err != nil {
		t.Fatal(err)
	}
}
