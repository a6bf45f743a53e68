package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/train/traintest"
)

// fixture is a root folder with a trained run, an exported player and a
// records file, and a server on it.
type fixture struct {
	root   string
	srv    *Server
	ts     *httptest.Server
	run    string // relative paths
	player string
	recs   string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	dir := traintest.Run(t, traintest.TinyConfig())
	runDir := filepath.Join(root, "runs", "tiny")
	if err := os.CopyFS(runDir, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	pf := filepath.Join(root, "tiny.player")
	if _, err := player.Export(filepath.Join(runDir, train.CheckpointFile), pf, mcts.Params{Sims: 20}, nil); err != nil {
		t.Fatal(err)
	}
	res, err := match.Series{Spec: registry.Spec{Name: "slider"}.With("size", "4"), A: builtin("greedy"), B: builtin("random"), Games: 2, Seed: 1}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	match.WriteRecords(&buf, res.Records)
	os.WriteFile(filepath.Join(root, "games.jsonl"), buf.Bytes(), 0o644)
	srv, err := New(Config{Root: root, Engines: map[string]string{}, Log: slog.New(slog.NewTextHandler(os.Stderr, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &fixture{root: root, srv: srv, ts: ts, run: "runs/tiny", player: "tiny.player", recs: "games.jsonl"}
}

func (f *fixture) get(t *testing.T, path string) (int, map[string]any) {
	t.Helper()
	r, err := http.Get(f.ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var v map[string]any
	json.NewDecoder(r.Body).Decode(&v)
	return r.StatusCode, v
}

func (f *fixture) post(t *testing.T, path string, body any) (int, map[string]any) {
	t.Helper()
	data, _ := json.Marshal(body)
	r, err := http.Post(f.ts.URL+path, "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var v map[string]any
	json.NewDecoder(r.Body).Decode(&v)
	return r.StatusCode, v
}

func TestPage(t *testing.T) {
	f := newFixture(t)
	r, err := http.Get(f.ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != 200 || !strings.Contains(string(body), "<script src=\"app.js\">") {
		t.Fatalf("index: %d\n%s", r.StatusCode, body)
	}
	// Offline: nothing is fetched from another host.
	for _, asset := range []string{"/", "/app.js", "/play.js", "/values.js", "/replay.js", "/runs.js", "/style.css"} {
		r, _ := http.Get(f.ts.URL + asset)
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != 200 || strings.Contains(string(b), "http://") || strings.Contains(string(b), "https://") {
			t.Errorf("%s: %d, or refers to another host", asset, r.StatusCode)
		}
	}
	code, info := f.get(t, "/api/info")
	players, _ := info["players"].([]any)
	if code != 200 || len(players) < 6 || !strings.Contains(strings.Join(toStrings(players), " "), "player:tiny.player") {
		t.Errorf("info %d: %v", code, info)
	}
}

func toStrings(v []any) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i], _ = x.(string)
	}
	return out
}

func TestPlayAGame(t *testing.T) {
	f := newFixture(t)
	req := map[string]any{"game": map[string]any{"name": "slider", "size": 4}, "moves": []string{}, "seed": 3}
	code, v := f.post(t, "/api/state", req)
	if code != 200 || v["to_move"] != "H" || len(v["legal"].([]any)) == 0 {
		t.Fatalf("state %d: %v", code, v)
	}
	req["start"] = v["start"]
	moves := []string{}
	for ply := 0; ply < 200; ply++ {
		req["moves"] = moves
		req["player"] = map[bool]string{true: "player:" + f.player + ",sims=10", false: "random"}[ply%2 == 0]
		code, m := f.post(t, "/api/move", req)
		if code != 200 {
			t.Fatalf("move %d: %d %v", ply, code, m)
		}
		moves = append(moves, m["move"].(string))
		req["moves"] = moves
		delete(req, "player")
		code, v = f.post(t, "/api/state", req)
		if code != 200 {
			t.Fatalf("state after %v: %d %v", moves, code, v)
		}
		if v["over"] == true {
			break
		}
	}
	if v["over"] != true || v["reason"] == "" {
		t.Errorf("the game did not end: %v", v)
	}
	// Each of the player's moves was a request of its own; its file was
	// loaded for the first.
	if n := f.srv.players.Files().Loads(); n != 1 {
		t.Errorf("the player file was loaded %d times, want once", n)
	}
}

func TestBadRequests(t *testing.T) {
	f := newFixture(t)
	game := map[string]any{"name": "slider", "size": 4}
	for _, c := range []struct {
		path string
		body any
		code int
		want string
	}{
		{"/api/state", map[string]any{"game": game, "moves": []string{"a2L"}}, 400, "never moves left"},
		{"/api/state", map[string]any{"game": map[string]any{"name": "chess"}}, 400, "unknown game"},
		{"/api/state", map[string]any{"game": game, "start": "XX"}, 400, "start"},
		{"/api/state", map[string]any{"game": game, "colour": "red"}, 400, "unknown field"},
		{"/api/state", map[string]any{"game": game, "moves": make([]string, MaxMoves+1)}, 400, "at most"},
		{"/api/move", map[string]any{"game": game, "player": "human"}, 400, "cannot play here"},
		{"/api/move", map[string]any{"game": game, "player": "engine:cmd=rm -rf /"}, 403, "not one the server was started with"},
		{"/api/move", map[string]any{"game": game, "player": "player:../../etc/passwd"}, 403, "outside the root"},
		{"/api/move", map[string]any{"game": game, "player": "player:/etc/passwd"}, 403, "not a relative path"},
		{"/api/move", map[string]any{"game": game, "player": "net:nothing/here"}, 404, "no such file"},
	} {
		code, v := f.post(t, c.path, c.body)
		msg, _ := v["error"].(string)
		if code != c.code || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s %v: %d %q, want %d with %q", c.path, c.body, code, msg, c.code, c.want)
		}
	}
	// A body over the limit, and one that is not JSON.
	big := bytes.Repeat([]byte(" "), MaxBody+10)
	r, _ := http.Post(f.ts.URL+"/api/state", "application/json", bytes.NewReader(big))
	r.Body.Close()
	if r.StatusCode != http.StatusRequestEntityTooLarge && r.StatusCode != 400 {
		t.Errorf("a body over the limit: %d", r.StatusCode)
	}
	r, _ = http.Post(f.ts.URL+"/api/state", "application/json", strings.NewReader("{nope"))
	r.Body.Close()
	if r.StatusCode != 400 {
		t.Errorf("malformed JSON: %d", r.StatusCode)
	}
	// Paths: parent folders, absolute paths, encoded separators, links out.
	os.Symlink("/etc", filepath.Join(f.root, "out"))
	for _, p := range []string{"..", "../x", "/etc/passwd", "%2e%2e%2fetc", "runs/../../x", "out/passwd", "a\\b"} {
		code, v := f.get(t, "/api/record?path="+url.QueryEscape(p))
		if code < 400 || code >= 500 {
			t.Errorf("path %q: %d %v", p, code, v)
		}
		code, _ = f.get(t, "/api/run?path="+url.QueryEscape(p))
		if code < 400 || code >= 500 {
			t.Errorf("run path %q: %d", p, code)
		}
	}
	for _, q := range []string{`"sims":-1`, `"sims":99999999`, `"top":21`, `"top":-2`} {
		code, v := f.get(t, "/api/analyze?q="+url.QueryEscape(`{"game":{"name":"slider","size":4},"player":"player:`+f.player+`",`+q+`}`))
		if code != 400 {
			t.Errorf("analyze with %s: %d %v", q, code, v)
		}
	}
	code, v := f.get(t, "/api/analyze?q=notjson")
	if code != 400 {
		t.Errorf("analyze with a bad query: %d %v", code, v)
	}
	code, v = f.get(t, "/api/analyze?q="+url.QueryEscape(`{"game":{"name":"slider","size":4},"player":"random"}`))
	if code != 400 || !strings.Contains(v["error"].(string), "only trained players") {
		t.Errorf("analyze by random: %d %v", code, v)
	}
}

func TestReplayAndRuns(t *testing.T) {
	f := newFixture(t)
	code, v := f.get(t, "/api/records")
	if code != 200 || !strings.Contains(strings.Join(toStrings(v["files"].([]any)), " "), f.recs) {
		t.Fatalf("records: %d %v", code, v)
	}
	code, v = f.get(t, "/api/record?path="+f.recs)
	if code != 200 || len(v["games"].([]any)) != 2 {
		t.Fatalf("record list: %d %v", code, v)
	}
	code, v = f.get(t, "/api/record?path="+f.recs+"&number=2")
	if code != 200 || int(v["plies"].(float64)) != len(v["notes"].([]any)) {
		t.Fatalf("record game: %d %v", code, v)
	}
	if code, _ := f.get(t, "/api/record?path="+f.recs+"&number=9"); code != 400 {
		t.Errorf("a game beyond the file: %d", code)
	}
	// A run among a package's test data is not one the user made.
	if err := os.CopyFS(filepath.Join(f.root, "train", "testdata", "old"), os.DirFS(filepath.Join(f.root, f.run))); err != nil {
		t.Fatal(err)
	}
	code, v = f.get(t, "/api/runs")
	if runs := strings.Join(toStrings(v["runs"].([]any)), " "); code != 200 || !strings.Contains(runs, f.run) || strings.Contains(runs, "testdata") {
		t.Fatalf("runs: %d %v", code, v)
	}
	code, v = f.get(t, "/api/run?path="+f.run)
	series, _ := v["series"].(map[string]any)
	if code != 200 || series["policy loss"] == nil || series["Elo"] == nil {
		t.Fatalf("run: %d %v", code, v)
	}
	if code, _ := f.get(t, "/api/run?path=."); code != 400 {
		t.Errorf("a folder that is no run: %d", code)
	}
}

// readEvents reads server-sent events until n arrive or the stream ends.
func readEvents(t *testing.T, r io.Reader, n int) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() && len(out) < n {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var v map[string]any
			if err := json.Unmarshal([]byte(data), &v); err != nil {
				t.Fatalf("event %q: %v", data, err)
			}
			out = append(out, v)
		}
	}
	return out
}

func TestAnalysisStreamsAndStops(t *testing.T) {
	f := newFixture(t)
	q := `{"game":{"name":"slider","size":4},"player":"player:` + f.player + `","sims":20000}`
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", f.ts.URL+"/api/analyze?q="+url.QueryEscape(q), nil)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("content type %q", r.Header.Get("Content-Type"))
	}
	events := readEvents(t, r.Body, 2)
	if len(events) < 2 || events[1]["visits"].(float64) <= events[0]["visits"].(float64) {
		t.Errorf("events %v: the search does not advance", events)
	}
	// Closing the page ends the search, and frees its slot.
	cancel()
	r.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for len(f.srv.sem) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(f.srv.sem) != 0 {
		t.Errorf("the search still holds its slot after the page went")
	}
}

func TestRunEventsFollowTheLog(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.ts.URL+"/api/run/events?path="+f.run, nil)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	events := make(chan map[string]any, 4)
	go func() {
		sc := bufio.NewScanner(r.Body)
		sc.Buffer(make([]byte, 1<<16), 1<<22)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var v map[string]any
				if json.Unmarshal([]byte(data), &v) == nil {
					events <- v
				}
			}
		}
		close(events)
	}()
	first := <-events
	// The run writes another round: the page hears of it.
	log := filepath.Join(f.root, f.run, runfolder.MetricsFile)
	fh, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0o644)
	fh.WriteString(`{"round":99,"elapsed_seconds":600,"games":5}` + "\n")
	fh.Close()
	select {
	case second := <-events:
		if second["rounds"].(float64) != 99 {
			t.Errorf("rounds %v then %v", first["rounds"], second["rounds"])
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no update after the log grew")
	}
}

