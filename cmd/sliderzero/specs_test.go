package main

import (
	"strings"
	"testing"
)

// A single spec with options is one spec, whichever separator the list uses.
func TestSplitSpecs(t *testing.T) {
	for list, want := range map[string]string{
		"random;greedy":                       "random|greedy",
		"random,greedy, alphabeta:depth=2":    "random|greedy|alphabeta:depth=2",
		"player:a.player,sims=100":            "player:a.player,sims=100",
		"player:a.player,sims=100,random":     "player:a.player,sims=100|random",
		"mcts:sims=10,c=2;player:b,sims=5":    "mcts:sims=10,c=2|player:b,sims=5",
		"engine:cmd=prog --x=1,time=1,name=n": "engine:cmd=prog --x=1,time=1,name=n",
		" ; random ;":                         "random",
	} {
		if got := strings.Join(splitSpecs(list), "|"); got != want {
			t.Errorf("splitSpecs(%q) = %q, want %q", list, got, want)
		}
	}
}
