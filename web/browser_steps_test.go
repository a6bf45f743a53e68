// The browser test's steps: a game played by clicks, the analysis board.

package web

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sliderzero/sliderzero/env/games"
)

// playByClicks plays a whole game of a registered game against random by
// clicking, as the first side: a piece and its target, a drop's cell or
// column, or a button; after every move the page's board must be the
// game's own position.
func playByClicks(t *testing.T, ctx context.Context, name, size, dir string) {
	t.Helper()
	setup := fmt.Sprintf(`document.getElementById("game").value = %q; fillSides(); true`, name)
	actions := []chromedp.Action{chromedp.Evaluate(setup, nil)}
	if size != "" {
		actions = append(actions, chromedp.SetValue("#setting-size", size, chromedp.ByID))
	}
	actions = append(actions,
		chromedp.SetValue("#agent", "random", chromedp.ByID),
		chromedp.Click("#new", chromedp.ByID),
		chromedp.Poll(fmt.Sprintf(`play.view && play.view.game === %q && play.req.start !== "" && play.view.start === play.req.start && play.view.moves.length === 0 && !play.busy`, name), nil))
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatalf("%s: a new game: %v", name, err)
	}
	var you string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById("you").value`, &you)); err != nil {
		t.Fatal(err)
	}
	cellSel := func(c *cell) string { return fmt.Sprintf(`#board .cell[data-x="%d"][data-y="%d"]`, c[0], c[1]) }
	for turn := 0; turn < 300; turn++ {
		ps := readPage(t, ctx)
		// The page's board is the game's own position after its moves.
		g, err := games.New(ps.Req.Game)
		if err != nil {
			t.Fatal(err)
		}
		s, err := g.ParseState(ps.Req.Start)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ps.Req.Moves {
			a, err := s.ParseAction(m)
			if err != nil {
				t.Fatalf("%s: the page played %v, and %s is not legal: %v", name, ps.Req.Moves, m, err)
			}
			s.Apply(a)
		}
		want := strings.TrimSpace(s.Board())
		if got := boardTokens(t, ctx, "#board"); got != want {
			t.Fatalf("%s: after %v the page shows\n%s\nbut the position is\n%s", name, ps.Req.Moves, got, want)
		}
		if ps.View.Over {
			return
		}
		if turn == 1 {
			shot(t, ctx, dir, "play-"+name+".png")
		}
		// Our move, the way a person makes it.
		mv := ps.View.Legal[turn%len(ps.View.Legal)]
		before := len(ps.Req.Moves)
		switch {
		case mv.From != nil:
			err = chromedp.Run(ctx, chromedp.Click(cellSel(mv.From), chromedp.ByQuery), chromedp.Click(cellSel(mv.To), chromedp.ByQuery))
		case mv.Column:
			top := cell{mv.To[0], ps.View.Rows - 1}
			err = chromedp.Run(ctx, chromedp.Click(cellSel(&top), chromedp.ByQuery))
		case mv.To != nil:
			err = chromedp.Run(ctx, chromedp.Click(cellSel(mv.To), chromedp.ByQuery))
		default:
			js := fmt.Sprintf(`[...document.querySelectorAll("#pass-area button")].find(b => b.textContent === %q || b.textContent === %q + " (forced)").click(); true`, mv.Button, mv.Button)
			err = chromedp.Run(ctx, chromedp.Evaluate(js, nil))
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The page plays it, then the agent answers (unless the game ended).
		if err := chromedp.Run(ctx, chromedp.Poll(fmt.Sprintf(`play.req.moves.length >= %d && !play.busy && play.view.moves.length === play.req.moves.length && (play.view.over || play.view.to_move === %q)`, before+1, you), nil)); err != nil {
			t.Fatalf("%s: after clicking %s: %v", name, mv.Move, err)
		}
		if got := readPage(t, ctx).Req.Moves; len(got) <= before || got[before] != mv.Move {
			t.Fatalf("%s: clicking %s played %v", name, mv.Move, got[before:])
		}
	}
	t.Errorf("%s: the game did not end in 300 turns", name)
}

