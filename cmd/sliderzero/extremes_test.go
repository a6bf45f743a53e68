//go:build unix

package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/mcts"
)

// extremes are the values every numeric flag is tried at: 0, -1, its
// type's largest, and NaN where it takes decimals.
var extremes = map[string][]string{
	"int":      {"0", "-1", "9223372036854775807"},
	"uint":     {"0", "-1", "18446744073709551615"},
	"float":    {"0", "-1", "1.7976931348623157e308", "NaN"},
	"duration": {"0s", "-1ns", "2562047h47m16.854775807s"},
}

// numericFlags are a command's flags that take a number, with the kind of
// extremes to try: by the value's type, and for a search setting given
// as text (export's) by the setting's.
func numericFlags(t *testing.T, command string) map[string]string {
	t.Helper()
	var fs *flag.FlagSet
	inspectFlags = func(f *flag.FlagSet) { fs = f }
	defer func() { inspectFlags = nil }()
	runCmd(t, "", command, "--help")
	out := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok {
			switch g.Get().(type) {
			case int, int64:
				out[f.Name] = "int"
			case uint, uint64:
				out[f.Name] = "uint"
			case float64:
				out[f.Name] = "float"
			case time.Duration:
				out[f.Name] = "duration"
			}
			return
		}
		if s, _, ok := mcts.LookupSetting(f.Name); ok && s.Name == f.Name {
			switch s.Type {
			case mcts.Whole:
				out[f.Name] = "int"
			case mcts.Number, mcts.Seconds:
				out[f.Name] = "float"
			}
		}
	})
	return out
}

// Every command's numeric flags at their extremes (issue 65: match
// --games 100000000 died with a Go stack trace, --table-mb 100000 and
// --parallel 100000 took gigabytes): each run answers with the status of
// a usage error (2, one line) or works, ends within 2 s of an interrupt,
// never shows a stack trace, and stays under 1 GB. A negative count and
// NaN are always usage errors. The game settings are tried on the
// commands that read them each their own way (match for all, solve's
// table and train's).
func TestNumericFlagsAtTheirExtremes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command a few hundred times")
	}
	dir := t.TempDir()
	root, _ := filepath.Abs("../..")
	set := filepath.Join(root, "checkpoints/tables/connect4-random.set")
	records := filepath.Join(dir, "games.jsonl")
	if _, err := runCmd(t, "", "match", "--a", "random", "--b", "random", "--games", "2", "--size", "4", "--records", records); err != nil {
		t.Fatal(err)
	}
	gameSettings := settingKeys()
	base := map[string][]string{
		"accuracy":   {"--set", set, "--player", "random", "--positions", "3"},
		"bench":      {"--seconds", "0.05", "--size", "4"},
		"engine":     {"--player", "random"},
		"export":     {"--checkpoint", filepath.Join(root, "checkpoints/slider-5x5.player"), "--out", filepath.Join(dir, "x.player"), "--force"},
		"match":      {"--a", "random", "--b", "random", "--games", "2", "--size", "4"},
		"openings":   {"--count", "1", "--size", "4", "--judge", "mcts:sims=20"},
		"play":       {"--p1", "random", "--p2", "random", "--size", "4"},
		"prove":      {"--size", "4", "--nodes", "1000"},
		"replay":     {"--records", records, "--all"},
		"selfplay":   {"--run", filepath.Join(dir, "shared")},
		"serve":      {"--addr", "127.0.0.1:0", "--root", dir},
		"sets":       {"--game", "connect4", "--from", "random", "--count", "2", "--min-ply", "30", "--nodes", "100000", "--out", filepath.Join(dir, "s.set"), "--force"},
		"solve":      {"--size", "3", "--positions", "10", "--out", filepath.Join(dir, "t.table"), "--force"},
		"tournament": {"--players", "random;greedy", "--games", "2", "--size", "4"},
		"train":      {"--run", filepath.Join(dir, "run")},
	}
	commands := make([]string, 0, len(base))
	for c := range base {
		commands = append(commands, c)
	}
	slices.Sort(commands)
	for _, command := range commands {
		flags := numericFlags(t, command)
		names := make([]string, 0, len(flags))
		for name := range flags {
			if !slices.Contains(gameSettings, name) || command == "match" || command == "train" || command == "solve" {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			args := base[command]
			if command == "solve" && slices.Contains(positionFlags, name) {
				args = []string{"--game", "connect4", "--time", "0.1s"}
			}
			for _, v := range extremes[flags[name]] {
				if command == "train" { // a run folder each
					args = []string{"--run", filepath.Join(dir, fmt.Sprintf("run-%s-%s", name, v))}
				}
				line := fmt.Sprintf("%s %s --%s=%s", command, strings.Join(args, " "), name, v)
				status, stderr, peak, late := runInterrupted(t, dir, append(append([]string{command}, args...), "--"+name+"="+v))
				first, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n")
				t.Logf("%s: status %d, %d MB: %.120s", line, status, peak>>20, first)
				switch {
				case late:
					t.Errorf("%s: still running 2 s after the interrupt", line)
				case strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic:") || strings.Contains(stderr, "fatal error"):
					t.Errorf("%s: a stack trace:\n%.600s", line, stderr)
				case status < 0 || status > 2:
					t.Errorf("%s: exit status %d: %s", line, status, first)
				case (v == "-1" || v == "-1ns" || v == "NaN") && status != 2:
					t.Errorf("%s: exit status %d, want 2 (a usage error): %s", line, status, first)
				case status == 2 && (strings.Count(strings.TrimSpace(stderr), "\n") > 0 || !strings.HasPrefix(first, "sliderzero: ")):
					t.Errorf("%s: a usage error of more than one line:\n%.400s", line, stderr)
				case peak > 1<<30:
					t.Errorf("%s: peak memory %d MB", line, peak>>20)
				}
			}
		}
	}
}

// runInterrupted runs the built command in dir with standard input
// "44444453\n" (a position for solve, an unknown line for the engine),
// under a 4 GB address space, sends it SIGINT after a second, and says
// its exit status, standard error, peak memory in bytes, and whether it
// outlived the interrupt by 2 s (it is then killed).
func runInterrupted(t *testing.T, dir string, args []string) (status int, stderr string, peak int64, late bool) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-c", `ulimit -v 4000000; exec "$0" "$@"`, binary}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader("44444453\n")
	var errBuf strings.Builder
	cmd.Stderr = &errBuf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Second):
		cmd.Process.Signal(os.Interrupt)
		select {
		case err = <-done:
		case <-time.After(2 * time.Second):
			late = true
			cmd.Process.Kill()
			err = <-done
		}
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		status = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak = int64(ru.Maxrss) << 10 // kilobytes on Linux
		if runtime.GOOS == "darwin" {
			peak = int64(ru.Maxrss)
		}
	}
	return status, errBuf.String(), peak, late
}
