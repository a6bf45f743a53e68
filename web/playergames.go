package web

import (
	"os"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
)

// playerGames remembers the game each player file plays, keyed by the
// file's size and modification time, so that /api/info decodes a file
// once rather than on every request (a player file is hundreds of
// kilobytes; a page load asks for the list each time).
type playerGames struct {
	mu    sync.Mutex
	files map[string]playerGame
}

type playerGame struct {
	size    int64
	modTime time.Time
	game    registry.Spec
	err     error
}

// maxCachedPlayers bounds the cache: the listing itself stops at
// MaxListed files.
const maxCachedPlayers = 4 * MaxListed

// game is the game the player file at path plays, or why it cannot be
// read.
func (c *playerGames) game(path string) (registry.Spec, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return registry.Spec{}, err
	}
	c.mu.Lock()
	e, ok := c.files[path]
	c.mu.Unlock()
	if ok && e.size == fi.Size() && e.modTime.Equal(fi.ModTime()) {
		return e.game, e.err
	}
	e = playerGame{size: fi.Size(), modTime: fi.ModTime()}
	if pf, err := player.LoadPlayerFile(path); err != nil {
		e.err = err
	} else {
		e.game = pf.Game
	}
	c.mu.Lock()
	if c.files == nil || len(c.files) >= maxCachedPlayers {
		c.files = map[string]playerGame{}
	}
	c.files[path] = e
	c.mu.Unlock()
	return e.game, e.err
}
