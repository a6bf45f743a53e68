package solve

import (
	"context"
	"fmt"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/env/slider"
)

// maxAutoSize is the largest board a run's "auto" table is solved for:
// 5x5 takes about a minute and half a gigabyte; 6x6 is out of reach.
const maxAutoSize = 5

func init() {
	registry.RegisterSolver("slider", registry.Solver{
		Scale:      Scale,
		MaxScore:   255, // a win in one ply
		PliesToEnd: pliesToEnd,
		Tables: &registry.Tables{
			Solve: solveGame,
			Read:  func(path string) (registry.Table, error) { return readTable(path) },
			Auto:  auto,
			Settings: []registry.Option{
				{Key: "size", Help: "board size (3 to 5 in practice)", Min: slider.MinSize, Max: slider.MaxSize, Default: "5"},
				{Key: "blocked", Help: "blocked cells: none, or a list such as c3,d4 (one table per layout)", Default: "none"},
			},
		},
	})
}

// readTable is Read as a registry.Table (a nil *Table is not a nil
// interface).
func readTable(path string) (registry.Table, error) {
	t, err := Read(path)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// board is g as a Slider game on one layout.
func board(g env.Game) (*slider.Game, error) {
	sg, ok := slider.Of(g)
	if !ok {
		return nil, fmt.Errorf("the table solver solves Slider, not %s", g.Name())
	}
	if sg.Config().RandomBlocked {
		return nil, fmt.Errorf("--blocked random: a table covers one layout; give the cells, or none")
	}
	return sg, nil
}

// solveGame solves g's board (registry.Tables.Solve).
func solveGame(ctx context.Context, g env.Game, progress func(done, total int64)) (registry.Table, error) {
	sg, err := board(g)
	if err != nil {
		return nil, err
	}
	t, err := Solve(ctx, sg.Size(), sg.Config().Blocked, progress)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// auto is the board that measures runs of g: g's own, or the open board
// when g draws its layouts.
func auto(g env.Game) (registry.Auto, error) {
	sg, ok := slider.Of(g)
	if !ok {
		return registry.Auto{}, fmt.Errorf("the table solver solves Slider, not %s", g.Name())
	}
	n := sg.Size()
	if n > maxAutoSize {
		return registry.Auto{}, fmt.Errorf("no exact table for %dx%d boards (too many positions); measured on boards up to %dx%d", n, n, maxAutoSize, maxAutoSize)
	}
	gc := sg.Config()
	name := fmt.Sprintf("slider-%dx%d", n, n)
	var cells []slider.Cell
	if !gc.RandomBlocked {
		cells = gc.Blocked
		if len(cells) > 0 {
			name += "-" + slider.FormatCells(cells)
		}
	}
	b, err := slider.New(slider.Config{Size: n, Blocked: cells})
	if err != nil {
		return registry.Auto{}, err
	}
	return registry.Auto{Game: b, File: name, Title: fmt.Sprintf("the %dx%d board", n, n), Cost: "about two minutes on 5x5"}, nil
}
