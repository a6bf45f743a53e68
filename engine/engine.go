// Package engine speaks the project's line protocol (docs/protocol.md,
// modelled on GTP) so that other programs can drive any player, in any of
// the project's games.
package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/player"
)

// ProtocolVersion is the version of docs/protocol.md implemented here.
const ProtocolVersion = "2"

// Limits on what a command may ask for, so that no request can make the
// engine run for ever or exhaust memory.
const (
	MaxLine     = 64 << 10 // bytes in a command line
	MaxVisits   = 10_000_000
	MaxMoveTime = time.Hour
	MaxGameTime = 24 * time.Hour
)

// noCap is the ply cap of the engine's games when none is configured: the
// referee decides when a game ends (the course's referee had no cap), and
// the engine answers genmove for as long as it is asked.
const noCap = games.NoCap

// Config starts an engine.
type Config struct {
	Name    string
	Version string
	// Game is the first game. Its ply cap, when 0, means no cap.
	Game   games.Spec
	Player player.Spec // the player that answers genmove
	Seed   uint64
	// Kinds are player kinds added to package player's (see
	// player.Options.Kinds).
	Kinds map[string]player.Kind
	// Threads is how many threads a network player searches with unless
	// its spec says (player.Options.Threads); "set threads N" changes it.
	Threads int
}

// Engine holds one game and the player that moves in it.
type Engine struct {
	cfg   Config
	spec  games.Spec // the current game's
	game  env.Game
	state env.State
	undo  []env.State // the positions before each move of the game
	// counted says of each move whether its position was counted for the
	// repetition rule (env.CountsMove).
	counted []bool
	seen    map[uint64]int // how often each position of the game occurred
	repTie  bool           // the game ended by the repetition rule
	pspec   player.Spec
	seed    uint64
	rng     *rand.Rand // draws random layouts
	player  player.Player
	// repetition, when positive, ends a game in a tie when a position
	// occurs more than this many times, and the player's search knows it.
	repetition int
	threads    int // see Config.Threads
	// gameTime, when positive, is each side's time for the whole game;
	// left is what each side has left.
	gameTime time.Duration
	left     [2]time.Duration
	byoyomi  time.Duration // added to each move's budget (time_settings)
	ctx      context.Context
}

// New returns an engine at the start position of cfg.Game. It fails if the
// game or the player spec cannot be built.
func New(cfg Config) (*Engine, error) {
	e := &Engine{cfg: cfg, pspec: cfg.Player, seed: cfg.Seed, threads: cfg.Threads, rng: rand.New(rand.NewPCG(cfg.Seed, 0xe9)), ctx: context.Background()}
	spec := cfg.Game
	if spec.PlyCap == 0 {
		spec.PlyCap = noCap
	}
	if err := e.startGame(spec, nil); err != nil {
		return nil, err
	}
	return e, nil
}

// startGame switches to a new game from spec: from start if given, else
// from the game's start position. The player is rebuilt first, so that a
// failure leaves everything as it was.
func (e *Engine) startGame(spec games.Spec, start env.State) error {
	g := e.game
	if e.game == nil || spec != e.spec {
		var err error
		if g, err = games.New(spec); err != nil {
			return err
		}
	}
	if start == nil {
		start = g.Start(e.rng)
	}
	p := e.player
	if p == nil || g != e.game {
		var err error
		if p, err = player.FromSpec(e.pspec, g, e.options(e.seed, e.threads)); err != nil {
			return err
		}
	}
	e.spec, e.game, e.state, e.player = spec, g, start, p
	e.undo, e.counted = e.undo[:0], e.counted[:0]
	e.seen = env.NewHistory(start)
	e.repTie = false
	e.left = [2]time.Duration{e.gameTime, e.gameTime}
	return nil
}

type command struct {
	name string
	run  func(e *Engine, args []string) (string, error)
}

// commands lists every command in the order list_commands prints them
// (set in init: list_commands refers to it).
var commands []command

