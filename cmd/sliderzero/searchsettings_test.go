package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/web"
)

// settingValues are a value each setting takes and one it refuses.
func settingValues(s mcts.Setting) (ok, bad string) {
	bad = strconv.FormatFloat(s.Max*2+1, 'f', -1, 64)
	switch s.Type {
	case mcts.Switch:
		return "true", "maybe"
	case mcts.Number:
		return strconv.FormatFloat((s.Min+s.Max)/2, 'f', -1, 64), bad
	case mcts.Seconds:
		return "1", bad
	}
	return strconv.FormatFloat(s.Min, 'f', -1, 64), bad
}

// Every search setting has one name on every surface that takes it: a
// player spec, the engine's set, the web app's requests, export's flags
// and a training configuration's "search" object each take it by that
// name, and each names it so when refusing a value out of its range.
func TestSearchSettingsHaveOneName(t *testing.T) {
	const file = "../../player/testdata/slider-5x5-ship5.player"
	g, err := games.New(registry.Spec{Name: "slider"}.With("size", "5"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(web.Config{Root: "../../player/testdata", MaxSearches: 2})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	out := t.TempDir() + "/p.player"
	for _, s := range mcts.Settings() {
		ok, bad := settingValues(s)
		check := func(surface string, err error, want bool) {
			t.Helper()
			switch {
			case want && err != nil:
				t.Errorf("%s: %s=%s refused: %v", surface, s.Name, ok, err)
			case !want && (err == nil || !strings.Contains(err.Error(), s.Name)):
				t.Errorf("%s: %s=%s: got %v, want an error naming %s", surface, s.Name, bad, err, s.Name)
			}
		}
		if s.Play {
			for _, c := range []struct {
				v    string
				want bool
			}{{ok, true}, {bad, false}} {
				_, err := player.New(fmt.Sprintf("player:%s,%s=%s", file, s.Name, c.v), g, player.Options{})
				check("spec", err, c.want)
				msg, _ := runCmd(t, fmt.Sprintf("set %s %s\n", s.Name, c.v), "engine", "--player", "player:"+file)
				var eerr error
				if !strings.HasPrefix(msg, "=") {
					eerr = fmt.Errorf("%s", msg)
				}
				check("engine", eerr, c.want)
				budget := ",sims=2"
				if s.Name == "sims" {
					budget = ""
				}
				check("web", webMove(ts.URL, fmt.Sprintf("player:slider-5x5-ship5.player,%s=%s%s", s.Name, c.v, budget)), c.want)
				if s.Name != "threads" {
					_, err := runCmd(t, "", "export", "--checkpoint", file, "--out", out, "--force", "--"+s.Name+"="+c.v)
					check("export", err, c.want)
				}
			}
		}
		if s.Train {
			for _, c := range []struct {
				v    string
				want bool
			}{{ok, true}, {bad, false}} {
				v := c.v
				if s.Type != mcts.Switch {
					v = strings.TrimSuffix(v, ".0")
				}
				_, err := train.ParseConfig([]byte(fmt.Sprintf(`{"search": {%q: %s}}`, s.Name, v)), "config.json")
				if s.Name == "sims" && c.want {
					err = nil // training searches 1 to 1,000,000 simulations; 1 is in range
				}
				if s.Type == mcts.Switch && !c.want {
					continue // JSON refuses "maybe" before any name is read
				}
				check("JSON", err, c.want)
			}
		}
	}
}

// webMove asks the web app for a move of the player spec.
func webMove(url, spec string) error {
	body, _ := json.Marshal(map[string]any{"game": map[string]any{"name": "slider", "size": 5}, "player": spec})
	r, err := http.Post(url+"/api/move", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer r.Body.Close()
	var v map[string]any
	json.NewDecoder(r.Body).Decode(&v)
	if r.StatusCode != 200 {
		return fmt.Errorf("%d %v", r.StatusCode, v["error"])
	}
	return nil
}
