package player

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/model"
)

// Files loads network and player files once: the first use of a file
// reads, checks and decodes it and makes its network ready; later uses of
// the same file, unchanged (the same size and modification time), share
// them. A network is read-only, so players on many goroutines share one.
// Files is safe for concurrent use.
type Files struct {
	mu      sync.Mutex
	entries map[string]*loadedFile
	loads   int
	clock   int // counts uses, for dropping the least recently used
}

// MaxLoadedFiles bounds the files a cache keeps: a program that meets
// more (a web app listing a folder of players) keeps the most recently
// used.
const MaxLoadedFiles = 32

// loadedFile is one file as loaded: a player file (Player set) or a
// checkpoint or weights file (Net set), and its network.
type loadedFile struct {
	size   int64
	mod    time.Time
	used   int
	player *PlayerFile
	file   *model.NetFile
	net    *model.Net
}

// NewFiles returns an empty cache.
func NewFiles() *Files { return &Files{entries: map[string]*loadedFile{}} }

// Loads is how many files the cache has read and decoded.
func (f *Files) Loads() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.loads
}

// Player is the player file at path and its network.
func (f *Files) Player(path string) (*PlayerFile, *model.Net, error) {
	e, err := f.load(path, true)
	if err != nil {
		return nil, nil, err
	}
	return e.player, e.net, nil
}

// Net is the checkpoint or weights file at path and its network.
func (f *Files) Net(path string) (*model.NetFile, *model.Net, error) {
	e, err := f.load(path, false)
	if err != nil {
		return nil, nil, err
	}
	return e.file, e.net, nil
}

func (f *Files) load(path string, asPlayer bool) (*loadedFile, error) {
	key, err := filepath.Abs(path)
	if err != nil {
		key = path
	}
	info, statErr := os.Stat(path)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clock++
	if e, ok := f.entries[key]; ok && statErr == nil && e.size == info.Size() && e.mod.Equal(info.ModTime()) && (e.player != nil) == asPlayer {
		e.used = f.clock
		return e, nil
	}
	e := &loadedFile{used: f.clock}
	var w *model.Weights
	if asPlayer {
		pf, err := LoadPlayerFile(path)
		if err != nil {
			return nil, err
		}
		e.player, w = pf, pf.Weights
	} else {
		nf, err := model.LoadNetFile(path)
		if err != nil {
			return nil, err
		}
		e.file, w = nf, nf.Weights
	}
	if e.net, err = model.NewNet(w); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.loads++
	if statErr == nil {
		e.size, e.mod = info.Size(), info.ModTime()
		f.entries[key] = e
		f.dropOldest()
	}
	return e, nil
}

// dropOldest keeps at most MaxLoadedFiles entries.
func (f *Files) dropOldest() {
	for len(f.entries) > MaxLoadedFiles {
		oldest := ""
		for k, e := range f.entries {
			if oldest == "" || e.used < f.entries[oldest].used {
				oldest = k
			}
		}
		delete(f.entries, oldest)
	}
}

// TrainedGame is the game a trained player's file was trained for (the
// file of a net: or player: spec); ok is false for the other kinds.
func (f *Files) TrainedGame(sp Spec) (g registry.Spec, ok bool, err error) {
	switch sp.Kind {
	case "player":
		pf, _, err := f.Player(sp.Arg)
		if err != nil {
			return g, true, err
		}
		return pf.Game, true, nil
	case "net":
		path := sp.Arg
		if path == "" {
			path = cmp.Or(sp.Options["checkpoint"], sp.Options["file"])
		}
		nf, _, err := f.Net(path)
		if err != nil {
			return g, true, err
		}
		return nf.Game, true, nil
	}
	return g, false, nil
}
