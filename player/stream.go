package player

import (
	"context"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
)

// Progress is a search's view of a position while it runs: what the web
// analysis and the engine's streamed analyze show.
type Progress struct {
	Value  float32 // for the side to move
	Proof  string  // what the search proved of the position ("win in 5")
	Visits int
	// Plies is the search's expected plies to the end, 0 or less when the
	// network does not estimate them.
	Plies float32
	NPS   float64 // simulations a second so far
	Lines []Candidate
	Done  bool
	// Deepening, from an alpha-beta search, replaces the visits and
	// shares: its one line is the best move.
	Deepening *Deepening
}

// Streamer is a player that shows its search while it runs: the engine's
// analyze TOP INTERVAL and the web app's analysis. Stream searches s,
// calling emit with the search's view every o.Every and once at the end
// (Done); it stops when the budget is spent (none with o.Until), ctx
// ends, or emit returns false.
type Streamer interface {
	Stream(ctx context.Context, s env.State, o StreamOptions, emit func(Progress) bool) error
}

// Deepening is an iterative-deepening search's view: its last finished
// depth, the nodes searched so far, the score in the game's evaluation
// units (Won reads proven results from it) and the principal variation.
type Deepening struct {
	Depth, Nodes int
	Score        float64
	PV           []string
}

// StreamOptions bound a streamed analysis.
type StreamOptions struct {
	// Sims is the budget of a network player's search; 0 for the
	// player's own.
	Sims int
	// Until searches until ctx ends (or the tree is full), whatever the
	// budget: the infinite analysis of engine GUIs.
	Until bool
	Every time.Duration // between updates (the first comes after 64 simulations)
	Top   int           // moves shown
	Depth int           // plies of each principal variation
	Seed  uint64
	// Threads searches with that many threads when the player's spec
	// does not say (threads=N); 0 or 1 for one.
	Threads int
}

// stream is Stream with the network built: a Net player streams with its
// own, which it packed for inference once.
func stream(ctx context.Context, net *model.Net, search mcts.Params, s env.State, o StreamOptions, emit func(Progress) bool) error {
	g := s.Game()
	if o.Sims > 0 {
		search.Sims = o.Sims
	}
	if search.Sims <= 0 || o.Until {
		search.Sims = mcts.MaxSims
	}
	// The player's time budget (an engine's movetime) bounds the stream
	// as its simulations do; the stream, not the tree, keeps the clock.
	budget := search.Time
	if o.Until {
		budget = 0
	}
	search.Time = 0
	if search.Threads == 0 && !search.Gumbel {
		search.Threads = o.Threads
	}
	tree, err := mcts.NewTree(search, rand.New(rand.NewPCG(o.Seed, 0xa1)))
	if err != nil {
		return err
	}
	tree.Reset(s)
	pi := make([]float32, g.ActionSize())
	t0 := time.Now()
	view := func(done bool) Progress {
		tree.Policy(pi)
		v := tree.Verdict()
		p := Progress{Value: tree.Value(), Proof: mcts.Describe(v.Proof, v.ProofPlies), Visits: tree.Sims(), Plies: v.Plies, Done: done}
		p.NPS = float64(p.Visits) / max(time.Since(t0).Seconds(), 1e-9)
		lines := map[int]mcts.Line{}
		for _, l := range tree.Lines(g.ActionSize(), o.Depth) {
			lines[l.Action] = l
		}
		for _, a := range s.LegalActions(nil) {
			proof := mcts.Describe(tree.ChildProof(a))
			if pi[a] <= 0 && proof == "" {
				continue
			}
			c := Candidate{Move: s.ActionString(a), Action: a, Share: float64(pi[a]), Proof: proof}
			if l, ok := lines[a]; ok {
				c.Visits, c.Value, c.Plies = l.Visits, l.Value, l.Plies
				c.PV = env.MoveNames(s, l.PV)
			}
			p.Lines = append(p.Lines, c)
		}
		sort.SliceStable(p.Lines, func(i, j int) bool { return p.Lines[i].Share > p.Lines[j].Share })
		if len(p.Lines) > o.Top {
			p.Lines = p.Lines[:o.Top]
		}
		return p
	}
	last, early, stopped := time.Now(), true, false
	// Drive calls this between simulations, under the tree's lock when
	// several threads search, so the view is consistent.
	more := func() bool {
		now := time.Now() // one clock read a simulation serves both tests
		if budget > 0 && now.Sub(t0) >= budget {
			return false // spent: the last view follows, done
		}
		if (early && tree.Sims() >= 64) || now.Sub(last) > o.Every {
			if !emit(view(false)) {
				stopped = true
				return false
			}
			last, early = time.Now(), false
		}
		return true
	}
	mcts.Drive(ctx, tree, forwards(net, search.Threads), more)
	if stopped {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	emit(view(true))
	return nil
}

// Stream is the trained player's streamed analysis (TrainedPlayer.Stream)
// with its own network and search settings.
func (p *Net) Stream(ctx context.Context, s env.State, o StreamOptions, emit func(Progress) bool) error {
	s, err := p.seen(s)
	if err != nil {
		return err
	}
	if err := p.net.Arch().CheckGame(s.Game()); err != nil {
		return err
	}
	return stream(ctx, p.net, p.tree.Params(), s, o, emit)
}