func init() {
	commands = []command{
		{"protocol_version", func(*Engine, []string) (string, error) { return ProtocolVersion, nil }},
		{"name", func(e *Engine, _ []string) (string, error) { return e.cfg.Name, nil }},
		{"version", func(e *Engine, _ []string) (string, error) { return e.cfg.Version, nil }},
		{"list_commands", (*Engine).listCommands},
		{"known_command", (*Engine).knownCommand},
		{"game", (*Engine).gameCmd},
		{"boardsize", (*Engine).boardsize},
		{"clear_board", (*Engine).clearBoard},
		{"position", (*Engine).position},
		{"play", (*Engine).play},
		{"genmove", (*Engine).genmove},
		{"undo", (*Engine).undoCmd},
		{"analyze", (*Engine).analyze},
		{"legal_moves", (*Engine).legalMoves},
		{"showboard", (*Engine).showboard},
		{"result", (*Engine).result},
		{"set", (*Engine).set},
		{"isready", func(*Engine, []string) (string, error) { return "ready", nil }},
		{"stop", func(*Engine, []string) (string, error) { return "", nil }},
		{"time_settings", (*Engine).timeSettings},
		{"time_left", (*Engine).timeLeft},
		{"quit", func(*Engine, []string) (string, error) { return "", nil }},
	}
}

// takesNoArguments are the commands that refuse arguments.
var takesNoArguments = map[string]bool{"protocol_version": true, "name": true, "version": true,
	"list_commands": true, "quit": true, "clear_board": true, "undo": true, "legal_moves": true,
	"showboard": true, "result": true, "isready": true, "stop": true}

func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// errLineTooLong answers a line longer than MaxLine.
var errLineTooLong = fmt.Errorf("line too long: at most %d bytes", MaxLine)

// readLine returns the next line without its end, or errLineTooLong after
// skipping the rest of an over-long one.
func readLine(r *bufio.Reader) (string, error) {
	line, err := r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = r.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		return "", errLineTooLong
	}
	if err != nil && (len(line) == 0 || !errors.Is(err, io.EOF)) {
		return "", err
	}
	return string(bytes.TrimSuffix(line, []byte("\n"))), nil
}

// input is a line read, or the error that ended reading.
type input struct {
	raw string
	err error
}

// Run reads commands from in and writes responses to out until quit or
// the end of in. Only a failure to read or write, or ctx ending, returns
// an error. Lines are read beside the commands, so that a streamed
// analysis stops as soon as the next command arrives.
func (e *Engine) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	e.ctx = ctx
	r := bufio.NewReaderSize(in, MaxLine)
	w := bufio.NewWriter(out)
	lines := make(chan input)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			raw, err := readLine(r)
			select {
			case lines <- input{raw, err}:
			case <-done:
				return
			}
			if err != nil && !errors.Is(err, errLineTooLong) {
				return
			}
		}
	}()
	var next *input // a line that stopped a streamed analysis
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var l input
		if next != nil {
			l, next = *next, nil
		} else {
			select {
			case l = <-lines:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		raw, rerr := l.raw, l.err
		if rerr != nil && !errors.Is(rerr, errLineTooLong) {
			if errors.Is(rerr, io.EOF) {
				return w.Flush()
			}
			return rerr
		}
		var result string
		var err error
		id, name := "", ""
		if rerr != nil {
			err = rerr
		} else {
			line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			fields := strings.Fields(line)
			if _, perr := strconv.ParseUint(fields[0], 10, 64); perr == nil {
				id, fields = fields[0], fields[1:]
			}
			switch {
			case len(fields) == 0:
				err = fmt.Errorf("missing command after id %s", id)
			case lookup(fields[0]) == nil:
				err = fmt.Errorf("unknown command: %s", env.Quote(fields[0]))
			case takesNoArguments[fields[0]] && len(fields) > 1:
				err = fmt.Errorf("usage: %s (it takes no arguments)", fields[0])
			case fields[0] == "analyze" && (len(fields) == 3 || len(fields) == 4):
				stopped, serr := e.streamAnalyze(ctx, id, fields[1:], w, lines)
				if serr == nil {
					next = stopped
					if err := w.Flush(); err != nil {
						return err
					}
					continue
				}
				err = serr
			default:
				name = fields[0]
				result, err = lookup(name).run(e, fields[1:])
			}
		}
		if err != nil {
			fmt.Fprintf(w, "?%s %s\n\n", id, env.Excerpt(oneLine(err.Error()), maxErrorLine))
		} else if result == "" {
			fmt.Fprintf(w, "=%s\n\n", id)
		} else {
			fmt.Fprintf(w, "=%s %s\n\n", id, result)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if err == nil && name == "quit" {
			return nil
		}
	}
}

// streamAnalyze is analyze TOP INTERVAL: the answer's first line is "=ID",
// then an info line every INTERVAL seconds (and one early), until the
// budget is spent or the next command arrives, which stops the search and
// is then carried out (stop does nothing more); the last info line ends
// with "done", and an empty line ends the answer. Only trained players
// (net:, player:) stream. It returns the line that stopped it, if one did.
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
	s := e.searchState()
	var serr error
	stopped := e.untilNextLine(lines, !infinite, func(ctx context.Context) {
		o := player.StreamOptions{Until: infinite, Every: every, Top: top, Depth: 10, Seed: e.seed, Threads: e.threads}
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

// untilNextLine runs search under the move's clock (unless clocked is
// false), stopping it when the next line of input arrives, and returns
// that line (nil if the search ended first) for the command loop to carry
// out.
func (e *Engine) untilNextLine(lines <-chan input, clocked bool, search func(ctx context.Context)) *input {
	ctx, cancel := context.WithCancel(e.ctx)
	if clocked {
		ctx, cancel = e.moveContext(e.state.ToMove())
	}
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

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

func wantArgs(args []string, n int, usage string) error {
	if len(args) != n {
		return fmt.Errorf("usage: %s", usage)
	}
	return nil
}

func (e *Engine) listCommands([]string) (string, error) {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, "\n"), nil
}

func (e *Engine) knownCommand(args []string) (string, error) {
	if err := wantArgs(args, 1, "known_command NAME"); err != nil {
		return "", err
	}
	return strconv.FormatBool(lookup(args[0]) != nil), nil
}

// gameCmd switches to another game: game NAME [key=value ...], with the
// options of the command line's game flags (size, blocked, first, base,
// pawns).
func (e *Engine) gameCmd(args []string) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("usage: game NAME [size=N blocked=... first=... base=N pawns=N] (NAME: %s)", strings.Join(games.Names(), ", "))
	}
	given := map[string]string{}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return "", fmt.Errorf("game option %q: want key=value", kv)
		}
		if _, dup := given[k]; dup {
			return "", fmt.Errorf("game option %s given twice", k)
		}
		given[k] = v
	}
	spec, err := games.Apply(games.Spec{Name: args[0], PlyCap: e.spec.PlyCap}, given)
	if err != nil {
		return "", err
	}
	return "", e.startGame(spec, nil)
}