// An analysis with "infinite" goes past the budget a request may ask for
// (MaxSims) and ends only when the tree is full, at most MaxNodes nodes;
// threads outside 0 to mcts.MaxThreads are refused.
func TestAnalysisUntilStopped(t *testing.T) {
	f := newFixture(t)
	q := `{"game":{"name":"slider","size":4},"player":"player:` + f.player + `","infinite":true,"threads":2}`
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.ts.URL+"/api/analyze?q="+url.QueryEscape(q), nil)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var last map[string]any
	for _, ev := range readEvents(t, r.Body, 1_000_000) {
		last = ev
	}
	if last == nil || last["done"] != true || last["visits"].(float64) <= MaxSims {
		t.Errorf("last event %v: want done past %d visits", last, MaxSims)
	}
	code, v := f.get(t, "/api/analyze?q="+url.QueryEscape(`{"game":{"name":"slider","size":4},"player":"player:`+f.player+`","threads":1000}`))
	if code != http.StatusBadRequest || !strings.Contains(fmt.Sprint(v), "threads") {
		t.Errorf("threads 1000: %d %v", code, v)
	}
}

// builtin is a series' player of a spec of the built-in kinds.
func builtin(spec string) match.Entrant {
	return match.EntrantFunc(func(g env.Game, seed uint64) (player.Player, error) {
		return player.New(spec, g, player.Options{Seed: seed})
	})
}

