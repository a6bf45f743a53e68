//go:build unix

package train

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO among the shards once stopped the trainer at every resume (its
// read was refused, and the refusal was fatal). It is set aside, moved
// and not read, with a log line, and training goes on; so is a damaged
// shard found while the window is rebuilt on resume.
func TestUnfitShardsAreSetAsideOnResume(t *testing.T) {
	cfg := tinyConfig()
	cfg.Games = 12
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.SetLimits(0, 0, 6)
	train(t, r)
	if err := syscall.Mkfifo(localShardPath(dir, 2), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	// Shard 1 was taken into the window: damage it in place.
	data, err := os.ReadFile(localShardPath(dir, 1))
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-20] ^= 0xff
	os.WriteFile(localShardPath(dir, 1), data, 0o644)

	back, err := Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	back.Log = &log
	back.SetLimits(0, 0, 12)
	train(t, back)
	if back.state.Games < 12 {
		t.Errorf("training stopped: %s", counters(back.state))
	}
	for _, name := range []string{"local-000001.msgpack", "local-000002.msgpack"} {
		fi, err := os.Lstat(filepath.Join(dir, "rejected", name))
		if err != nil {
			t.Errorf("%s not set aside: %v", name, err)
			continue
		}
		if name == "local-000002.msgpack" && fi.Mode().Type() != os.ModeNamedPipe {
			t.Errorf("the FIFO was replaced by a %v, not moved", fi.Mode().Type())
		}
		if !strings.Contains(log.String(), "setting shards/"+name+" aside") {
			t.Errorf("no log line for %s:\n%s", name, log.String())
		}
	}
	if !strings.Contains(log.String(), "not a regular file") {
		t.Errorf("the FIFO's log line does not say why:\n%s", log.String())
	}
}
