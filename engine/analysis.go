// Analysis: analyze, streamed (analyze TOP INTERVAL [infinite]) or not,
// through the player's Analyzer and Streamer.

package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
)

// streamAnalyze is analyze TOP INTERVAL: the answer's first line is "=ID",
// then an info line every INTERVAL seconds (and one early), until the
// budget is spent or the next command arrives, which stops the search and
// is then carried out (stop does nothing more); the last info line ends
// with "done", and an empty line ends the answer. Players that implement
// player.Streamer stream; with "infinite" they search until the next
// line, whatever their budget. It returns the line that stopped it, if one
// did.
func (e *Engine) streamAnalyze(ctx context.Context, id string, args []string, w *bufio.Writer, lines <-chan input) (*input, error) {
	top, err := strconv.Atoi(args[0])
	if err != nil || top < 1 || top > 1000 {
		return nil, fmt.Errorf("analyze %q: want the number of moves to show, 1 to 1000", args[0])
	}
	every, err := seconds("interval", args[1], time.Hour)
	if err != nil || every <= 0 {
		return nil, fmt.Errorf("analyze TOP INTERVAL: interval %q: want seconds, more than 0", args[1])
	}
	infinite := len(args) == 3
	if infinite && args[2] != "infinite" {
		return nil, fmt.Errorf("analyze TOP INTERVAL [infinite]: %s: want infinite or nothing", env.Quote(args[2]))
	}
	st, ok := e.player.(player.Streamer)
	if !ok {
		return nil, fmt.Errorf("player %s does not stream analyses (net:, player:, mcts and alphabeta players do)", e.player)
	}
	if e.over() {
		return nil, fmt.Errorf("the game is over")
	}
	fmt.Fprintf(w, "=%s\n", id)
	w.Flush()
	s := e.searchState(e.repetition)
	var serr error
	search, cancel := context.WithCancel(ctx)
	if !infinite {
		search, cancel = e.moveContext(ctx, e.state.ToMove())
	}
	defer cancel()
	stopped := untilNextLine(search, lines, func(ctx context.Context) {
		o := player.StreamOptions{Until: infinite, Every: every, Top: top, Depth: 10, Seed: e.seed, Threads: e.setup.Threads()}
		serr = st.Stream(ctx, s, o, func(p player.Progress) bool {
			fmt.Fprintln(w, infoLine(p))
			return w.Flush() == nil
		})
	})
	if serr != nil && !errors.Is(serr, context.Canceled) && !errors.Is(serr, context.DeadlineExceeded) {
		fmt.Fprintf(w, "info error %s\n", oneLine(serr.Error()))
	}
	if serr != nil {
		// Stopped before the end: the last view, marked done.
		fmt.Fprintln(w, "info stopped done")
	}
	fmt.Fprintln(w)
	return stopped, nil
}

// untilNextLine runs search until ctx ends or the next line of input
// arrives, which stops it, and returns that line (nil if the search ended
// first) for the command loop to carry out.
func untilNextLine(ctx context.Context, lines <-chan input, search func(ctx context.Context)) *input {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var stopped *input
	watch := make(chan struct{})
	go func() {
		defer close(watch)
		select {
		case l := <-lines:
			stopped = &l
			cancel()
		case <-ctx.Done():
		}
	}()
	search(ctx)
	cancel()
	<-watch
	return stopped
}

// abInfo is an alpha-beta search's info line.
func abInfo(d *player.Deepening, nps float64, done bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d nodes %d nps %.0f", d.Depth, d.Nodes, nps)
	switch won, lost, plies := player.Won(d.Score); {
	case won:
		fmt.Fprintf(&b, " proof win_in_%d", plies)
	case lost:
		fmt.Fprintf(&b, " proof loss_in_%d", plies)
	default:
		fmt.Fprintf(&b, " score %.4g", d.Score)
	}
	if len(d.PV) > 0 {
		fmt.Fprintf(&b, " pv %s", strings.Join(d.PV, " "))
	}
	if done {
		b.WriteString(" done")
	}
	return b.String()
}

// infoLine writes a search's view on one line: the position's visits,
// speed and value (and proof), then each candidate, "move M share S
// visits N value V [proof P] pv M M ...", as lz-analyze puts them.
func infoLine(p player.Progress) string {
	if p.Deepening != nil {
		return abInfo(p.Deepening, p.NPS, p.Done)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "info visits %d nps %.0f value %.4f", p.Visits, p.NPS, p.Value)
	if p.Plies > 0 {
		fmt.Fprintf(&b, " plies %.1f", p.Plies)
	}
	if p.Proof != "" {
		fmt.Fprintf(&b, " proof %s", strings.ReplaceAll(p.Proof, " ", "_"))
	}
	for _, c := range p.Lines {
		fmt.Fprintf(&b, " move %s share %.4f visits %d value %.4f", c.Move, c.Share, c.Visits, c.Value)
		if c.Plies > 0 {
			fmt.Fprintf(&b, " plies %.1f", c.Plies)
		}
		if c.Proof != "" {
			fmt.Fprintf(&b, " proof %s", strings.ReplaceAll(c.Proof, " ", "_"))
		}
		if len(c.PV) > 0 {
			fmt.Fprintf(&b, " pv %s", strings.Join(c.PV, " "))
		}
	}
	if p.Done {
		b.WriteString(" done")
	}
	return b.String()
}

// analyze searches the position without playing and answers the value for
// the side to move and the best moves with their share of the search, one
// a line: "value V", then "MOVE SHARE".
func (e *Engine) analyze(args []string) (string, error) {
	top := 5
	if len(args) > 2 {
		return "", fmt.Errorf("usage: analyze [TOP [INTERVAL]]")
	}
	if len(args) == 1 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 || n > 1000 {
			return "", fmt.Errorf("analyze %q: want the number of moves to show, 1 to 1000", args[0])
		}
		top = n
	}
	if e.over() {
		return "", fmt.Errorf("the game is over")
	}
	an, ok := e.player.(player.Analyzer)
	if !ok {
		return "", fmt.Errorf("player %s does not analyse positions (net:, player: and alphabeta players do)", e.player)
	}
	ctx, cancel := e.moveContext(e.ctx, e.state.ToMove())
	defer cancel()
	s := e.searchState(e.repetition)
	res, err := an.Analyze(ctx, s, top)
	if err != nil {
		return "", err
	}
	if d := res.Deepening; d != nil {
		// An alpha-beta search: its depth line, then its move.
		info := abInfo(d, float64(d.Nodes)/max(res.Took.Seconds(), 1e-9), false)
		return strings.TrimPrefix(info, "info ") + "\n" + res.Best[0].Move + " 1.0000", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "value %.4f", res.Value)
	if res.Proof != "" {
		fmt.Fprintf(&b, " %s", res.Proof)
	}
	for _, c := range res.Best {
		fmt.Fprintf(&b, "\n%s %.4f", c.Move, c.Share)
		if c.Proof != "" {
			fmt.Fprintf(&b, " %s", c.Proof)
		}
	}
	return b.String(), nil
}