// A player trained with input planes the game is played without (the
// shipped Connect Four player learned with its threats) analyses that
// game's positions as /api/move plays them, seen through its own input.
func TestAnalysisOfAPlayerWithMorePlanes(t *testing.T) {
	srv, err := New(Config{Root: "../checkpoints", MaxSearches: 1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	q := `{"game":{"name":"connect4"},"moves":["d","d"],"player":"player:connect4.player","sims":200,"top":3}`
	r, err := http.Get(ts.URL + "/api/analyze?q=" + url.QueryEscape(q))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if r.StatusCode != 200 {
		body, _ := io.ReadAll(r.Body)
		t.Fatalf("%d: %s", r.StatusCode, body)
	}
	events := readEvents(t, r.Body, 100)
	last := events[len(events)-1]
	if last["done"] != true || last["visits"].(float64) < 200 || len(last["moves"].([]any)) == 0 {
		t.Errorf("the analysis ended %v", last)
	}
}

// A records file of many games is listed up to MaxListedGames, read a
// game at a time, and any game of it is given by its number.
func TestLargeRecordsFile(t *testing.T) {
	f := newFixture(t)
	data, err := os.ReadFile(filepath.Join(f.root, f.recs))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	n := MaxListedGames + 7
	if err := os.WriteFile(filepath.Join(f.root, "big.jsonl"), []byte(strings.Repeat(first+"\n", n)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, v := f.get(t, "/api/record?path=big.jsonl")
	if code != 200 || len(v["games"].([]any)) != MaxListedGames || v["more"] != true {
		t.Errorf("list: %d, %d games, more %v", code, len(v["games"].([]any)), v["more"])
	}
	if code, v := f.get(t, fmt.Sprintf("/api/record?path=big.jsonl&number=%d", n)); code != 200 || v["plies"] == nil {
		t.Errorf("the last game: %d %v", code, v)
	}
	if code, v := f.get(t, fmt.Sprintf("/api/record?path=big.jsonl&number=%d", n+1)); code != 400 || !strings.Contains(fmt.Sprint(v["error"]), fmt.Sprintf("1 to %d", n)) {
		t.Errorf("past the last game: %d %v", code, v)
	}
}
