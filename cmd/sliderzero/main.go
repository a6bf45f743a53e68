// Command sliderzero trains, plays and evaluates agents for Slider and
// other small board games. Run "sliderzero help" for the commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
	"io"
	"math"
	"os"
	"os/signal"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const version = "0.1.0"

// stdio is where a command reads and writes; tests replace it.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

type subcommand struct {
	summary string
	run     func(ctx context.Context, args []string, io stdio) error
}

func subcommands() map[string]subcommand {
	return map[string]subcommand{
		"train":      {"learn a game by self-play (the main job)", runTrain},
		"play":       {"play one game in the terminal, between people or players", runPlay},
		"engine":     {"drive a player over the line protocol on standard input and output", runEngine},
		"match":      {"play a series of games between two players and report the score", runMatch},
		"export":     {"turn a checkpoint into a player file", runExport},
		"report":     {"plots and a summary of a training run", runReport},
		"replay":     {"step through a saved game in the terminal", runReplay},
		"tournament": {"round robin between players, with fitted Elo ratings", runTournament},
		"solve":      {"solve a small Slider board, or Connect Four positions, exactly (for judging players)", runSolve},
		"prove":      {"prove who wins a position or each recorded game's result, by proof-number search", runProve},
		"accuracy":   {"share of critical positions on which a player keeps the exact value", runAccuracy},
		"sets":       {"write a set of critical positions with every move's exact score", runSets},
		"openings":   {"make a set of balanced start positions for matches", runOpenings},
		"selfplay":   {"play self-play games for a trainer in another process or on another machine", runSelfplay},
		"serve":      {"the local web app: play, analyse, replay and watch training in the browser", runServe},
		"bench":      {"measure the speed of the game and of the baseline searches", runBench},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stopProfile, err := startProfile()
	if err == nil {
		err = run(ctx, os.Args[1:], stdio{os.Stdin, os.Stdout, os.Stderr})
		if perr := stopProfile(); err == nil {
			err = perr
		}
	}
	if err != nil {
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		// Bounded: a message quotes what it refuses.
		fmt.Fprintln(os.Stderr, "sliderzero:", env.Excerpt(err.Error(), 400))
		os.Exit(exitStatus(err))
	}
}

// usageError is a command line the program cannot act on as written: an
// unknown command or flag, an argument where none is taken, a flag's value
// that is not one it takes. Scripts tell it from a failure while working
// by the exit status: 2, not 1.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// exitStatus is 2 for a bad command line (a usage error, a player spec
// that names no player) and 1 for any other failure.
func exitStatus(err error) int {
	var u usageError
	if errors.As(err, &u) || errors.Is(err, player.ErrBadSpec) {
		return 2
	}
	return 1
}

// errUsage ends a run whose command line was not a command: the usage was
// printed, and the exit status is 2.
var errUsage = errors.New("no command given")

func run(ctx context.Context, args []string, io stdio) error {
	cmds := subcommands()
	if len(args) == 0 {
		usage(io.err, cmds)
		return errUsage
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			if c, ok := cmds[args[1]]; ok {
				return c.run(ctx, []string{"--help"}, io)
			}
			return unknownCommand(args[1], cmds)
		}
		usage(io.out, cmds)
		return nil
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(io.out, "sliderzero", version)
		return nil
	}
	c, ok := cmds[args[0]]
	if !ok {
		return unknownCommand(args[0], cmds)
	}
	return c.run(ctx, args[1:], io)
}

func unknownCommand(name string, cmds map[string]subcommand) error {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	if guess := closest(name, names); guess != "" {
		return usageError{fmt.Errorf("unknown command %q; did you mean %s? (sliderzero help lists them)", name, guess)}
	}
	return usageError{fmt.Errorf("unknown command %q (sliderzero help lists them)", name)}
}

// closest returns the candidate nearest to s by edit distance, if it is
// near enough to be a likely misspelling.
func closest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	sort.Strings(candidates)
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= max(1, len(s)/3) {
		return best
	}
	return ""
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of neighbouring letters that make a into b (optimal string alignment):
// a swap is the commonest slip of typing ("trian", "--gmaes"), and counts
// as one.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func usage(w io.Writer, cmds map[string]subcommand) {
	fmt.Fprintf(w, "sliderzero %s: self-play reinforcement learning for small board games\n\n", version)
	fmt.Fprintln(w, "Usage: sliderzero COMMAND [flags]\n\nCommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-11s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun sliderzero COMMAND --help for a command's flags.")
}