func (e *Engine) boardsize(args []string) (string, error) {
	if err := wantArgs(args, 1, "boardsize N"); err != nil {
		return "", err
	}
	// A new board of that size, with the game's other settings at their
	// defaults (a layout for one size may not fit another).
	spec, err := games.Apply(games.Spec{Name: e.spec.Name, PlyCap: e.spec.PlyCap}, map[string]string{"size": args[0]})
	if err != nil {
		return "", err
	}
	return "", e.startGame(spec, nil)
}

func (e *Engine) clearBoard([]string) (string, error) {
	return "", e.startGame(e.spec, nil)
}

// position sets a position of the current game. A position that carries
// settings of its own (a Slider board of another size, its blocked cells)
// switches the game to them.
func (e *Engine) position(args []string) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("usage: position POS [moves MOVE...]")
	}
	// The moves played from the position, when given, are the game's
	// history: the ply count and the repetition rule see them.
	var moves []string
	for i, a := range args {
		if a == "moves" {
			args, moves = args[:i], args[i+1:]
			break
		}
	}
	if len(args) == 0 {
		return "", fmt.Errorf("usage: position POS [moves MOVE...]")
	}
	text := strings.Join(args, " ")
	spec, err := games.SpecOf(text, e.spec)
	if err != nil {
		return "", err
	}
	g := e.game
	if spec != e.spec {
		var err error
		if g, err = games.New(spec); err != nil {
			return "", err
		}
	}
	s, err := g.ParseState(text)
	if err != nil {
		return "", err
	}
	// Check every move before changing anything: a failed command changes
	// nothing.
	check := s.Clone()
	for i, m := range moves {
		if check.Outcome().Over {
			return "", fmt.Errorf("move %d (%s): the game is over", i+1, env.Quote(m))
		}
		a, err := check.ParseAction(m)
		if err != nil {
			return "", fmt.Errorf("move %d: %v", i+1, err)
		}
		check.Apply(a)
	}
	if err := e.startGame(spec, s); err != nil {
		return "", err
	}
	for _, m := range moves {
		a, _ := e.state.ParseAction(m)
		e.apply(a)
	}
	return "", nil
}

