// Command table prints the lever harness's results as a Markdown table:
// for each run named, the accuracy on the real-game and random 5x5 sets at
// each evaluation (with the 95% interval), conversion, and the run's mean
// simulations a second.
//
//	go build -C experiments/strength2/table # from the repository's root; then
//	experiments/strength2/table/table base capnet
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

type setResult struct {
	Set       string  `json:"set"`
	Kept      int     `json:"kept"`
	Total     int     `json:"total"`
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
	Converted int     `json:"converted"`
	Played    int     `json:"played"`
}

type line struct {
	Elapsed  float64     `json:"elapsed_seconds"`
	Steps    int64       `json:"steps"`
	Games    int64       `json:"games"`
	Sims     float64     `json:"sims_per_second"`
	Accuracy []setResult `json:"accuracy"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: table RUN... (names under checkpoints/strength2-RUN)")
		os.Exit(2)
	}
	fmt.Println("| run | minute | steps | games | real-games kept [95%] | random kept [95%] | converted (real, random) | sims/s (mean) |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, name := range os.Args[1:] {
		path := filepath.Join("checkpoints", "strength2-"+name, "metrics.jsonl")
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var sims float64
		var n int
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var l line
			if json.Unmarshal(sc.Bytes(), &l) != nil {
				continue
			}
			if l.Sims > 0 {
				sims += l.Sims
				n++
			}
			if len(l.Accuracy) == 0 {
				continue
			}
			cells := map[string]string{}
			conv := ""
			for _, a := range l.Accuracy {
				cells[a.Set] = fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*float64(a.Kept)/float64(max(a.Total, 1)), 100*a.Lo, 100*a.Hi)
				if conv != "" {
					conv += ", "
				}
				conv += fmt.Sprintf("%d/%d", a.Converted, a.Played)
			}
			fmt.Printf("| %s | %.0f | %d | %d | %s | %s | %s | %.0fk |\n", name, l.Elapsed/60, l.Steps, l.Games,
				cells["real-games"], cells["random"], conv, sims/float64(max(n, 1))/1e3)
		}
		f.Close()
	}
}
