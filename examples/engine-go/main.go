// Command engine-go is the smallest engine that plays Slider over
// sliderzero's engine protocol (docs/protocol.md), with the standard
// library only: a starting point for your own. It keeps the board, answers
// what a referee sends (game, position, play, genmove, isready, quit) and
// plays a random legal move. Replace choose with your own search.
//
//	go build -o engine-go ./examples/engine-go
//	sliderzero match --a engine:cmd=./engine-go --b random --games 10
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// board is a Slider position: cells[y][x], y = 0 the bottom row; 'H', 'V',
// 'B' (blocked) or '+'.
type board struct {
	n      int
	cells  [][]byte
	toMove byte // 'H' or 'V'
}

func newBoard(n int) *board {
	b := &board{n: n, toMove: 'H'}
	b.cells = make([][]byte, n)
	for y := range b.cells {
		b.cells[y] = []byte(strings.Repeat("+", n))
	}
	for i := 1; i < n; i++ {
		b.cells[i][0] = 'H' // H on the left edge, above the corner
		b.cells[0][i] = 'V' // V on the bottom edge, right of the corner
	}
	return b
}

// parse reads "ROWS SIDE [pass [pass]]", rows top first separated by '/'.
func parse(text string) (*board, error) {
	f := strings.Fields(text)
	if len(f) < 2 || (f[1] != "H" && f[1] != "V") {
		return nil, fmt.Errorf("want rows separated by '/' and the side to move")
	}
	rows := strings.Split(f[0], "/")
	b := &board{n: len(rows), toMove: f[1][0]}
	b.cells = make([][]byte, b.n)
	for i, r := range rows {
		if len(r) != b.n {
			return nil, fmt.Errorf("row %d has %d cells, want %d", i+1, len(r), b.n)
		}
		b.cells[b.n-1-i] = []byte(r)
	}
	return b, nil
}

// steps are each side's directions: forward first.
var steps = map[byte][]struct {
	letter byte
	dx, dy int
}{
	'H': {{'R', 1, 0}, {'U', 0, 1}, {'D', 0, -1}},
	'V': {{'U', 0, 1}, {'L', -1, 0}, {'R', 1, 0}},
}

// legal lists the side to move's moves ("a2R"), or "pass" when it has none.
func (b *board) legal() []string {
	var out []string
	for y := 0; y < b.n; y++ {
		for x := 0; x < b.n; x++ {
			if b.cells[y][x] != b.toMove {
				continue
			}
			for _, s := range steps[b.toMove] {
				nx, ny := x+s.dx, y+s.dy
				off := nx >= b.n || ny >= b.n
				forward := s == steps[b.toMove][0]
				if (off && forward) || (nx >= 0 && ny >= 0 && !off && b.cells[ny][nx] == '+') {
					out = append(out, fmt.Sprintf("%c%d%c", 'a'+x, y+1, s.letter))
				}
			}
		}
	}
	if len(out) == 0 {
		return []string{"pass"}
	}
	return out
}

// apply plays a legal move of the side to move.
func (b *board) apply(move string) {
	if move != "pass" {
		x, y := int(move[0]-'a'), int(move[1]-'1')
		for _, s := range steps[b.toMove] {
			if s.letter == move[2] {
				b.cells[y][x] = '+'
				if nx, ny := x+s.dx, y+s.dy; nx < b.n && ny < b.n {
					b.cells[ny][nx] = b.toMove
				}
			}
		}
	}
	b.toMove = map[byte]byte{'H': 'V', 'V': 'H'}[b.toMove]
}

// choose is the engine's brain: here, any legal move.
func choose(b *board, rng *rand.Rand) string {
	moves := b.legal()
	return moves[rng.IntN(len(moves))]
}

func main() {
	rng := rand.New(rand.NewPCG(1, 2))
	b := newBoard(5)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		id := ""
		if _, err := strconv.Atoi(f[0]); err == nil {
			id, f = f[0], f[1:]
		}
		if len(f) == 0 {
			continue
		}
		result, err := "", error(nil)
		switch f[0] {
		case "protocol_version":
			result = "2"
		case "name":
			result = "engine-go"
		case "version":
			result = "1"
		case "isready":
			result = "ready"
		case "list_commands":
			result = "protocol_version\nname\nversion\nisready\nlist_commands\ngame\nposition\nplay\ngenmove\nset\nquit"
		case "game":
			n := 5
			for _, kv := range f[1:] {
				if k, v, _ := strings.Cut(kv, "="); k == "size" {
					n, _ = strconv.Atoi(v)
				}
			}
			if len(f) < 2 || f[1] != "slider" || n < 3 || n > 8 {
				err = fmt.Errorf("this engine plays only slider, size 3 to 8")
			} else {
				b = newBoard(n)
			}
		case "position":
			var nb *board
			if nb, err = parse(strings.Join(f[1:], " ")); err == nil {
				b = nb
			}
		case "play":
			if len(f) != 3 || f[1][0] != b.toMove {
				err = fmt.Errorf("want play %c MOVE", b.toMove)
				break
			}
			err = fmt.Errorf("illegal move %s", f[2])
			for _, m := range b.legal() {
				if m == f[2] {
					b.apply(m)
					err = nil
				}
			}
		case "genmove":
			if len(f) != 2 || f[1][0] != b.toMove {
				err = fmt.Errorf("it is %c's turn", b.toMove)
				break
			}
			result = choose(b, rng)
			b.apply(result)
		case "set":
			// movetime and the like: a random player needs no time.
		case "quit":
			fmt.Printf("=%s\n\n", id)
			return
		default:
			err = fmt.Errorf("unknown command %s", f[0])
		}
		if err != nil {
			fmt.Printf("?%s %v\n\n", id, err)
		} else {
			fmt.Printf("=%s %s\n\n", id, result)
		}
	}
}
