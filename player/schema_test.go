package player_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
)

// Every field of a player file, nested ones (the search's settings, the
// network's architecture) included, is stored under a name its msgpack
// tag fixes, and the shipped players, read and written again, come out
// byte for byte: the current code keeps the format they were written in.
func TestPlayerFileSchema(t *testing.T) {
	if u := store.UntaggedFields(player.PlayerFile{}); len(u) > 0 {
		t.Errorf("stored without a msgpack tag (renaming them would change the format): %v", u)
	}
	for _, file := range []string{"../checkpoints/slider-5x5.player", "../checkpoints/connect4.player", "../checkpoints/catsdogs.player"} {
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := player.DecodePlayerFile(want, file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := store.Encode(player.KindPlayer, player.PlayerFormatVersion, pf)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: read and written again, %d bytes differ from the file's %d", file, len(got), len(want))
		}
	}
}
