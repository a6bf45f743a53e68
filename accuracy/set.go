package accuracy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
)

// A Set is a position set: critical positions with the exact score of
// every legal move, as a file any game with an exact solver writes and any
// player is judged on. Scores are on the solver's scale (a positive score
// a win for the side to move, 0 a draw, a negative score a loss; larger
// is better), and only their signs decide what a move keeps.
type Set struct {
	// Name is the set's name ("real-games", "random").
	Name string
	// Game is the game's Describe line, which builds it again.
	Game string
	// Scale says what the scores mean.
	Scale string
	// From says where the positions came from.
	From    string
	Entries []Entry
}

// Entry is one position of a set.
type Entry struct {
	// Position is the game's one-line form of the position.
	Position string
	// Score is the position's score: its best move's.
	Score int
	// Moves are the legal moves, in the game's notation, with their
	// scores for the side to move.
	Moves []MoveScore
}

// MoveScore is a move and its exact score.
type MoveScore struct {
	Move  string
	Score int
}

// Class is a score's class: +1 a win, 0 a draw, -1 a loss.
func Class(score int) int {
	switch {
	case score > 0:
		return 1
	case score < 0:
		return -1
	}
	return 0
}

// Keeping counts the moves that keep the position's class.
func (e Entry) Keeping() int {
	n := 0
	for _, m := range e.Moves {
		if Class(m.Score) == Class(e.Score) {
			n++
		}
	}
	return n
}

// Critical reports whether some move gives the position's class away.
func (e Entry) Critical() bool { return e.Keeping() < len(e.Moves) }

// Set files are text: a header of "# key: value" lines, then one line a
// position, tab-separated: the position, its score, and its moves as
// "move:score" separated by spaces.
const (
	setMagic = "# sliderzero position set 1"
	// MaxSetBytes bounds a set file: a set of 100,000 positions of the
	// largest boards fits.
	MaxSetBytes = 64 << 20
	// maxSetLine bounds one line of a set file.
	maxSetLine = 64 << 10
)

