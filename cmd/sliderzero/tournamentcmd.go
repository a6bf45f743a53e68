package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
)

const tournamentAbout = `Plays a round robin: every pair of players meets for --games games,
colours alternating. Then it fits Bradley-Terry ratings by maximum
likelihood over all games (ties as half points), anchored at random = 0
(or at the first player when random does not take part), and prints them
with 95% intervals, and the cross table of scores.

Separate the players' specs with semicolons when a spec contains commas:
  --players "random;greedy;mcts:sims=1000;alphabeta:depth=4"
or with commas when none does: --players random,greedy,alphabeta

`

func runTournament(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("tournament", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, false)
	list := fs.String("players", "random;greedy;mcts:sims=1000;alphabeta:depth=4", "player specs, separated by ; (or by , when no spec has a comma)")
	var sf seriesFlags
	sf.register(fs, 20, "games per pair", "file of start positions, one a line; each pair of games plays one, colours swapped")
	if err := parseFlags(fs, args, io, tournamentAbout+playerHelp()); err != nil {
		return ignoreHelp(err)
	}
	g, err := gf.build()
	if err != nil {
		return err
	}
	specs := splitSpecs(*list)
	if len(specs) < 2 {
		return usageError{fmt.Errorf("tournament: --players needs at least two players")}
	}
	if pairs := len(specs) * (len(specs) - 1) / 2; pairs > maxGames / *sf.games {
		return tooMany("tournament", fmt.Sprintf("%d players, %d games a pair", len(specs), *sf.games), pairs**sf.games, maxGames, "games")
	}
	series, err := sf.series(gf.spec, g, specs...)
	if err != nil {
		return err
	}
	setups, names, err := readEntrants(&sf, specs, g)
	if err != nil {
		return err
	}
	sf.drawSeed(gf.spec, io.out)
	write, finish, abort, err := openRecords(*sf.records, *sf.appendTo)
	if err != nil {
		return err
	}
	defer abort()
	series.OnRecord = write
	pairs := len(specs) * (len(specs) - 1) / 2
	bar := newCountBar(io.err, pairs**sf.games, "games")
	series.Seed = *sf.seed
	res, err := match.Tournament{Names: names, Entrants: entrants(setups), OnGame: func() { bar.Add(1) }, Series: series}.Run(ctx)
	bar.Finish()
	if err != nil {
		return err
	}
	return printTournament(io, g, specs, *sf.games, res, *sf.records, finish)
}

// readEntrants reads the players' specs, once each, with their names.
func readEntrants(sf *seriesFlags, specs []string, g env.Game) ([]*player.Setup, []string, error) {
	players := new(tables).players()
	setups := make([]*player.Setup, len(specs))
	names := make([]string, len(specs))
	for i, spec := range specs {
		var err error
		if setups[i], err = sf.read(players, "--players", spec, g); err != nil {
			return nil, nil, err
		}
		names[i] = setups[i].Name()
	}
	return setups, names, nil
}

// printTournament prints a tournament's ratings, cross table and losses
// not by the rules, and puts its games in records when given (finish).
func printTournament(io stdio, g env.Game, specs []string, gamesPer int, res match.TournamentResult, records string, finish func() error) error {
	if res.Interrupted {
		fmt.Fprintf(io.out, "interrupted: %d of %d games were finished, and count\n", res.Games, len(specs)*(len(specs)-1)/2*gamesPer)
	}
	anchor := 0
	for i, sp := range specs {
		if sp == "random" {
			anchor = i
		}
	}
	ratings, err := res.Table.Fit(anchor)
	if err != nil && !res.Interrupted {
		return err
	}
	fmt.Fprintf(io.out, "%s, %d games per pair\n\n", g.Describe(), gamesPer)
	if err != nil {
		fmt.Fprintf(io.out, "no ratings from the games finished: %v\n", err)
	} else {
		printRatings(io, ratings)
	}
	fmt.Fprintln(io.out, "\nscore of the row player against the column player:")
	printCrossTable(io, res.Table)
	if len(res.Forfeits) > 0 {
		fmt.Fprintln(io.out, "\nlosses not by the rules:")
		for _, l := range res.Forfeits {
			fmt.Fprintln(io.out, "  "+l)
		}
	}
	if err := finish(); err != nil {
		return err
	}
	if records != "" {
		fmt.Fprintf(io.out, "\ngames saved to %s\n", records)
	}
	if res.Interrupted {
		return fmt.Errorf("tournament interrupted after %d games", res.Games)
	}
	return nil
}

// entrants are setups as a series' entrants.
func entrants(setups []*player.Setup) []match.Entrant {
	out := make([]match.Entrant, len(setups))
	for i, s := range setups {
		out[i] = s
	}
	return out
}

// splitSpecs splits a list of specs on semicolons, or on commas when there
// is no semicolon (where an option after a comma stays with its spec).
func splitSpecs(list string) []string {
	sep := ";"
	if !strings.Contains(list, ";") {
		sep = ","
	}
	var out []string
	for _, s := range strings.Split(list, sep) {
		s = strings.TrimSpace(s)
		// Split on commas, "player:FILE,sims=100" is one spec: a piece
		// that is a key=value belongs to the spec before it.
		if sep == "," && len(out) > 0 && isOption(s) {
			out[len(out)-1] += "," + s
			continue
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// isOption reports whether a piece of a comma-separated list of player
// specs is a spec's option (key=value) rather than a spec.
func isOption(s string) bool {
	eq := strings.IndexByte(s, '=')
	colon := strings.IndexByte(s, ':')
	return eq > 0 && (colon < 0 || eq < colon)
}

func printRatings(io stdio, ratings []rating.Rating) {
	width := 6
	for _, r := range ratings {
		width = max(width, len(r.Name))
	}
	fmt.Fprintf(io.out, "%-*s %7s %17s %6s %7s\n", width, "player", "Elo", "95% interval", "games", "score")
	order := make([]int, len(ratings))
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && ratings[order[j]].Elo > ratings[order[j-1]].Elo; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, i := range order {
		r := ratings[i]
		interval := "(anchor)"
		if !r.Anchor {
			interval = fmt.Sprintf("[%s, %s]", rating.FormatElo(r.Lo), rating.FormatElo(r.Hi))
		}
		fmt.Fprintf(io.out, "%-*s %7s %17s %6.0f %6.1f%%\n", width, r.Name, rating.FormatElo(r.Elo), interval, r.Games, 100*r.Score)
	}
}

func printCrossTable(io stdio, t *rating.Table) {
	n := len(t.Names)
	fmt.Fprintf(io.out, "%4s", "")
	for j := 0; j < n; j++ {
		fmt.Fprintf(io.out, " %6d", j+1)
	}
	fmt.Fprintln(io.out)
	for i := 0; i < n; i++ {
		fmt.Fprintf(io.out, "%3d.", i+1)
		for j := 0; j < n; j++ {
			p, g := t.Result(i, j)
			if i == j || g == 0 {
				fmt.Fprintf(io.out, " %6s", "-")
				continue
			}
			fmt.Fprintf(io.out, " %5.0f%%", 100*p/g)
		}
		fmt.Fprintf(io.out, "  %s\n", t.Names[i])
	}
}