// timeSettings is GTP's time_settings MAIN BYO STONES: each side has MAIN
// seconds for the game (byo-yomi is read and ignored beyond its first
// period's share of a move); 0 0 0 turns the clock off.
func (e *Engine) timeSettings(args []string) (string, error) {
	if err := wantArgs(args, 3, "time_settings MAIN_SECONDS BYO_SECONDS BYO_STONES"); err != nil {
		return "", err
	}
	main, err := seconds("main time", args[0], MaxGameTime)
	if err != nil {
		return "", err
	}
	byo, err := seconds("byo-yomi", args[1], MaxGameTime)
	if err != nil {
		return "", err
	}
	stones, err := strconv.Atoi(args[2])
	if err != nil || stones < 0 {
		return "", fmt.Errorf("byo-yomi stones %q: want a whole number, 0 or more", args[2])
	}
	e.gameTime = main
	e.left = [2]time.Duration{main, main}
	e.byoyomi = 0
	if byo > 0 && stones > 0 {
		e.byoyomi = byo / time.Duration(stones)
		if e.gameTime == 0 {
			e.gameTime = byo // the clock is on, with byo-yomi only
		}
	}
	return "", nil
}

// timeLeft is GTP's time_left COLOUR SECONDS STONES: the referee's clock
// for a side, which the next move's budget follows.
func (e *Engine) timeLeft(args []string) (string, error) {
	if err := wantArgs(args, 3, "time_left COLOUR SECONDS STONES"); err != nil {
		return "", err
	}
	side, err := e.game.ParseSide(args[0])
	if err != nil {
		return "", err
	}
	left, err := seconds("time left", args[1], MaxGameTime)
	if err != nil {
		return "", err
	}
	if _, err := strconv.Atoi(args[2]); err != nil {
		return "", fmt.Errorf("stones %q: want a whole number", args[2])
	}
	if e.gameTime == 0 {
		e.gameTime = left
	}
	e.left[side] = left
	return "", nil
}

// checkTurn parses a colour and checks that it is that colour's turn.
func (e *Engine) checkTurn(colour string) (env.Side, error) {
	side, err := e.game.ParseSide(colour)
	if err != nil {
		return side, err
	}
	if e.over() {
		return side, fmt.Errorf("the game is over")
	}
	if side != e.state.ToMove() {
		return side, fmt.Errorf("it is %s's turn", e.game.SideName(e.state.ToMove()))
	}
	return side, nil
}

func (e *Engine) over() bool { return e.repTie || e.state.Outcome().Over }

// apply plays a legal action and keeps the history for undo and the
// repetition rule.
func (e *Engine) apply(a int) {
	e.undo = append(e.undo, e.state.Clone())
	counts := env.CountsMove(e.state, a)
	e.counted = append(e.counted, counts)
	e.state.Apply(a)
	if !counts {
		return
	}
	h := e.state.Hash()
	e.seen[h]++
	if e.repetition > 0 && !e.state.Outcome().Over && e.seen[h] > e.repetition {
		e.repTie = true
	}
}

func (e *Engine) play(args []string) (string, error) {
	if err := wantArgs(args, 2, "play COLOUR MOVE"); err != nil {
		return "", err
	}
	if _, err := e.checkTurn(args[0]); err != nil {
		return "", err
	}
	a, err := e.state.ParseAction(args[1])
	if err != nil {
		return "", err
	}
	e.apply(a)
	return "", nil
}

// searchState is the position the player searches: wrapped, when the
// repetition rule is on, so that the search sees repetition ties coming.
func (e *Engine) searchState() env.State {
	if e.repetition > 0 {
		return env.WithRepetition(e.state.Clone(), e.seen, e.repetition)
	}
	return e.state
}

// moveContext bounds a move's search by the game clock, when one is set:
// the time left spread over the moves the side may still have to make.
func (e *Engine) moveContext(side env.Side) (context.Context, context.CancelFunc) {
	if e.gameTime <= 0 {
		return context.WithCancel(e.ctx)
	}
	budget := e.left[side]/20 + e.byoyomi
	if budget < 5*time.Millisecond {
		budget = 5 * time.Millisecond
	}
	return context.WithTimeout(e.ctx, budget)
}

func (e *Engine) genmove(args []string) (string, error) {
	if err := wantArgs(args, 1, "genmove COLOUR"); err != nil {
		return "", err
	}
	side, err := e.checkTurn(args[0])
	if err != nil {
		return "", err
	}
	ctx, cancel := e.moveContext(side)
	defer cancel()
	t0 := time.Now()
	a, err := e.player.Move(ctx, e.searchState())
	if e.gameTime > 0 {
		e.left[side] -= time.Since(t0)
	}
	if err != nil {
		return "", err
	}
	if !env.IsLegal(e.state, a) {
		return "", fmt.Errorf("the player chose action %d, which is not legal", a)
	}
	move := e.state.ActionString(a)
	e.apply(a)
	return move, nil
}

