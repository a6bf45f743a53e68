package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/registry"
	slidersolve "github.com/sliderzero/sliderzero/env/slider/solve"
)

// The perfect-play verdict: Connect Four and Hex by their solvers, with
// every move's exact value; Slider only on a board whose table the server
// was given.
func TestPerfectPlayVerdict(t *testing.T) {
	tab, err := slidersolve.Solve(context.Background(), 4, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Root: t.TempDir(), Tables: []registry.Table{tab}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	post := func(body string) (int, perfectView, string) {
		t.Helper()
		r, err := http.Post(ts.URL+"/api/perfect", "application/json", bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		var raw bytes.Buffer
		raw.ReadFrom(r.Body)
		var v perfectView
		json.Unmarshal(raw.Bytes(), &v)
		return r.StatusCode, v, raw.String()
	}

	// A late position (solve --game connect4 answers 4444445333331221 with
	// 12, its columns 0 0 0 - 5 12 0): X wins in 3 plies by f.
	code, v, raw := post(`{"game":{"name":"connect4"},"moves":["d","d","d","d","d","d","e","c","c","c","c","c","a","b","b","a"]}`)
	if code != 200 || !v.Exact || v.Verdict != "win for X in 3 plies" || len(v.Moves) != 6 {
		t.Fatalf("%d %s", code, raw)
	}
	want := map[string]string{"a": "draws", "b": "draws", "c": "draws", "e": "wins in 17 plies", "f": "wins in 3 plies", "g": "draws"}
	for _, m := range v.Moves {
		if m.Verdict != want[m.Move] || m.Best != (m.Move == "f") {
			t.Errorf("move %s: %+v, want %q", m.Move, m, want[m.Move])
		}
	}
	// A position the time given does not settle gets bounds, said so.
	code, v, raw = post(`{"game":{"name":"connect4"},"moves":["d"],"seconds":0.2}`)
	if code != 200 || v.Exact || !strings.Contains(v.Verdict, "ran out") {
		t.Errorf("a hard position: %d %s", code, raw)
	}
	// Hex: Blue, up column c to c4, wins at once on b5 or c5; a move
	// elsewhere lets Red block, and Blue still wins later.
	code, v, raw = post(`{"game":{"name":"hex"},"moves":["c1","a1","c2","a2","c3","a3","c4","a4"]}`)
	if code != 200 || !v.Exact || v.Verdict != "win for Blue in 1 ply" || len(v.Moves) != 17 {
		t.Fatalf("hex: %d %s", code, raw)
	}
	var best []string
	for _, m := range v.Moves {
		if m.Best {
			best = append(best, m.Move+" "+m.Verdict)
		}
	}
	if strings.Join(best, ", ") != "b5 wins in 1 ply, c5 wins in 1 ply" {
		t.Errorf("hex: the best moves are %v", best)
	}
	// A time that is no time to give is refused at once, not taken for the
	// default (a negative one) or overflowed into a deadline already past
	// (9.3e9 seconds answered 503 "context deadline exceeded").
	for _, secs := range []string{"-1", "-0.001", "11", "9.3e9", "1e12", "1e308"} {
		if code, _, raw := post(`{"game":{"name":"connect4"},"moves":["d"],"seconds":` + secs + `}`); code != 400 || !strings.Contains(raw, "seconds=") {
			t.Errorf("seconds %s: %d %s, want 400 naming seconds", secs, code, raw)
		}
	}
	info := getJSON(t, ts.URL+"/api/info")
	if p, _ := info["perfect"].(map[string]any); p["connect4"] != true || p["hex"] != true || p["slider"] != true || p["rlgame"] == true {
		t.Errorf("info's perfect games: %v", info["perfect"])
	}

	// Slider: the table's board answers (4x4 is a draw, every first move
	// keeps it); another board is refused.
	code, v, raw = post(`{"game":{"name":"slider","size":4,"blocked":"none"},"moves":[]}`)
	if code != 200 || !v.Exact || v.Verdict != "draw" || len(v.Moves) != 4 || !v.Moves[0].Best {
		t.Fatalf("slider 4x4: %d %s", code, raw)
	}
	code, _, raw = post(`{"game":{"name":"slider","size":5,"blocked":"none"},"moves":[]}`)
	if code != 400 || !strings.Contains(raw, "no exact solver for slider") {
		t.Errorf("slider 5x5 without its table: %d %s", code, raw)
	}
	code, _, raw = post(`{"game":{"name":"connect4"},"moves":["a","z"]}`)
	if code != 400 {
		t.Errorf("an illegal move: %d %s", code, raw)
	}
}

func getJSON(t *testing.T, url string) map[string]any {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var v map[string]any
	json.NewDecoder(r.Body).Decode(&v)
	return v
}