// analysisBoard exercises the play board's study tools by clicks: agents
// listed for the chosen game and size only, the choice of first mover, the
// last move's mark, the value bar and graph, the clickable move list,
// export and set-up of a position.
func analysisBoard(t *testing.T, ctx context.Context, f *fixture, dir string) {
	t.Helper()
	var agents []string
	list := `[...document.getElementById("agent").options].map(o => o.value)`
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`document.getElementById("game").value = "catsdogs"; fillSides(); true`, nil),
		chromedp.Evaluate(list, &agents)); err != nil {
		t.Fatal(err)
	}
	for _, a := range agents {
		if strings.HasPrefix(a, "player:") {
			t.Errorf("Cats & Dogs lists the Slider player %s", a)
		}
	}
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`document.getElementById("game").value = "slider"; fillSides(); true`, nil),
		chromedp.SetValue("#setting-size", "4", chromedp.ByID),
		chromedp.Evaluate(`fillAgents(); true`, nil),
		chromedp.Evaluate(list, &agents)); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(agents, "player:"+f.player) || slices.Contains(agents, "player:slider-5x5.player") {
		t.Errorf("Slider 4x4 lists %v: want its 4x4 player and not the 5x5 one", agents)
	}
	// V first, played by the trained agent: it moves at once; its move is
	// marked and its value drawn.
	err := chromedp.Run(ctx,
		chromedp.SetValue("#agent", "player:"+f.player, chromedp.ByID),
		chromedp.SetValue("#setting-first", "V", chromedp.ByID),
		chromedp.SetValue("#you", "H", chromedp.ByID),
		chromedp.Click("#new", chromedp.ByID),
		chromedp.Poll(`play.view && play.req.game.first === "V" && play.view.moves.length === 1 && !play.busy`, nil),
		chromedp.Poll(`document.querySelectorAll("#board .cell.last").length === 2 && document.getElementById("value-bar").dataset.value !== "" && Number(document.getElementById("value-graph").dataset.points) >= 1`, nil))
	if err != nil {
		t.Fatalf("V first, the last move's mark and the value: %v", err)
	}
	// Two more plies, then a click on the first move of the list goes
	// back to it.
	ps := readPage(t, ctx)
	mv := ps.View.Legal[0]
	cellSel := func(c *cell) string { return fmt.Sprintf(`#board .cell[data-x="%d"][data-y="%d"]`, c[0], c[1]) }
	err = chromedp.Run(ctx,
		chromedp.Click(cellSel(mv.From), chromedp.ByQuery), chromedp.Click(cellSel(mv.To), chromedp.ByQuery),
		chromedp.Poll(`play.view.moves.length === 3 && !play.busy`, nil),
		chromedp.Click(`#history .histmove[data-ply="1"]`, chromedp.ByQuery),
		chromedp.Poll(`play.view.moves.length === 1 && play.req.moves.length === 1`, nil))
	if err != nil {
		t.Fatalf("the move list: %v", err)
	}
	// The line left is kept as a variation, written after the last move in
	// parentheses; a click on its last move goes back to the whole line.
	err = chromedp.Run(ctx,
		chromedp.Poll(`document.querySelectorAll("#history .variation").length === 1`, nil),
		chromedp.Click(`#history .variation .histmove[data-vply="3"]`, chromedp.ByQuery),
		chromedp.Poll(`play.view.moves.length === 3 && document.querySelectorAll("#history .variation").length === 0`, nil))
	if err != nil {
		t.Fatalf("variations: %v", err)
	}
	// Lines in lines: back to move 1, another second move (the agent
	// answers); then into the first line at its move 2 and another third
	// move there. Going back to the second line, the first and third
	// lines share two moves, so one is written inside the other.
	line1 := readPage(t, ctx).Req.Moves
	other := func(not string) *moveView {
		for _, m := range readPage(t, ctx).View.Legal {
			if m.Move != not && m.From != nil && m.To != nil {
				return &m
			}
		}
		t.Fatalf("no other move than %s", not)
		return nil
	}
	playOther := func(not string, plies int) {
		t.Helper()
		m := other(not)
		if err := chromedp.Run(ctx,
			chromedp.Click(cellSel(m.From), chromedp.ByQuery), chromedp.Click(cellSel(m.To), chromedp.ByQuery),
			chromedp.Poll(fmt.Sprintf(`play.view.moves.length === %d && !play.busy`, plies), nil)); err != nil {
			ps := readPage(t, ctx)
			var status string
			chromedp.Run(ctx, chromedp.Text("#status", &status, chromedp.ByID))
			t.Fatalf("playing %s (from %v to %v) at %v, %q: %v", m.Move, *m.From, *m.To, ps.Req.Moves, status, err)
		}
	}
	if err := chromedp.Run(ctx, chromedp.Click(`#history .histmove[data-ply="1"]`, chromedp.ByQuery),
		chromedp.Poll(`play.view.moves.length === 1`, nil)); err != nil {
		t.Fatal(err)
	}
	playOther(line1[1], 3) // line 2: m1 x2 r3
	line2 := readPage(t, ctx).Req.Moves
	if err := chromedp.Run(ctx,
		chromedp.Click(`#history .variation .histmove[data-vply="2"]`, chromedp.ByQuery),
		chromedp.Poll(`play.view.moves.length === 2`, nil)); err != nil {
		t.Fatal(err)
	}
	playOther(line1[2], 3) // line 3: m1 m2 y3, played for the agent in study
	var nested int
	if err := chromedp.Run(ctx,
		chromedp.Click(`#history .variation .histmove[data-vply="3"]`, chromedp.ByQuery),
		chromedp.Poll(fmt.Sprintf(`play.view.moves.join(" ") === %q`, strings.Join(line2, " ")), nil),
		chromedp.Evaluate(`document.querySelectorAll("#history .variation .variation").length`, &nested)); err != nil {
		t.Fatalf("lines in lines: %v", err)
	}
	if nested != 1 {
		var html string
		chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById("history").innerHTML`, &html))
		t.Fatalf("want one line inside another, got %d: %s", nested, html)
	}
	shot(t, ctx, dir, "analysis-board.png")
	// Export gives the position line with its moves; set up reads it back.
	var exported string
	err = chromedp.Run(ctx,
		chromedp.Click("#export", chromedp.ByID),
		chromedp.Value("#export-text", &exported, chromedp.ByID))
	if err != nil || !strings.HasSuffix(strings.SplitN(exported, ";", 2)[0], " moves "+strings.Join(line2, " ")) || strings.Count(exported, "; moves ") != 2 {
		t.Fatalf("export of the whole tree (the current line, then the two others): %v %q", err, exported)
	}
	// Set-up reads the whole tree back: the same line, the same lines in it.
	err = chromedp.Run(ctx,
		chromedp.Click("#new", chromedp.ByID),
		chromedp.Poll(`play.view.moves.length === 0`, nil),
		chromedp.SetValue("#setup", exported, chromedp.ByID),
		chromedp.Click("#setup-go", chromedp.ByID),
		chromedp.Poll(fmt.Sprintf(`play.view.moves.join(" ") === %q && document.querySelectorAll("#history .variation .variation").length === 1`, strings.Join(line2, " ")), nil, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		var html string
		chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById("history").innerHTML`, &html))
		t.Fatalf("the exported tree set up again: %v\n%s", err, html)
	}
	// The address holds the tree: the page loaded again from it shows the
	// same line, with the same lines in it.
	var href string
	err = chromedp.Run(ctx, chromedp.Location(&href))
	if err == nil {
		err = chromedp.Run(ctx, chromedp.Navigate(strings.Replace(href, "/#", "/?tree#", 1)), chromedp.Poll(`window.szReady === true`, nil),
			chromedp.Poll(fmt.Sprintf(`play.view && play.view.moves.join(" ") === %q && document.querySelectorAll("#history .variation .variation").length === 1`, strings.Join(line2, " ")), nil, chromedp.WithPollingTimeout(10*time.Second)))
	}
	if err != nil {
		var html string
		chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById("history").innerHTML`, &html))
		t.Fatalf("the tree's address %q loaded again: %v\n%s", href, err, html)
	}
	err = chromedp.Run(ctx,
		chromedp.SetValue("#setup", "H+++/H+++/H+++/+VVV H moves a2R c1U", chromedp.ByID),
		chromedp.Click("#setup-go", chromedp.ByID),
		chromedp.Poll(`play.view.moves.length === 2 && play.view.position === "H+++/H+++/+HV+/+V+V H"`, nil, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		var pos string
		chromedp.Run(ctx, chromedp.Evaluate(`play.view ? play.view.position + " " + play.view.moves.length : "none"`, &pos))
		t.Fatalf("set up: %v (%s)", err, pos)
	}
}
