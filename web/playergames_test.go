package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
)

// nilTimePlayer is a player file with a valid checksum whose export time
// is nil: once it panicked the decoder and made every /api/info a 500.
func nilTimePlayer(t *testing.T, good []byte) []byte {
	t.Helper()
	var env map[string]any
	var body map[string]any
	if err := msgpack.Unmarshal(good, &env); err != nil {
		t.Fatal(err)
	}
	if err := msgpack.Unmarshal(env["body"].([]byte), &body); err != nil {
		t.Fatal(err)
	}
	body["exported"] = nil
	raw, _ := msgpack.Marshal(body)
	data, err := store.Encode(player.KindPlayer, player.PlayerFormatVersion, msgpack.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A bad player file is listed as unreadable with its reason, the good
// ones still load, and a file that changes is read again.
func TestInfoListsUnreadablePlayers(t *testing.T) {
	f := newFixture(t)
	good, err := os.ReadFile(filepath.Join(f.root, f.player))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(f.root, "niltime.player"), nilTimePlayer(t, good), 0o644)
	os.WriteFile(filepath.Join(f.root, "text.player"), []byte("hello"), 0o644)
	code, info := f.get(t, "/api/info")
	if code != 200 {
		t.Fatalf("info: %d %v", code, info)
	}
	players := strings.Join(toStrings(info["players"].([]any)), " ")
	unreadable, _ := info["unreadable"].(map[string]any)
	if !strings.Contains(players, "player:"+f.player) || strings.Contains(players, "niltime") || strings.Contains(players, "text.player") {
		t.Errorf("players: %s", players)
	}
	for name, want := range map[string]string{"player:niltime.player": "niltime.player: decoding the player: malformed", "player:text.player": "text.player is not a sliderzero file"} {
		reason, _ := unreadable[name].(string)
		if !strings.HasPrefix(reason, want) || strings.Contains(reason, f.root) {
			t.Errorf("%s: reason %q, want it to start %q and not name the root", name, reason, want)
		}
	}
	// The same file made good is read again (its size changes), and made
	// bad again at the same size but a later time, refused again.
	os.WriteFile(filepath.Join(f.root, "text.player"), good, 0o644)
	_, info = f.get(t, "/api/info")
	if _, bad := info["unreadable"].(map[string]any)["player:text.player"]; bad {
		t.Errorf("a repaired file is still listed unreadable: %v", info["unreadable"])
	}
	broken := append([]byte(nil), good...)
	broken[len(broken)-5] ^= 0xff
	path := filepath.Join(f.root, "text.player")
	os.WriteFile(path, broken, 0o644)
	later := time.Now().Add(time.Minute)
	os.Chtimes(path, later, later)
	_, info = f.get(t, "/api/info")
	if reason, _ := info["unreadable"].(map[string]any)["player:text.player"].(string); !strings.Contains(reason, "corrupt") {
		t.Errorf("a file damaged in place: %q", reason)
	}
}
