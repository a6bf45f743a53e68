// Package web is the local web app of `sliderzero serve`: play any of the
// games against any player on a board, watch the agent's analysis as its
// search runs, replay recorded games, and follow training runs' curves as
// they are written. Everything it serves is embedded; it reads only files
// under its root, bounds every request, and runs no program a request
// names (only engine players the server's own command line named).
package web

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
)

//go:embed static
var static embed.FS

// Limits on what a request may ask for.
const (
	MaxBody     = 1 << 20 // bytes of a request body
	MaxMoves    = 5000    // moves in a game sent with a request
	MaxSims     = 20000   // simulations of a search
	MaxMoveTime = 10 * time.Second
	MaxListed   = 500     // files in a listing
	MaxNodes    = 500_000 // nodes of a search tree
	maxDepth    = 4       // folders deep a listing looks
)

// Config sets up a server.
type Config struct {
	// Root is the folder whose files the server may read: player files,
	// checkpoints, records, runs.
	Root string
	// Engines are the external programs players may be, by name
	// (engine:NAME in a request): the server's command line names them,
	// a request never does.
	Engines map[string]string
	// MaxSearches bounds the searches running at once (0: one per core).
	MaxSearches int
	// Threads is how many threads an analysis searches with when the
	// request does not say (0: one per core): one analysis is one user
	// waiting for it.
	Threads int
	// Log hears one line per failed request; nil for none.
	Log *slog.Logger
	// AllowHosts are the host names (without port) requests may be
	// addressed to, besides loopback's (localhost, 127.0.0.1, ::1): the
	// address the server listens on, and what --allow-host adds. A page
	// of another site that makes the browser call the app under its own
	// name (DNS rebinding) is refused by this.
	AllowHosts []string
	// Tables are solved tables (sliderzero solve) whose positions get a
	// perfect-play verdict; games whose solver solves positions when
	// asked need none.
	Tables []registry.Table
}

// Server serves the app; it implements http.Handler.
type Server struct {
	cfg  Config
	root rootDir
	sem  slots
	mux  *http.ServeMux
	// solvers hold the one exact solver of each game solved when asked,
	// lent to a request at a time: its table carries over from one
	// position of a game to the next.
	solvers map[string]chan env.ExactSolver
	// playerGames caches what /api/info reads of each player file.
	playerGames playerGames
	// players builds the requests' players, loading each file once.
	players *player.Factory
}

// New checks the configuration and builds the server.
func New(cfg Config) (*Server, error) {
	root, err := filepath.Abs(cfg.Root)
	if err != nil {
		return nil, err
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		return nil, fmt.Errorf("root %s: %w", cfg.Root, err)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("root %s is not a folder", cfg.Root)
	}
	n := cfg.MaxSearches
	if n <= 0 {
		n = runtime.NumCPU()
	}
	if cfg.Threads <= 0 {
		cfg.Threads = min(runtime.NumCPU(), mcts.MaxThreads)
	}
	players, err := player.NewFactory()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, root: rootDir(root), sem: make(slots, n), mux: http.NewServeMux(), solvers: map[string]chan env.ExactSolver{}, players: players}
	for _, name := range registry.Solved() {
		if solver.Searched(name) {
			s.solvers[name] = make(chan env.ExactSolver, 1)
			s.solvers[name] <- nil // made on first use
		}
	}
	assets, _ := fs.Sub(static, "static")
	s.mux.Handle("GET /", http.FileServerFS(assets))
	s.mux.HandleFunc("GET /api/info", s.info)
	s.mux.HandleFunc("POST /api/state", s.state)
	s.mux.HandleFunc("POST /api/move", s.move)
	s.mux.HandleFunc("GET /api/analyze", s.analyze)
	s.mux.HandleFunc("POST /api/perfect", s.perfect)
	s.mux.HandleFunc("GET /api/records", s.records)
	s.mux.HandleFunc("GET /api/record", s.record)
	s.mux.HandleFunc("GET /api/runs", s.runs)
	s.mux.HandleFunc("GET /api/run", s.run)
	s.mux.HandleFunc("GET /api/run/events", s.runEvents)
	return s, nil
}

// Root is the folder the server reads from.
func (s *Server) Root() string { return string(s.root) }

// ServeHTTP answers a request; a handler's panic is a 500 with one line,
// never a crash. Requests addressed to another host than the app's, and
// API requests that another site's page makes, are refused.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			s.fail(w, r, http.StatusInternalServerError, fmt.Errorf("internal error: %v", v))
		}
	}()
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if err := s.checkOrigin(r); err != nil {
		s.fail(w, r, http.StatusForbidden, err)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/api/") && !s.routed(r, r.Method) {
		// An API answer is JSON, a wrong path or method's too.
		var allowed []string
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			if m != r.Method && s.routed(r, m) {
				allowed = append(allowed, m)
			}
		}
		if len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			s.fail(w, r, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: want %s", r.Method, r.URL.Path, strings.Join(allowed, " or ")))
			return
		}
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("%s: no such endpoint (docs/web-api.md lists them)", env.Excerpt(r.URL.Path, 100)))
		return
	}
	s.mux.ServeHTTP(w, r)
}

