package games

// The games: one line each. A game's package registers it (package
// registry) when imported.
import (
	_ "github.com/sliderzero/sliderzero/env/catsdogs"
	_ "github.com/sliderzero/sliderzero/env/connect4"
	_ "github.com/sliderzero/sliderzero/env/hex"
	_ "github.com/sliderzero/sliderzero/env/kalah"
	_ "github.com/sliderzero/sliderzero/env/rlgame"
	_ "github.com/sliderzero/sliderzero/env/slider"
)
