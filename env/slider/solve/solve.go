package solve

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/sliderzero/sliderzero/env"
)

// Values are kept a byte per position: 0 for a draw (and, while solving,
// for a position not yet decided), else the distance to the end in plies
// plus one. Plies alternate strictly (a pass is a ply), so the side to move
// wins when the distance is odd and loses when it is even.
const maxDistance = 254

func code(distance int) uint8 { return uint8(distance + 1) }

// Progress hears how many placements are solved out of the total.
type Progress func(done, total int64)

// solve fills vals (two entries per placement, H to move then V to move)
// class by class, by retrograde analysis.
func solve(ctx context.Context, ix *index, progress Progress) ([]uint8, error) {
	vals := make([]uint8, 2*ix.total)
	var done int64
	var cnt []uint8
	for ci := range ix.order {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := &ix.order[ci]
		if c.size == 0 {
			continue
		}
		if c.h == 0 || c.v == 0 {
			terminal(c, vals)
		} else {
			if int64(cap(cnt)) < 2*c.size {
				cnt = make([]uint8, 2*c.size)
			}
			cnt = cnt[:2*c.size]
			if err := solveClass(ctx, ix, c, vals, cnt); err != nil {
				return nil, err
			}
		}
		done += c.size
		if progress != nil {
			progress(done, ix.total)
		}
	}
	return vals, nil
}

// terminal fills a class where one side has no piece left: that side has
// won, so the other, to move, has lost. The side with no pieces is never
// to move in a real game; its entries stay 0.
func terminal(c *class, vals []uint8) {
	loser := sideV // H has no piece: H won
	if c.v == 0 {
		loser = sideH
	}
	if c.h == 0 && c.v == 0 {
		return
	}
	for p := c.offset; p < c.offset+c.size; p++ {
		vals[2*p+int64(loser)] = code(0)
	}
}

// exitInfo sums up the moves of side s that take a piece off the board:
// they lead to a class already solved.
type exitInfo struct {
	win      int  // shortest win through an exit, 0 if none
	lossMax  int  // longest loss through an exit, 0 if none
	draw     bool // some exit leads to a draw
	intra    int  // moves that stay in the class (a forced pass counts)
	anyMoves bool
}

func (ix *index) exits(vals []uint8, hb, vb uint64, s env.Side, l *moveList) exitInfo {
	empty := ix.board &^ (hb | vb | ix.blocked)
	own := hb
	if s == sideV {
		own = vb
	}
	ix.moves(s, own, empty, l)
	info := exitInfo{intra: l.n - l.exits, anyMoves: l.n > 0}
	if l.n == 0 {
		info.intra = 1 // the pass
	}
	t := s.Other()
	for i := 0; i < l.exits; i++ {
		h, v := l.own[i], vb
		if s == sideV {
			h, v = hb, l.own[i]
		}
		c := vals[2*ix.placement(h, v)+int64(t)]
		switch {
		case c == 0:
			info.draw = true
		case (c-1)%2 == 0: // the opponent loses
			if d := int(c); info.win == 0 || d < info.win {
				info.win = d
			}
		default:
			if d := int(c); d > info.lossMax {
				info.lossMax = d
			}
		}
	}
	return info
}

