package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
)

// do sends a request with the given headers and returns its status and
// body.
func (f *fixture) do(t *testing.T, method, path, body string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, f.ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	data, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(data)
}

// Requests addressed to another host (DNS rebinding) are refused, and so
// are API requests from another site's page; the app's own page, other
// loopback names and --allow-host names pass.
func TestHostAndOrigin(t *testing.T) {
	f := newFixture(t)
	f.srv.cfg.AllowHosts = []string{"sliderzero.lan"}
	state := `{"game":{"name":"slider","size":4}}`
	cases := []struct {
		name   string
		method string
		path   string
		header map[string]string
		want   int
	}{
		{"a rebinding host", "GET", "/api/records", map[string]string{"Host": "attacker.example"}, 403},
		{"a rebinding host, the page", "GET", "/", map[string]string{"Host": "attacker.example:8080"}, 403},
		{"localhost", "GET", "/api/records", map[string]string{"Host": "localhost:8080"}, 200},
		{"an allowed name", "GET", "/api/records", map[string]string{"Host": "sliderzero.lan"}, 200},
		{"another site's page", "POST", "/api/state", map[string]string{"Origin": "http://attacker.example", "Content-Type": "text/plain"}, 403},
		{"a cross-site fetch", "POST", "/api/state", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"the app's own page", "POST", "/api/state", map[string]string{"Origin": f.ts.URL, "Sec-Fetch-Site": "same-origin"}, 200},
	}
	for _, c := range cases {
		code, body := f.do(t, c.method, c.path, state, c.header)
		if code != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, code, body, c.want)
		}
	}
}

// Errors name files as requests do, never by the root's place on the
// machine.
func TestErrorsHideTheRoot(t *testing.T) {
	f := newFixture(t)
	os.WriteFile(filepath.Join(f.root, "bad.player"), []byte("hello"), 0o644)
	_, body := f.do(t, "POST", "/api/move", `{"game":{"name":"slider","size":4},"player":"player:bad.player"}`, nil)
	if strings.Contains(body, f.root) || !strings.Contains(body, "bad.player") {
		t.Errorf("error shows the root or not the file: %s", body)
	}
}

// Every body and query is one JSON object and nothing more.
func TestStrictBodies(t *testing.T) {
	f := newFixture(t)
	for _, body := range []string{`{}xyz`, `{} {}`, `null`, `[]`, `"x"`, ``, `{"game":{"name":"slider"},"extra":1}`} {
		if code, _ := f.do(t, "POST", "/api/state", body, nil); code != 400 {
			t.Errorf("/api/state %q: %d, want 400", body, code)
		}
	}
	q := `{"game":{"name":"slider","size":4},"player":"player:tiny.player","bogus":true}`
	if code, _ := f.do(t, "GET", "/api/analyze?q="+q, "", nil); code != 400 {
		t.Errorf("/api/analyze with an unknown field: %d", code)
	}
}