// Write writes the set in its file format.
func (s *Set) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, setMagic)
	for _, h := range [][2]string{{"name", s.Name}, {"game", s.Game}, {"scale", s.Scale}, {"from", s.From}} {
		fmt.Fprintf(bw, "# %s: %s\n", h[0], oneLine(h[1]))
	}
	fmt.Fprintln(bw, "# position\tscore\tmove:score ...")
	for _, e := range s.Entries {
		bw.WriteString(e.Position)
		fmt.Fprintf(bw, "\t%d\t", e.Score)
		for i, m := range e.Moves {
			if i > 0 {
				bw.WriteByte(' ')
			}
			fmt.Fprintf(bw, "%s:%d", m.Move, m.Score)
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// WriteFile writes the set to path atomically.
func (s *Set) WriteFile(path string) error {
	var buf bytes.Buffer
	if err := s.Write(&buf); err != nil {
		return err
	}
	return store.WriteAtomic(path, buf.Bytes())
}

// ReadSet reads a set in its file format. It checks the format, not the
// positions: Check does that against the game.
func ReadSet(r io.Reader) (*Set, error) {
	sc := bufio.NewScanner(io.LimitReader(r, MaxSetBytes+1))
	sc.Buffer(make([]byte, 0, 4096), maxSetLine)
	s := &Set{}
	n, read := 0, 0
	for sc.Scan() {
		n++
		line := sc.Text()
		read += len(line) + 1
		if read > MaxSetBytes {
			return nil, fmt.Errorf("a set file is at most %d MB", MaxSetBytes>>20)
		}
		if n == 1 {
			if strings.TrimSpace(line) != setMagic {
				return nil, fmt.Errorf("line 1: not a position set (want %q, found %s)", setMagic, env.Quote(line))
			}
			continue
		}
		if strings.HasPrefix(line, "#") {
			k, v, ok := strings.Cut(strings.TrimPrefix(line, "#"), ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			switch strings.TrimSpace(k) {
			case "name":
				s.Name = v
			case "game":
				s.Game = v
			case "scale":
				s.Scale = v
			case "from":
				s.From = v
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		e, err := parseEntry(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		s.Entries = append(s.Entries, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d KB", n+1, maxSetLine>>10)
		}
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("empty file: not a position set")
	}
	if s.Game == "" {
		return nil, fmt.Errorf("the set names no game (a \"# game:\" line)")
	}
	return s, nil
}

func parseEntry(line string) (Entry, error) {
	f := strings.Split(line, "\t")
	if len(f) != 3 {
		return Entry{}, fmt.Errorf("want 3 tab-separated fields (position, score, moves), found %d in %s", len(f), env.Quote(line))
	}
	e := Entry{Position: f[0]}
	var err error
	if e.Score, err = strconv.Atoi(f[1]); err != nil {
		return Entry{}, fmt.Errorf("score %s is not a whole number", env.Quote(f[1]))
	}
	best, seen := 0, map[string]bool{}
	for i, item := range strings.Fields(f[2]) {
		mv, sc, ok := strings.Cut(item, ":")
		if !ok || mv == "" {
			return Entry{}, fmt.Errorf("move %s is not move:score", env.Quote(item))
		}
		v, err := strconv.Atoi(sc)
		if err != nil {
			return Entry{}, fmt.Errorf("move %s: score %s is not a whole number", env.Quote(mv), env.Quote(sc))
		}
		if seen[mv] {
			return Entry{}, fmt.Errorf("move %s is listed twice", env.Quote(mv))
		}
		seen[mv] = true
		if i == 0 || v > best {
			best = v
		}
		e.Moves = append(e.Moves, MoveScore{mv, v})
	}
	if len(e.Moves) == 0 {
		return Entry{}, fmt.Errorf("a position without moves")
	}
	if best != e.Score {
		return Entry{}, fmt.Errorf("the position's score %d is not its best move's, %d", e.Score, best)
	}
	return e, nil
}

// ReadSetFile reads a set file, refusing one over MaxSetBytes before
// reading it.
func ReadSetFile(path string) (*Set, error) {
	data, err := store.ReadFile(path, MaxSetBytes)
	if err != nil {
		return nil, err
	}
	s, err := ReadSet(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Check checks the set against the game: every position parses, is not
// over, and its moves are exactly its legal moves.
func (s *Set) Check(g env.Game) error {
	for i, e := range s.Entries {
		st, err := g.ParseState(e.Position)
		if err != nil {
			return fmt.Errorf("position %d: %w", i+1, err)
		}
		if st.Outcome().Over {
			return fmt.Errorf("position %d %s: the game is over", i+1, env.Quote(e.Position))
		}
		legal := st.LegalActions(nil)
		if len(legal) != len(e.Moves) {
			return fmt.Errorf("position %d %s: %d moves listed, %d legal", i+1, env.Quote(e.Position), len(e.Moves), len(legal))
		}
		for _, m := range e.Moves {
			if _, err := st.ParseAction(m.Move); err != nil {
				return fmt.Errorf("position %d %s: %w", i+1, env.Quote(e.Position), err)
			}
		}
	}
	return nil
}

// Entry of a position from an exact solver's move scores, which must be
// exact.
func entryOf(s env.State, scores []env.MoveScore) (Entry, error) {
	e := Entry{Position: s.String()}
	for i, m := range scores {
		if !m.Score.Exact() {
			return Entry{}, fmt.Errorf("the solver left move %s unsettled (%v)", s.ActionString(m.Action), m.Score)
		}
		if i == 0 || m.Score.Lo > e.Score {
			e.Score = m.Score.Lo
		}
		e.Moves = append(e.Moves, MoveScore{s.ActionString(m.Action), m.Score.Lo})
	}
	return e, nil
}

// SetResult is a player's accuracy on a set.
type SetResult struct {
	Set string `json:"set"`
	All Tally  `json:"all"`
	// Won, Drawn and Lost split the positions by their class for the
	// side to move (lost positions are critical only on a scale finer
	// than the class, so a set of class-critical positions has none).
	Won   Tally `json:"won"`
	Drawn Tally `json:"drawn"`
	Lost  Tally `json:"lost"`
	// Single are the positions where only one move keeps the class.
	Single Tally `json:"single"`
	// Misses are the positions where the player's move gave the class
	// away, in the set's order.
	Misses []Miss `json:"-"`
}

// Miss is a position where a player's move gave its class away.
type Miss struct {
	Entry
	// Played is the move the player chose, PlayedScore its exact score.
	Played      string
	PlayedScore int
}

// MeasureSet plays the player's move on each position of the set and
// counts those where the move keeps the position's class.
func MeasureSet(ctx context.Context, g env.Game, set *Set, newPlayer Factory, o Options) (SetResult, error) {
	entries := set.Entries
	if o.Limit > 0 && o.Limit < len(entries) {
		entries = entries[:o.Limit]
	}
	played := make([]MoveScore, len(entries))
	err := forEach(ctx, len(entries), o.Parallel, o.Progress, func(i int) error {
		m, err := judgeEntry(ctx, g, entries[i], newPlayer, o.Seed^uint64(i)*0x9e3779b97f4a7c15)
		played[i] = m
		return err
	})
	if err != nil {
		return SetResult{}, err
	}
	r := SetResult{Set: set.Name}
	for i, e := range entries {
		k := 0
		if Class(played[i].Score) == Class(e.Score) {
			k = 1
		} else {
			r.Misses = append(r.Misses, Miss{Entry: e, Played: played[i].Move, PlayedScore: played[i].Score})
		}
		add := func(t *Tally) { t.Kept += k; t.Total++ }
		add(&r.All)
		switch Class(e.Score) {
		case 1:
			add(&r.Won)
		case 0:
			add(&r.Drawn)
		default:
			add(&r.Lost)
		}
		if e.Keeping() == 1 {
			add(&r.Single)
		}
	}
	return r, nil
}

// judgeEntry is the move the player makes in the entry's position, with
// its exact score.
func judgeEntry(ctx context.Context, g env.Game, e Entry, newPlayer Factory, seed uint64) (MoveScore, error) {
	s, err := g.ParseState(e.Position)
	if err != nil {
		return MoveScore{}, fmt.Errorf("position %s: %w", env.Quote(e.Position), err)
	}
	p, err := newPlayer(seed)
	if err != nil {
		return MoveScore{}, err
	}
	a, err := p.Move(ctx, s)
	if err != nil {
		return MoveScore{}, fmt.Errorf("%s on %s: %w", p, e.Position, err)
	}
	if !env.IsLegal(s, a) {
		return MoveScore{}, fmt.Errorf("%s chose action %d, not legal in %s", p, a, e.Position)
	}
	mv := s.ActionString(a)
	for _, m := range e.Moves {
		if m.Move == mv {
			return m, nil
		}
	}
	return MoveScore{}, fmt.Errorf("the set lists no move %s for %s", mv, env.Quote(e.Position))
}

// ConvertSet plays out the set's won positions (at most Limit): the
// player, to move, against the opponent, under the game's rules and ply
// cap. A win converts; a tie or a loss does not.
func ConvertSet(ctx context.Context, g env.Game, set *Set, newPlayer, newOpponent Factory, o Options) (Tally, error) {
	var won []env.State
	for _, e := range set.Entries {
		if Class(e.Score) <= 0 {
			continue
		}
		s, err := g.ParseState(e.Position)
		if err != nil {
			return Tally{}, fmt.Errorf("position %s: %w", env.Quote(e.Position), err)
		}
		won = append(won, s)
		if o.Limit > 0 && len(won) == o.Limit {
			break
		}
	}
	wins := make([]bool, len(won))
	err := forEach(ctx, len(won), o.Parallel, o.Progress, func(i int) error {
		var err error
		wins[i], err = playOut(ctx, won[i], newPlayer, newOpponent, o.Seed^uint64(i)*0x9e3779b97f4a7c15)
		return err
	})
	if err != nil {
		return Tally{}, err
	}
	var t Tally
	for _, w := range wins {
		t.Total++
		if w {
			t.Kept++
		}
	}
	return t, nil
}

// Sources of a set's positions.
const (
	// FromGames: positions of games between players (each ordered pair,
	// each player against itself included).
	FromGames = "selfplay"
	// FromRandom: positions of random playouts, one drawn from each.
	FromRandom = "random"
)

// BuildSetOptions say how to build a set.
type BuildSetOptions struct {
	Name string
	// From is FromGames or FromRandom.
	From string
	// Players play the games of FromGames (default Baselines).
	Players []string
	// Kinds adds player kinds to those package player builds.
	Kinds map[string]player.Kind
	// GamesPerPair is the number of games each ordered pair plays.
	GamesPerPair int
	// Count is the number of critical positions wanted.
	Count int
	// MinPly skips positions with fewer plies (early positions can take
	// a solver minutes).
	MinPly int
	// Time bounds the solver on one position; a position it does not
	// settle in time, or within a budget NewSolver's solvers were given
	// (env.ErrBudget), is skipped (and counted).
	Time     time.Duration
	Seed     uint64
	Parallel int
	// NewSolver makes one exact solver per worker.
	NewSolver func() env.ExactSolver
	// Limit says in words what limits the solver, for the file's header.
	Limit string
	Scale string
	// Progress hears of the critical positions found, after each batch
	// of candidates.
	Progress func(done, total int)
}

// BuildStats say what building a set met.
type BuildStats struct {
	// Candidates were solved; Skipped of them took longer than Time;
	// Critical of the rest had a move that gives the class away.
	Candidates, Skipped, Critical int
}

// BuildSet draws candidate positions, solves each exactly, and keeps a
// seeded random sample of Count distinct critical ones.
func BuildSet(ctx context.Context, g env.Game, o BuildSetOptions) (*Set, BuildStats, error) {
	var st BuildStats
	if o.Count < 1 || o.NewSolver == nil {
		return nil, st, fmt.Errorf("a set needs a count of at least 1 and a solver")
	}
	var cands []string
	var from string
	var err error
	switch o.From {
	case FromGames:
		players := o.Players
		if len(players) == 0 {
			players = Baselines
		}
		cands, err = gamePositions(ctx, g, players, o)
		from = fmt.Sprintf("%d games a pair between %s, both orders and each against itself; positions from ply %d", max(1, o.GamesPerPair), strings.Join(players, ", "), o.MinPly)
	case FromRandom:
		cands = playoutPositions(g, o)
		from = fmt.Sprintf("one position of each random playout, from ply %d", o.MinPly)
	default:
		return nil, st, fmt.Errorf("unknown source %s: want %s or %s", env.Quote(o.From), FromGames, FromRandom)
	}
	if err != nil {
		return nil, st, err
	}
	// Solve in a seeded random order until Count critical positions are
	// found, a worker's batch at a time.
	rng := rand.New(rand.NewPCG(o.Seed, 0x5e7))
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	workers := max(1, o.Parallel)
	solvers := make(chan env.ExactSolver, workers)
	for i := 0; i < workers; i++ {
		solvers <- o.NewSolver()
	}
	type result struct {
		e       Entry
		skipped bool
	}
	var kept []Entry
	for lo := 0; lo < len(cands) && len(kept) < o.Count; {
		hi := min(len(cands), lo+max(4*workers, (o.Count-len(kept))*2))
		batch := cands[lo:hi]
		res := make([]result, len(batch))
		var mu sync.Mutex
		err := forEach(ctx, len(batch), workers, nil, func(i int) error {
			s, err := g.ParseState(batch[i])
			if err != nil {
				return err
			}
			x := <-solvers
			defer func() { solvers <- x }()
			if r, ok := x.(resetter); ok {
				// each candidate from an empty table: what the budget
				// settles then does not depend on which worker solved
				// what before
				r.Reset()
			}
			sctx, cancel := ctx, context.CancelFunc(func() {})
			if o.Time > 0 {
				sctx, cancel = context.WithTimeout(ctx, o.Time)
			}
			scores, err := scoreAll(sctx, x, s)
			cancel()
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, env.ErrBudget) {
					res[i].skipped = true
					return nil
				}
				return err
			}
			res[i].e, err = entryOf(s, scores)
			mu.Lock()
			st.Candidates++
			mu.Unlock()
			return err
		})
		if err != nil {
			return nil, st, err
		}
		for _, r := range res {
			switch {
			case r.skipped:
				st.Skipped++
			case r.e.Critical():
				st.Critical++
				if len(kept) < o.Count {
					kept = append(kept, r.e)
				}
			}
		}
		if o.Progress != nil {
			o.Progress(len(kept), o.Count)
		}
		lo = hi
	}
	from += fmt.Sprintf("; %d candidates solved, %d of them critical; %d skipped (not solved within %s)", st.Candidates, st.Critical, st.Skipped, o.Limit)
	return &Set{Name: o.Name, Game: g.Describe(), Scale: o.Scale, From: from, Entries: kept}, st, nil
}

// resetter is a solver that can forget what it learnt.
type resetter interface{ Reset() }

// scoreAll scores every legal move of s, stopping at the first that the
// solver does not settle: that position is left out anyway, and each
// further move would spend the solver's whole budget again.
func scoreAll(ctx context.Context, x env.ExactSolver, s env.State) ([]env.MoveScore, error) {
	var out []env.MoveScore
	for _, a := range s.LegalActions(nil) {
		b, err := x.ScoreMove(ctx, s, a, false)
		if err != nil {
			return nil, err
		}
		out = append(out, env.MoveScore{Action: a, Score: b})
	}
	return out, nil
}

// gamePositions plays the players' games and returns their distinct
// positions past MinPly, sorted.
func gamePositions(ctx context.Context, g env.Game, players []string, o BuildSetOptions) ([]string, error) {
	type job struct {
		a, b string
		seed uint64
	}
	var jobs []job
	for i, a := range players {
		for j, b := range players {
			for k := 0; k < max(1, o.GamesPerPair); k++ {
				jobs = append(jobs, job{a, b, o.Seed ^ uint64(i*1000+j*10+k)<<12})
			}
		}
	}
	seen := make([]map[string]bool, len(jobs))
	err := forEach(ctx, len(jobs), o.Parallel, nil, func(i int) error {
		jb := jobs[i]
		start := g.Start(rand.New(rand.NewPCG(jb.seed, 0x57a)))
		positions := map[string]bool{}
		var ps [2]player.Player
		for side, spec := range []string{jb.a, jb.b} {
			p, err := player.New(spec, g, player.Options{Seed: jb.seed + uint64(side), Kinds: o.Kinds})
			if err != nil {
				return err
			}
			ps[side] = p
		}
		keep := func(s env.State) {
			if !s.Outcome().Over && s.Ply() >= o.MinPly {
				positions[s.String()] = true
			}
		}
		keep(start)
		_, err := match.Play(ctx, start, ps, match.Options{OnMove: func(s env.State, _ env.Side, _ string) { keep(s) }})
		seen[i] = positions
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("playing the games: %w", err)
	}
	all := map[string]bool{}
	for _, m := range seen {
		for p := range m {
			all[p] = true
		}
	}
	out := make([]string, 0, len(all))
	for p := range all {
		out = append(out, p)
	}
	sort.Strings(out) // map order is random; the sample must not be
	return out, nil
}

// playoutPositions plays random games and keeps one position of each,
// drawn uniformly among its positions past MinPly that are not over.
func playoutPositions(g env.Game, o BuildSetOptions) []string {
	rng := rand.New(rand.NewPCG(o.Seed, 0x4a4d))
	seen := map[string]bool{}
	var out []string
	want := 20 * o.Count
	var moves []int
	for tries := 0; len(out) < want && tries < 50*want; tries++ {
		s := g.Start(rng)
		var line []string
		for !s.Outcome().Over {
			if s.Ply() >= o.MinPly {
				line = append(line, s.String())
			}
			moves = s.LegalActions(moves[:0])
			s.Apply(moves[rng.IntN(len(moves))])
		}
		if len(line) == 0 {
			continue
		}
		p := line[rng.IntN(len(line))]
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
