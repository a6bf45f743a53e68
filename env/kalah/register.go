package kalah

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

func init() {
	registry.Register(registry.Game{
		Name:  "kalah",
		Title: "Kalah",
		Options: []registry.Option{
			{Key: "pits", Help: "pits on each side", Min: MinPits, Max: MaxPits, Default: strconv.Itoa(DefaultPits), Learned: true},
			{Key: "seeds", Help: "seeds in each pit at the start", Min: MinSeeds, Max: MaxSeeds, Default: strconv.Itoa(DefaultSeeds), Learned: true},
		},
		New: func(s registry.Spec) (env.Game, error) {
			if s.Text("size") != "" {
				return nil, fmt.Errorf("kalah has no size setting: its board is pits (a side) and seeds (a pit)")
			}
			return New(s.Int("pits"), s.Int("seeds"))
		},
		// A position carries its own pits and seeds: it is played in the
		// game they make.
		SpecOf: func(position string, playing registry.Spec) (registry.Spec, error) {
			pits, seeds := ConfigOf(position)
			if pits > 0 {
				playing = playing.With("pits", strconv.Itoa(pits))
			}
			if seeds > 0 {
				playing = playing.With("seeds", strconv.Itoa(seeds))
			}
			return playing, nil
		},
	})
}

// ConfigOf reads the settings a position in the one-line form carries:
// its pits a side, and the seeds a pit its counts add up to; 0 for one
// it does not tell (malformed text, a count of pits or seeds out of
// range), which ParseState then refuses with its reason.
func ConfigOf(position string) (pits, seeds int) {
	f := strings.Fields(position)
	if len(f) == 0 {
		return 0, 0
	}
	parts := strings.Split(f[0], "/")
	if n := len(strings.Split(parts[0], ",")); n >= MinPits && n <= MaxPits {
		pits = n
	}
	total := 0
	for _, part := range parts {
		for _, c := range strings.Split(part, ",") {
			n, err := strconv.Atoi(c)
			if err != nil || n < 0 || n > 2*MaxPits*MaxSeeds {
				return pits, 0
			}
			total += n
		}
	}
	if pits > 0 && total%(2*pits) == 0 && total/(2*pits) >= MinSeeds && total/(2*pits) <= MaxSeeds {
		seeds = total / (2 * pits)
	}
	return pits, seeds
}

// GameOf is the game a position in the one-line form belongs to, by its
// pits and seeds (ConfigOf; the defaults for what it does not tell).
func GameOf(position string) (*Game, error) { return New(ConfigOf(position)) }