// parseFlags parses a command's flags. --help prints the usage to standard
// output and ends the command successfully (errHelp); a bad flag is a
// one-line error.
func parseFlags(fs *flag.FlagSet, args []string, io stdio, about string) error {
	if inspectFlags != nil {
		inspectFlags(fs)
	}
	fs.SetOutput(io.err)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: sliderzero %s [flags]\n\n%s\n\nFlags:\n", fs.Name(), strings.TrimSpace(about))
		printFlags(fs)
	}
	var sink strings.Builder
	fs.SetOutput(&sink)
	var bad refusal
	restore := watchValues(fs, &bad)
	err := fs.Parse(args)
	restore()
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(io.out)
		fs.Usage()
		return errHelp
	case err != nil:
		msg := err.Error()
		switch name, missing := scanFlags(fs, args); {
		case bad.err != nil:
			// The help writes flags with two dashes. The flag package's
			// own values say only "parse error": say what the flag takes.
			why := bad.err.Error()
			if t := reflect.TypeOf(bad.flagValue); t.Kind() == reflect.Pointer && t.Elem().PkgPath() == "flag" {
				why = wantOf(fs.Lookup(bad.name))
			}
			msg = fmt.Sprintf("--%s %q: %s", bad.name, bad.value, why)
		case missing != "":
			msg = "--" + missing + " needs a value"
			if want := wantOf(fs.Lookup(missing)); want != notAValue {
				msg += ": " + want
			}
		case name != "":
			msg = "unknown flag --" + name
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			if guess := closest(name, names); guess != "" {
				msg += "; did you mean --" + guess + "?"
			}
		}
		return usageError{fmt.Errorf("%s: %s (see sliderzero %s --help)", fs.Name(), msg, fs.Name())}
	case fs.NArg() > 0:
		return usageError{fmt.Errorf("%s: unexpected argument %q (see sliderzero %s --help)", fs.Name(), fs.Arg(0), fs.Name())}
	}
	// No command has a use for a number that is not one: NaN passes every
	// comparison a range check makes, and infinity every upper bound.
	var notNumber error
	fs.Visit(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok && notNumber == nil {
			if x, ok := g.Get().(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
				notNumber = usageError{fmt.Errorf("%s: --%s %s: want a finite number (see sliderzero %s --help)", fs.Name(), f.Name, f.Value, fs.Name())}
			}
		}
	})
	return notNumber
}

// inspectFlags, when set (by tests), sees each command's flags before
// they are parsed.
var inspectFlags func(fs *flag.FlagSet)

// refusal is the first value a flag refused while parsing.
type refusal struct {
	name, value string
	flagValue   flag.Value
	err         error
}

// watched is a flag's value that keeps the first value it refuses, so that
// a bad value is reported from what was refused, not read back out of the
// flag package's message.
type watched struct {
	flag.Value
	name string
	bad  *refusal
}

func (w watched) Set(s string) error {
	err := w.Value.Set(s)
	if err != nil && w.bad.err == nil {
		*w.bad = refusal{w.name, s, w.Value, err}
	}
	return err
}

// IsBoolFlag keeps a boolean flag one the parser takes without a value.
func (w watched) IsBoolFlag() bool {
	b, ok := w.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// watchValues wraps every flag's value for the parse, and returns what
// puts them back.
func watchValues(fs *flag.FlagSet, bad *refusal) (restore func()) {
	saved := map[*flag.Flag]flag.Value{}
	fs.VisitAll(func(f *flag.Flag) {
		saved[f] = f.Value
		f.Value = watched{f.Value, f.Name, bad}
	})
	return func() {
		for f, v := range saved {
			f.Value = v
		}
	}
}

// scanFlags reads args as the flag package reads them (flags end at the
// first other argument or at "--"; a flag not boolean and without "="
// takes the next argument) and returns the first flag fs does not
// define, or the flag left without its value at the end, or "" for each.
func scanFlags(fs *flag.FlagSet, args []string) (unknown, missing string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' || a == "--" {
			return "", ""
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := fs.Lookup(name)
		switch {
		case f == nil && (name == "help" || name == "h"):
			return "", ""
		case f == nil:
			return name, ""
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
			if i++; i == len(args) {
				return "", name
			}
		}
	}
	return "", ""
}

// wantOf says what kind of value a flag takes, for the flag package's
// bare "parse error".
func wantOf(f *flag.Flag) string {
	if f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			switch g.Get().(type) {
			case uint, uint64:
				return "want a whole number of at least 0"
			case int, int64:
				return "want a whole number"
			case float64:
				return "want a number"
			case bool:
				return "want true or false"
			case time.Duration:
				return "want a duration such as 90s or 1m30s"
			}
		}
	}
	return notAValue
}

// notAValue is what wantOf says of a flag whose kind it does not know.
const notAValue = "not a value this flag takes"

// errHelp ends a command after it printed its help.
var errHelp = errors.New("help shown")

// printFlags lists a command's flags the way the docs write them
// (--name), each with its default unless the text already says it or the
// default is a placeholder for "not given".
func printFlags(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		if r, ok := f.Value.(rangeFlag); ok {
			usage += " (" + strings.TrimPrefix(strings.TrimPrefix(r.span(), "from "), "of ") + ")"
		}
		if _, ok := f.Value.(flag.Getter); ok && arg == "value" {
			if _, isInt := f.Value.(flag.Getter).Get().(int); isInt {
				arg = "int"
			}
		}
		line := "  --" + f.Name
		if arg != "" {
			line += " " + arg
		}
		def := f.DefValue
		if def != "" && def != "0" && def != "false" && def != "-1" && !strings.Contains(usage, "default") {
			if _, isString := f.Value.(interface{ String() string }); isString && arg == "string" {
				def = strconv.Quote(def)
			}
			usage += " (default " + def + ")"
		}
		fmt.Fprintf(fs.Output(), "%s\n    \t%s\n", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
	})
}