// routed reports whether an API handler takes r's path by method, not
// the static files' catch-all.
func (s *Server) routed(r *http.Request, method string) bool {
	r = r.Clone(r.Context())
	r.Method = method
	_, pattern := s.mux.Handler(r)
	return pattern != "" && pattern != "GET /"
}

// allowedHost reports whether a host name (a Host header's or an
// Origin's, port removed) is the app's.
func (s *Server) allowedHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	switch host {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	for _, h := range s.cfg.AllowHosts {
		if strings.EqualFold(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"), host) {
			return true
		}
	}
	return false
}

// checkOrigin refuses a request addressed to a host that is not the app's
// (DNS rebinding), and an API request from another site's page: by its
// Origin, or, where a browser sends it, Sec-Fetch-Site.
func (s *Server) checkOrigin(r *http.Request) error {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if !s.allowedHost(host) {
		return fmt.Errorf("requests for host %q are refused: the app answers to localhost and its own address (serve --allow-host adds names)", env.Excerpt(r.Host, 100))
	}
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		return nil
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
		return fmt.Errorf("requests from another site's page are refused")
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		if err != nil || !s.allowedHost(u.Hostname()) || u.Host != r.Host {
			return fmt.Errorf("requests from origin %q are refused", env.Excerpt(origin, 100))
		}
	}
	return nil
}

// baselines are the players every game has.
var baselines = []string{"random", "greedy", "alphabeta:depth=4", "alphabeta", "mcts:sims=1000"}

func (s *Server) info(w http.ResponseWriter, r *http.Request) {
	files := s.root.walk(func(path string, d fs.DirEntry) bool {
		return !d.IsDir() && (strings.HasSuffix(path, ".player") || d.Name() == "checkpoint.msgpack")
	})
	players := append([]string(nil), baselines...)
	// The game each player file plays, so that the page lists a game's
	// own players only.
	playerGames := map[string]registry.Spec{}
	// Files that cannot be read, with the reason: listed apart, so that
	// one bad file neither hides the others nor fails the request.
	unreadable := map[string]string{}
	for _, f := range files {
		if !strings.HasSuffix(f, ".player") {
			players = append(players, "net:"+f)
			continue
		}
		name := "player:" + f
		full, err := s.root.resolve(f)
		if err == nil {
			var g registry.Spec
			if g, err = s.playerGames.game(full); err == nil {
				players = append(players, name)
				playerGames[name] = g
				continue
			}
		}
		unreadable[name] = s.root.relativeError(err)
	}
	for name := range s.cfg.Engines {
		players = append(players, "engine:"+name)
	}
	// Each game's sides and settings, for the page's controls: the page
	// knows no game or setting by name.
	type setting struct {
		Key     string   `json:"key"`
		Min     int      `json:"min"`
		Max     int      `json:"max"`
		Default string   `json:"default"`
		Help    string   `json:"help"`
		Values  []string `json:"values,omitempty"`
		Learned bool     `json:"learned,omitempty"`
		// Input: a setting of the network's input alone, which does not
		// decide who can play (games.SameRules).
		Input bool `json:"input,omitempty"`
	}
	sides := map[string][2]string{}
	settings := map[string][]setting{}
	perfect := map[string]bool{}
	for _, name := range registry.Names() {
		if g, err := games.New(registry.Spec{Name: name}); err == nil {
			sides[name] = [2]string{g.SideName(0), g.SideName(1)}
			// the games whose positions get a perfect-play verdict
			perfect[name] = solver.Solvable(g)
		}
		opts, _ := games.Options(name)
		settings[name] = []setting{}
		for _, o := range opts {
			settings[name] = append(settings[name], setting{o.Key, o.Min, o.Max, o.Default, o.Help, o.Values, o.Learned, o.Input})
		}
	}
	for _, t := range s.cfg.Tables {
		perfect[t.Game().Name()] = true
	}
	reply(w, map[string]any{"games": registry.Names(), "players": players, "sides": sides, "settings": settings, "player_games": playerGames, "unreadable": unreadable, "perfect": perfect,
		"limits": map[string]any{"sims": MaxSims, "seconds": MaxMoveTime.Seconds(), "moves": MaxMoves}})
}

// slots bounds the searches running at once: one token a search.
type slots chan struct{}

// acquire takes a search slot, waiting while ctx lasts.
func (sem slots) acquire(ctx context.Context) error {
	select {
	case sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return &httpError{http.StatusServiceUnavailable, fmt.Errorf("too many searches running; try again")}
	}
}

func (sem slots) release() { <-sem }