// A FIFO under the root is refused at once, as a records file and as a
// player file: opening one for reading would wait for a writer forever.
func TestFIFOIsRefusedAtOnce(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	f := newFixture(t)
	for _, name := range []string{"pipe.jsonl", "pipe.player"} {
		if err := syscall.Mkfifo(filepath.Join(f.root, name), 0o644); err != nil {
			t.Skip(err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if code, body := f.do(t, "GET", "/api/record?path=pipe.jsonl", "", nil); code != 400 || !strings.Contains(body, "not a regular file") {
			t.Errorf("a FIFO as records: %d %s", code, body)
		}
		if code, body := f.do(t, "POST", "/api/move", `{"game":{"name":"slider","size":4},"player":"player:pipe.player"}`, nil); code != 400 || !strings.Contains(body, "not a regular file") {
			t.Errorf("a FIFO as a player: %d %s", code, body)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a FIFO under the root held the request")
	}
}

// longGame is a legal game of n plies on a 5x5 board whose ply cap ends
// it: each side shuffles its pieces back and forth.
func longGame(t testing.TB, n int) match.Record {
	spec := registry.Spec{Name: "slider"}.With("size", "5").With("plycap", strconv.Itoa(n))
	g, err := games.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start(nil)
	rec := match.Record{Spec: spec, Start: s.String(), Players: [2]string{"a", "b"}}
	rng := rand.New(rand.NewPCG(1, 2))
	var legal []int
	for !s.Outcome().Over {
		legal = s.LegalActions(legal[:0])
		// Prefer moves that neither exit nor advance for good.
		var quiet []int
		for _, a := range legal {
			m := s.ActionString(a)
			if side := s.ToMove(); (side == 0 && (strings.HasSuffix(m, "U") || strings.HasSuffix(m, "D"))) || (side == 1 && (strings.HasSuffix(m, "L") || strings.HasSuffix(m, "R"))) {
				quiet = append(quiet, a)
			}
		}
		if len(quiet) == 0 {
			quiet = legal
		}
		a := quiet[rng.IntN(len(quiet))]
		rec.Moves = append(rec.Moves, s.ActionString(a))
		s.Apply(a)
	}
	rec.Outcome = s.Outcome()
	if len(rec.Moves) < n {
		t.Fatalf("the shuffle ended after %d plies", len(rec.Moves))
	}
	rec.End = match.EndPlyCap
	return rec
}

// A long game's replay costs a request its moves, not its moves squared:
// the game is served as moves, and positions one ply at a time.
func TestLongRecordsReplayInBoundedMemory(t *testing.T) {
	f := newFixture(t)
	plies := 20001
	if n, err := strconv.Atoi(os.Getenv("SLIDERZERO_LONG_PLIES")); err == nil && n > 0 {
		plies = n // the 200,001 of the hardening trial
	}
	rec := longGame(t, plies)
	var buf bytes.Buffer
	match.WriteRecords(&buf, []match.Record{rec})
	os.WriteFile(filepath.Join(f.root, "long.jsonl"), buf.Bytes(), 0o644)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code, body := f.do(t, "GET", "/api/record?path=long.jsonl&number=1", "", nil)
	if code != 200 {
		t.Fatalf("%d %s", code, body[:min(len(body), 300)])
	}
	var game struct {
		Plies int `json:"plies"`
	}
	json.Unmarshal([]byte(body), &game)
	code, last := f.do(t, "GET", fmt.Sprintf("/api/record?path=long.jsonl&number=1&ply=%d", game.Plies), "", nil)
	runtime.ReadMemStats(&after)
	if code != 200 || game.Plies != len(rec.Moves) || !strings.Contains(last, `"ply":`+fmt.Sprint(game.Plies)) {
		t.Fatalf("ply %d of %d: %d %s", game.Plies, len(rec.Moves), code, last)
	}
	t.Logf("a %d-ply game: %d bytes as moves, %d for its last position; %d MB allocated in all", len(rec.Moves), len(body), len(last), (after.TotalAlloc-before.TotalAlloc)>>20)
	if len(body) > 100*len(rec.Moves) {
		t.Errorf("the game's answer is %d bytes for %d plies", len(body), len(rec.Moves))
	}
}

// The web app refuses the game settings the command line's flags refuse:
// a setting the game does not have, a number out of its range, an edge
// cell blocked in a layout (once accepted and ignored, or played).
func TestGameSettingsAreCheckedAsOnTheCommandLine(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		game map[string]any
		want string
	}{
		{map[string]any{"name": "slider", "pawns": 4}, "slider has no setting pawns"},
		{map[string]any{"name": "slider", "base": 2}, "slider has no setting base"},
		{map[string]any{"name": "slider", "size": 99}, "slider size=99: want a whole number from 3 to 8"},
		{map[string]any{"name": "slider", "size": 5, "blocked": "a1"}, "edge"},
		{map[string]any{"name": "connect4", "size": 5}, "connect4 has no setting size (its settings: features)"},
		{map[string]any{"name": "connect4", "first": "O"}, "connect4 has no setting first (its settings: features)"},
		{map[string]any{"name": "rlgame", "base": 9}, "rlgame base=9: want a whole number from 1 to 3"},
	} {
		code, v := f.post(t, "/api/state", map[string]any{"game": c.game, "moves": []string{}})
		msg, _ := v["error"].(string)
		if code != 400 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: %d %q, want 400 with %q", c.game, code, msg, c.want)
		}
	}
}

// An error quotes what it refuses, cut short.
func TestLongBadInputIsQuotedShortOnTheWeb(t *testing.T) {
	f := newFixture(t)
	code, v := f.post(t, "/api/state", map[string]any{"game": map[string]any{"name": "slider", "size": 4}, "moves": []string{strings.Repeat("z", 5000)}})
	msg, _ := v["error"].(string)
	if code != 400 || len(msg) > 410 || !strings.Contains(msg, "move 1") {
		t.Errorf("%d: %d characters: %.200s", code, len(msg), msg)
	}
}

// Every API answer is JSON, a wrong path's and a wrong method's too.
func TestUnknownAPIRoutesAnswerJSON(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		method, path string
		code         int
		want         string
	}{
		{"GET", "/api/nonexistent", 404, "no such endpoint"},
		{"GET", "/api/state", 405, "want POST"},
		{"PUT", "/api/info", 405, "want GET"},
	} {
		code, body := f.do(t, c.method, c.path, "", nil)
		var v map[string]string
		if err := json.Unmarshal([]byte(body), &v); err != nil || code != c.code || !strings.Contains(v["error"], c.want) {
			t.Errorf("%s %s: %d %q, want %d and JSON with %q", c.method, c.path, code, body, c.code, c.want)
		}
	}
	if code, _ := f.do(t, "GET", "/", "", nil); code != 200 {
		t.Errorf("the app's page: %d", code)
	}
}

// A records file that does not replay is refused naming it once, under the
// root, and the line at fault.
func TestBadRecordsNamedOnce(t *testing.T) {
	f := newFixture(t)
	os.WriteFile(filepath.Join(f.root, "bad.jsonl"), []byte(`{"spec":{"name":"slider","size":4},"start":"H+++/H+++/H+++/+VVV H","moves":["a1U"],"winner":0}`+"\n"), 0o644)
	code, body := f.do(t, "GET", "/api/record?path=bad.jsonl", "", nil)
	if code != 400 || strings.Count(body, "bad.jsonl") != 1 || strings.Contains(body, f.root) || !strings.Contains(body, "line 1") {
		t.Errorf("a records file that does not replay: %d %s", code, body)
	}
}
