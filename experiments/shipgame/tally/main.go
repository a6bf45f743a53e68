// Command tally counts games against a perfect player by what each start
// is worth to the network: the games of a records file (match --records)
// and, line for line, their starts solved by sliderzero solve --weak.
// Usage: tally RECORDS.jsonl SOLVED.txt
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/match"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: tally RECORDS.jsonl SOLVED.txt")
		os.Exit(2)
	}
	recs, err := match.ReadRecords(os.Args[1])
	if err != nil {
		fail(err)
	}
	scores, err := readScores(os.Args[2])
	if err != nil {
		fail(err)
	}
	if len(scores) != len(recs) {
		fail(fmt.Errorf("%d games but %d solved starts", len(recs), len(scores)))
	}
	type key struct{ start, result string }
	count := map[key]int{}
	for i, rec := range recs {
		g, err := games.New(rec.Spec)
		if err != nil {
			fail(err)
		}
		st, err := g.ParseState(rec.Start)
		if err != nil {
			fail(err)
		}
		net := env.Side(0)
		if !strings.HasPrefix(rec.Players[0], "player:") {
			net = 1
		}
		value := sign(scores[i])
		if st.ToMove() != net {
			value = -value
		}
		result := "tie"
		switch rec.Outcome.Winner {
		case net:
			result = "win"
		case net.Other():
			result = "loss"
		}
		count[key{map[int]string{1: "won", 0: "drawn", -1: "lost"}[value], result}]++
	}
	for _, s := range []string{"won", "drawn", "lost"} {
		n := count[key{s, "win"}] + count[key{s, "tie"}] + count[key{s, "loss"}]
		fmt.Printf("%s starts for the network: %d games: %d wins, %d ties, %d losses\n", s, n, count[key{s, "win"}], count[key{s, "tie"}], count[key{s, "loss"}])
	}
}

// readScores reads the score (second field) of each line of solve's output.
func readScores(path string) ([]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 2 {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(fields[1]))
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", path, sc.Text(), err)
		}
		out = append(out, n)
	}
	return out, sc.Err()
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "tally:", err)
	os.Exit(1)
}
