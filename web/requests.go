// Requests and answers: errors with their status, strict JSON in, JSON
// out, the player specs a request may name, the positions it asks about,
// and the files under the root it may read.

package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
)

// httpError is an error with its HTTP status.
type httpError struct {
	status int
	err    error
}

func (e *httpError) Error() string { return e.err.Error() }

func badRequest(format string, args ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Errorf(format, args...)}
}

// fail answers an error as JSON {"error": "..."} on one line.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, err error) {
	var he *httpError
	if errors.As(err, &he) {
		status = he.status
	}
	msg := s.root.relativeError(err)
	if s.cfg.Log != nil {
		s.cfg.Log.Info("request failed", "method", r.Method, "path", r.URL.Path, "status", status, "error", msg)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// decode reads a JSON request body of at most MaxBody bytes strictly (see
// strictJSON).
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &httpError{http.StatusRequestEntityTooLarge, fmt.Errorf("request body over %d bytes", MaxBody)}
		}
		return badRequest("reading the request: %v", err)
	}
	return strictJSON(data, v)
}

// strictJSON is the one reader of every JSON a request sends: exactly one
// object, no field the request type does not have, nothing after it.
func strictJSON(data []byte, v any) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return badRequest("malformed request: want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("malformed request: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("malformed request: something after the JSON object")
	}
	return nil
}

// playerSpec checks a player spec from a request and rewrites it for the
// server: files resolved under the root, engines by the server's names,
// budgets bounded.
func (s *Server) playerSpec(text string) (player.Spec, error) {
	sp, err := player.ParseSpec(text)
	if err != nil {
		return sp, badRequest("%v", err)
	}
	k, known := s.players.Kind(sp.Kind)
	switch {
	case sp.Kind == "engine":
		cmd, ok := s.cfg.Engines[sp.Arg]
		if sp.Options["cmd"] != "" {
			return sp, &httpError{http.StatusForbidden, fmt.Errorf("engine:cmd=...: an engine command is not one the server was started with; the web app runs only those (engine:NAME)")}
		}
		if !ok {
			return sp, &httpError{http.StatusForbidden, fmt.Errorf("engine %q is not one the server was started with", sp.Arg)}
		}
		sp = player.Spec{Kind: "engine", Options: map[string]string{"cmd": cmd, "name": sp.Arg}}
	case !known || !k.Served:
		return sp, badRequest("player kind %q cannot play here (want %s or engine)", sp.Kind, strings.Join(s.players.Served(), ", "))
	case k.Search:
		path := sp.Arg
		if path == "" {
			path = sp.Options["checkpoint"]
			delete(sp.Options, "checkpoint")
		}
		full, err := s.root.resolve(path)
		if err != nil {
			return sp, err
		}
		sp.Arg = full
	}
	if sp.Kind == "mcts" || sp.Kind == "net" || sp.Kind == "player" {
		// A tree of at most MaxNodes nodes: tens of megabytes, whatever
		// the time asked for.
		if _, ok := sp.Options["max_nodes"]; !ok {
			sp.Options["max_nodes"] = strconv.Itoa(MaxNodes)
		}
	}
	// The app's own limits, below the players' ranges: a value over one
	// is refused, naming it (the player refuses what is not a value).
	for _, lim := range []struct {
		key   string
		limit float64
	}{{"max_nodes", MaxNodes}, {"sims", MaxSims}, {"visits", MaxSims}, {"nodes", MaxSims}, {"depth", 14}, {"time", MaxMoveTime.Seconds()}} {
		v, ok := sp.Options[lim.key]
		if !ok {
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if lim.key == "time" {
			d, derr := player.ParseSeconds(v)
			x, err = d.Seconds(), derr
		}
		if err == nil && x > lim.limit {
			return sp, badRequest("%s=%s: the app takes at most %g", lim.key, v, lim.limit)
		}
	}
	return sp, nil
}

// gameReq names a game and a position in it: a start and the moves since.
type gameReq struct {
	Game  registry.Spec `json:"game"`
	Start string        `json:"start"`
	Moves []string      `json:"moves"`
	Seed  uint64        `json:"seed"`
	// last is the shape of the last move, for the board's mark.
	last *moveView
}

// playable is position for a request that wants a move: the game must
// still be on.
func (q *gameReq) playable() (env.Game, env.State, error) {
	g, s, err := q.position()
	if err == nil && s.Outcome().Over {
		err = badRequest("the game is over")
	}
	return g, s, err
}

// position builds the request's position, checking every move.
func (q *gameReq) position() (env.Game, env.State, error) {
	if len(q.Moves) > MaxMoves {
		return nil, nil, badRequest("%d moves: at most %d", len(q.Moves), MaxMoves)
	}
	// The settings are checked as the command line's flags are: one that
	// the game does not have is refused, not ignored.
	if err := games.CheckSettings(q.Game); err != nil {
		return nil, nil, badRequest("game: %v", err)
	}
	if q.Start != "" {
		// A position that carries its own settings (a Slider board's size
		// and blocked cells) is played under them.
		spec, err := games.SpecOf(q.Start, q.Game)
		if err != nil {
			return nil, nil, badRequest("start: %v", err)
		}
		q.Game = spec
	}
	g, err := games.New(q.Game)
	if err != nil {
		return nil, nil, badRequest("game: %v", err)
	}
	var s env.State
	if q.Start == "" {
		s = g.Start(rand.New(rand.NewPCG(q.Seed, 0x5e)))
	} else if s, err = g.ParseState(q.Start); err != nil {
		return nil, nil, badRequest("start: %v", err)
	}
	q.Start = s.String()
	for i, m := range q.Moves {
		a, err := s.ParseAction(m)
		if err != nil {
			return nil, nil, badRequest("move %d (%s): %v", i+1, env.Excerpt(m, 60), err)
		}
		if i == len(q.Moves)-1 {
			mv := shapeOf(s, a)
			q.last = &mv
		}
		s.Apply(a)
	}
	return g, s, nil
}
