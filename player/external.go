package player

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/mcts"
)

// DefaultExternalTimeout is how long an external program may take to
// answer a command when its spec sets no time.
const DefaultExternalTimeout = 30 * time.Second

// External drives another program that speaks the engine protocol
// (docs/protocol.md): before each move it sends the game and the position,
// then asks for the move. A program that dies, answers garbage, answers an
// illegal move or answers too late loses the game with that reason
// (ErrIllegalMove, ErrTimeLimit); it never stops ours. Close ends it.
type External struct {
	spec    string
	argv    []string
	timeout time.Duration
	setup   []string // commands sent once the program starts
	game    string   // the game command last sent
	cmd     *exec.Cmd
	in      io.WriteCloser
	lines   chan string // the program's output, a line at a time
	done    chan struct{}
	waitErr error
	readErr error // why the output stopped, when it was not the end
	mu      sync.Mutex
}

// Limits on what another program may print: a line, and one answer (its
// lines up to the blank line that ends it). A program past them forfeits
// its game (ErrIllegalMove) rather than fill the memory.
const (
	MaxEngineLine        = 1 << 20
	MaxEngineAnswer      = 4 << 20
	MaxEngineAnswerLines = 10000
)

// newExternal builds engine:cmd=PROGRAM ARGS[,time=T][,timeout=T]: time is
// the move time the program is told (set movetime), timeout how long it
// may take to answer (default: twice the move time and a second, or
// DefaultExternalTimeout).
func newExternal(sp Spec, o *options) (*External, error) {
	cmdline := o.arg()
	if _, v, ok := o.lookup("cmd"); ok {
		if cmdline != "" {
			return nil, fmt.Errorf("player engine: give the program once, as engine:cmd=PROGRAM")
		}
		cmdline = v
	}
	argv := strings.Fields(cmdline)
	if len(argv) == 0 {
		return nil, fmt.Errorf("player engine needs a program: engine:cmd=PROGRAM ARGS (a program that speaks the engine protocol)")
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return nil, fmt.Errorf("player engine: %w", err)
	}
	moveTime := o.duration(0, "time")
	visits := o.int(0, 1, mcts.MaxSims, "visits")
	timeout := o.duration(0, "timeout")
	if o.err != nil {
		return nil, o.done()
	}
	if timeout == 0 {
		timeout = DefaultExternalTimeout
		if moveTime > 0 {
			timeout = 2*moveTime + time.Second
		}
	}
	x := &External{spec: sp.String(), argv: argv, timeout: timeout}
	if moveTime > 0 {
		x.setup = append(x.setup, fmt.Sprintf("set movetime %g", moveTime.Seconds()))
	}
	if visits > 0 {
		x.setup = append(x.setup, fmt.Sprintf("set visits %d", visits))
	}
	return x, nil
}

func (x *External) String() string { return x.spec }

// start runs the program, once.
func (x *External) start() error {
	if x.cmd != nil {
		return nil
	}
	cmd := exec.Command(x.argv[0], x.argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", x.argv[0], err)
	}
	x.cmd, x.in = cmd, in
	x.lines, x.done = make(chan string, 64), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), MaxEngineLine)
		for sc.Scan() {
			select {
			case x.lines <- sc.Text():
			case <-x.done: // closed by a forfeit: nobody reads on
				return
			}
		}
		if errors.Is(sc.Err(), bufio.ErrTooLong) {
			x.readErr = fmt.Errorf("it printed a line longer than %d bytes", MaxEngineLine)
		}
		close(x.lines)
	}()
	go func() {
		x.waitErr = cmd.Wait()
		close(x.done)
	}()
	for _, c := range x.setup {
		if _, err := x.send(context.Background(), c); err != nil {
			return err
		}
	}
	return nil
}

// send writes a command and reads its answer up to the blank line. A
// refusal (?) is returned as an error; so are a dead program and silence
// past the timeout (ErrTimeLimit).
func (x *External) send(ctx context.Context, command string) (string, error) {
	if _, err := io.WriteString(x.in, command+"\n"); err != nil {
		return "", x.died(fmt.Errorf("writing %q: %w", command, err))
	}
	timer := time.NewTimer(x.timeout)
	defer timer.Stop()
	var answer []string
	size := 0
	for {
		select {
		case l, ok := <-x.lines:
			if !ok {
				if x.readErr != nil {
					x.Close()
					return "", fmt.Errorf("%w: %s: %v", ErrIllegalMove, x.argv[0], x.readErr)
				}
				return "", x.died(fmt.Errorf("no answer to %q", command))
			}
			if size += len(l) + 1; size > MaxEngineAnswer || len(answer) >= MaxEngineAnswerLines {
				x.Close()
				return "", fmt.Errorf("%w: %s: its answer to %q ran past %d lines or %d bytes", ErrIllegalMove, x.argv[0], command, MaxEngineAnswerLines, MaxEngineAnswer)
			}
			l = strings.TrimSuffix(l, "\r")
			if l == "" && len(answer) > 0 {
				first := answer[0]
				status, rest, _ := strings.Cut(first, " ")
				body := strings.Join(append([]string{rest}, answer[1:]...), "\n")
				switch {
				case strings.HasPrefix(status, "="):
					return body, nil
				case strings.HasPrefix(status, "?"):
					return "", fmt.Errorf("%q refused: %s", command, body)
				}
				return "", fmt.Errorf("%w: answer %q to %q is neither = nor ?", ErrIllegalMove, first, command)
			}
			if l != "" {
				answer = append(answer, l)
			}
		case <-timer.C:
			x.Close()
			return "", fmt.Errorf("%w: %q unanswered after %s", ErrTimeLimit, command, x.timeout)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// died describes a program that stopped answering.
func (x *External) died(err error) error {
	select {
	case <-x.done:
		if x.waitErr != nil {
			return fmt.Errorf("%s exited: %v (%w)", x.argv[0], x.waitErr, err)
		}
		return fmt.Errorf("%s exited (%w)", x.argv[0], err)
	case <-time.After(100 * time.Millisecond):
		return err
	}
}

// Move sets the program's game and position and asks it for a move.
func (x *External) Move(ctx context.Context, s env.State) (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := x.start(); err != nil {
		return 0, err
	}
	g := s.Game()
	if game := gameCommand(g); game != x.game {
		if _, err := x.send(ctx, game); err != nil {
			return 0, err
		}
		x.game = game
	}
	if _, err := x.send(ctx, "position "+env.Unwrap(s).String()); err != nil {
		return 0, err
	}
	move, err := x.send(ctx, "genmove "+g.SideName(s.ToMove()))
	if err != nil {
		return 0, err
	}
	a, err := s.ParseAction(strings.TrimSpace(move))
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrIllegalMove, err)
	}
	return a, nil
}

// gameCommand is the protocol's game command for g: its Describe line,
// which games write as their name and settings (key=value, the engine's
// own game command), so that the program plays the same configuration.
func gameCommand(g env.Game) string {
	f := strings.Fields(g.Describe())
	if len(f) == 0 || f[0] != g.Name() {
		return "game " + g.Name()
	}
	for _, kv := range f[1:] {
		if !strings.Contains(kv, "=") {
			return "game " + g.Name()
		}
	}
	return "game " + strings.Join(f, " ")
}

// Close ends the program: quit, then a kill if it does not go.
func (x *External) Close() error {
	if x.cmd == nil {
		return nil
	}
	io.WriteString(x.in, "quit\n")
	x.in.Close()
	select {
	case <-x.done:
	case <-time.After(time.Second):
		x.cmd.Process.Kill()
		<-x.done
	}
	return nil
}

var _ io.Closer = (*External)(nil)