// solveClass decides every position of class c. Moves that take a piece
// off lead to solved classes; the rest stay in c, where positions are
// decided in order of distance: a position one ply from a loss is a win,
// and a position whose moves all lead to wins is a loss, once the last of
// those wins is decided. Positions left undecided can be held by neither
// side: draws.
func solveClass(ctx context.Context, ix *index, c *class, vals []uint8, cnt []uint8) error {
	local := vals[2*c.offset : 2*(c.offset+c.size)]
	maxCode, err := initClass(ctx, ix, c, vals, cnt)
	if err != nil {
		return err
	}
	var moves, unmoves moveList
	for lvl := 0; lvl+1 <= int(maxCode); lvl++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		want := code(lvl)
		for i := 0; ; {
			j := bytes.IndexByte(local[i:], want)
			if j < 0 {
				break
			}
			i += j
			hit := i
			i++
			p := c.offset + int64(hit/2)
			s := env.Side(hit % 2)
			t := s.Other()
			hb, vb := ix.pieces(c, p)
			empty := ix.board &^ (hb | vb | ix.blocked)
			own := hb
			if t == sideV {
				own = vb
			}
			ix.unmoves(t, own, empty, &unmoves)
			preds := unmoves.n
			passed := !ix.hasMove(t, own, empty)
			for k := 0; k <= preds; k++ {
				var q int64
				switch {
				case k < preds:
					h, v := unmoves.own[k], vb
					if t == sideV {
						h, v = hb, unmoves.own[k]
					}
					q = 2*(ix.placement(h, v)-c.offset) + int64(t)
				case passed:
					q = 2*(p-c.offset) + int64(t) // t had no move and passed
				default:
					continue
				}
				if lvl%2 == 0 {
					// s loses in lvl: t wins in lvl+1 by moving here.
					nc := code(lvl + 1)
					if lvl+1 > maxDistance {
						return errDistance(lvl + 1)
					}
					if local[q] == 0 || local[q] > nc {
						local[q] = nc
						maxCode = max(maxCode, nc)
					}
					continue
				}
				// s wins in lvl: one fewer escape for t.
				if local[q] != 0 || cnt[q] == 0 {
					continue
				}
				cnt[q]--
				if cnt[q] > 0 {
					continue
				}
				qh, qv := ix.pieces(c, c.offset+q/2)
				info := ix.exits(vals, qh, qv, t, &moves)
				if info.draw {
					continue
				}
				d := max(lvl+1, info.lossMax)
				if d > maxDistance {
					return errDistance(d)
				}
				local[q] = code(d)
				maxCode = max(maxCode, code(d))
			}
		}
	}
	return nil
}

func errDistance(d int) error {
	return fmt.Errorf("a position is %d plies from its end, more than the table's limit of %d", d, maxDistance)
}

// initClass counts each position's moves within the class and decides what
// the exits decide: a win through an exit (which a shorter win found later
// may still beat), or a loss when every move is an exit into a win for the
// opponent. It returns the largest value code set.
func initClass(ctx context.Context, ix *index, c *class, vals []uint8, cnt []uint8) (uint8, error) {
	workers := runtime.GOMAXPROCS(0)
	per := (c.size + int64(workers) - 1) / int64(workers)
	var wg sync.WaitGroup
	maxCodes := make([]uint8, workers)
	errs := make([]error, workers)
	for w := 0; w < workers; w++ {
		lo, hi := c.offset+int64(w)*per, min(c.offset+int64(w+1)*per, c.offset+c.size)
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var l moveList
			for p := lo; p < hi; p++ {
				if (p-lo)%(1<<16) == 0 && ctx.Err() != nil {
					errs[w] = ctx.Err()
					return
				}
				hb, vb := ix.pieces(c, p)
				for s := sideH; s <= sideV; s++ {
					info := ix.exits(vals, hb, vb, s, &l)
					i := 2*(p-c.offset) + int64(s)
					cnt[i] = uint8(info.intra)
					var d int
					switch {
					case info.win > 0:
						d = info.win
					case info.intra == 0 && !info.draw:
						d = info.lossMax
					default:
						continue
					}
					if d > maxDistance {
						errs[w] = errDistance(d)
						return
					}
					vals[2*p+int64(s)] = code(d)
					maxCodes[w] = max(maxCodes[w], code(d))
				}
			}
		}(w)
	}
	wg.Wait()
	var m uint8
	for w := range maxCodes {
		if errs[w] != nil {
			return 0, errs[w]
		}
		m = max(m, maxCodes[w])
	}
	return m, nil
}
