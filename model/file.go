package model

import (
	"errors"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/store"
)

// File kinds that hold a network a player can load.
const (
	KindCheckpoint = "checkpoint"
	KindWeights    = "weights"
)

// FormatVersion is the version of checkpoint and weights files this
// program writes and the newest it reads.
const FormatVersion = 1

// NetFile is the part of a checkpoint or weights file that a player needs:
// the game the network plays, the network, and how far it was trained.
// A checkpoint holds more (optimiser state, counters); its field names
// match these so that either decodes into a NetFile.
type NetFile struct {
	Game      registry.Spec `msgpack:"game"`
	Weights   *Weights      `msgpack:"weights"`
	Steps     int64         `msgpack:"steps"`
	Games     int64         `msgpack:"games"`
	Positions int64         `msgpack:"positions"`
	// Averaged is, in a checkpoint of a run that keeps one, the moving
	// average of the trained weights: what the run's players play.
	Averaged *Weights `msgpack:"averaged,omitempty"`
}

// LoadNetFile reads a checkpoint or a published weights file and checks
// that its network is whole.
func LoadNetFile(path string) (*NetFile, error) {
	var f NetFile
	_, err := store.Read(path, KindCheckpoint, FormatVersion, &f)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		var f2 NetFile
		if _, err2 := store.Read(path, KindWeights, FormatVersion, &f2); err2 == nil {
			f, err = f2, nil
		}
	}
	if err != nil {
		return nil, err
	}
	if f.Averaged != nil {
		f.Weights, f.Averaged = f.Averaged, nil
	}
	if f.Weights == nil {
		return nil, fmt.Errorf("%s holds no network", path)
	}
	if err := f.Weights.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &f, nil
}

// CheckGame reports whether a network fits a game: same input size and
// action space.
func (a Arch) CheckGame(g env.Game) error {
	if in := g.InputShape().Size(); a.Input != in || a.Actions != g.ActionSize() {
		return fmt.Errorf("the network takes %d inputs and %d actions, but %s has %d and %d",
			a.Input, a.Actions, g.Describe(), in, g.ActionSize())
	}
	if s := g.InputShape(); a.Shape != nil && (a.Shape[0] != s.C || a.Shape[1] != s.H || a.Shape[2] != s.W) {
		return fmt.Errorf("the network takes inputs of shape %v, but %s encodes positions as %dx%dx%d", a.Shape, g.Describe(), s.C, s.H, s.W)
	}
	return nil
}
