package player_test

import (
	"context"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
)

// Open loads a trained player file; Move asks it for a move in a position
// of its game, within a budget.
func ExampleOpen() {
	agent, err := player.Open("../checkpoints/slider-5x5.player")
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, err := agent.Game().ParseState("H++++/H++++/H++++/H++++/+VVVV H")
	if err != nil {
		fmt.Println(err)
		return
	}
	move, err := agent.Move(context.Background(), pos, player.Budget{Sims: 200})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(agent.Game().Name(), "legal:", env.IsLegal(pos, move))
	// Output: slider legal: true
}
