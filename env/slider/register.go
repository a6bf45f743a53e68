package slider

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

func init() {
	registry.Register(registry.Game{
		Name:    "slider",
		Primary: true,
		Title:   "Slider",
		Options: []registry.Option{
			{Key: "size", Help: "board size", Min: MinSize, Max: MaxSize, Default: "5", Learned: true},
			{Key: "blocked", Help: "blocked cells: none, random (the course referee's scheme, drawn per game), or interior cells such as c3,d4", Default: "none", Values: []string{"none", "random"}},
			{Key: "first", Help: "the side that moves first: H, V, or random (drawn per game)", Default: "H", Values: []string{"H", "V", "random"}},
			{Key: registry.PlyCapKey, Help: "plies after which the game is a tie, passes included", Min: 1, Max: registry.NoCap, Default: "4 x size x size"},
		},
		New: fromSpec,
		Check: func(g env.Game) error {
			sg := g.(*Game)
			return CheckLayout(sg.cfg.Blocked, sg.n)
		},
		SpecOf: func(position string, playing registry.Spec) (registry.Spec, error) {
			s, err := ParsePosition(position)
			if err != nil {
				return playing, err
			}
			// The position's own layout is the game's, unless no game could
			// start on it (cells blocked under the start's pieces: a set-up
			// that is still a position to play from).
			playing = playing.With("size", strconv.Itoa(s.Rules().Size())).With("blocked", "none")
			if cells := s.BlockedCells(); len(cells) > 0 {
				with := playing.With("blocked", FormatCells(cells))
				if _, err := fromSpec(with); err == nil {
					playing = with
				}
			}
			return playing, nil
		},
	})
}

// fromSpec builds the game a spec describes.
func fromSpec(s registry.Spec) (env.Game, error) {
	size := s.Int("size")
	if size == 0 {
		size = 5
	}
	cells, random, err := ParseBlocked(s.Text("blocked"))
	if err != nil {
		return nil, err
	}
	cfg := Config{Size: size, Blocked: cells, RandomBlocked: random, PlyCap: s.Int("plycap")}
	switch strings.ToUpper(s.Text("first")) {
	case "", "H":
	case "V":
		cfg.First = V
	case "RANDOM":
		cfg.RandomFirst = true
	default:
		return nil, fmt.Errorf("first player %q: want H, V or random", s.Text("first"))
	}
	return New(cfg)
}