func (e *Engine) undoCmd([]string) (string, error) {
	if len(e.undo) == 0 {
		return "", fmt.Errorf("nothing to undo: no move was played since the game started")
	}
	if e.counted[len(e.counted)-1] {
		e.seen[e.state.Hash()]--
	}
	e.state = e.undo[len(e.undo)-1]
	e.undo, e.counted = e.undo[:len(e.undo)-1], e.counted[:len(e.counted)-1]
	e.repTie = false
	return "", nil
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
	ctx, cancel := e.moveContext(e.state.ToMove())
	defer cancel()
	s := e.searchState()
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

func (e *Engine) legalMoves([]string) (string, error) {
	if e.over() {
		return "", nil
	}
	var names []string
	for _, a := range e.state.LegalActions(nil) {
		names = append(names, e.state.ActionString(a))
	}
	return strings.Join(names, " "), nil
}

func (e *Engine) showboard([]string) (string, error) {
	return strings.TrimSuffix(e.state.Board(), "\n") + "\n" + e.game.SideName(e.state.ToMove()), nil
}

func (e *Engine) result([]string) (string, error) {
	o := e.state.Outcome()
	switch {
	case e.repTie:
		return "tie", nil
	case !o.Over:
		return "none", nil
	case o.Winner == env.NoSide:
		return "tie", nil
	}
	return e.game.SideName(o.Winner), nil
}

// seconds reads a time in seconds, finite, from 0 to limit.
func seconds(name, v string, limit time.Duration) (time.Duration, error) {
	f, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("%s %q: want a number of seconds", name, v)
	case f < 0:
		return 0, fmt.Errorf("%s %q: the time is negative", name, v)
	case f > limit.Seconds():
		return 0, fmt.Errorf("%s %q: at most %.0f seconds", name, v, limit.Seconds())
	}
	return time.Duration(f * float64(time.Second)), nil
}

func (e *Engine) set(args []string) (string, error) {
	if err := wantArgs(args, 2, "set OPTION VALUE"); err != nil {
		return "", err
	}
	spec, seed, threads := e.pspec, e.seed, e.threads
	switch name, v := args[0], args[1]; name {
	case "movetime":
		d, err := seconds(name, v, MaxMoveTime)
		if err != nil {
			return "", err
		}
		spec = spec.WithBudget("time", strconv.FormatFloat(d.Seconds(), 'f', -1, 64))
	case "visits":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxVisits {
			return "", fmt.Errorf("visits %q: want a whole number from 1 to %d", v, MaxVisits)
		}
		spec = spec.WithBudget("visits", v)
	case "seed":
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return "", fmt.Errorf("seed %q: want a non-negative whole number", v)
		}
		seed = n
	case "gametime":
		d, err := seconds(name, v, MaxGameTime)
		if err != nil {
			return "", err
		}
		e.gameTime = d
		e.left = [2]time.Duration{d, d}
		return "", nil
	case "repetition":
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return "", fmt.Errorf("repetition %q: want a whole number, 0 for off", v)
		}
		e.repetition = n
		return "", nil
	case "threads":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > mcts.MaxThreads {
			return "", fmt.Errorf("threads %q: want a whole number from 1 to %d", v, mcts.MaxThreads)
		}
		threads = n
		if _, ok := spec.Options["threads"]; ok {
			spec = spec.With("threads", v)
		}
	default:
		return "", fmt.Errorf("unknown option %s: want movetime, visits, seed, gametime, repetition or threads", name)
	}
	p, err := player.FromSpec(spec, e.game, e.options(seed, threads))
	if err != nil {
		return "", err
	}
	e.pspec, e.seed, e.threads, e.player = spec, seed, threads, p
	return "", nil
}

// options are the player options of the engine's player.
func (e *Engine) options(seed uint64, threads int) player.Options {
	return player.Options{Seed: seed, Kinds: e.cfg.Kinds, Threads: threads}
}

// State is the engine's current position.
func (e *Engine) State() env.State { return e.state }

// maxErrorLine bounds an error answer: a message quotes what it refuses,
// and a megabyte of garbage must not come back as a megabyte of error.
const maxErrorLine = 300
