package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"time"

	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

const selfplayAbout = `Plays self-play games for a trainer in another process, perhaps on
another machine (sliderzero train --selfplay external). It reads the run's
configuration and the newest published weights from LOCATION (a folder, or
a bucket: s3://, gs://, azblob://, file://), plays a round of
games_per_round games, writes it as a shard named after this process
(host, pid, a random number) so that no two processes collide, and starts
again with the newest weights. A kill loses only the round in progress:
a shard appears whole or not at all. Start as many as there are machines
and cores to fill; the trainer drops rounds played with weights more than
max_weights_lag versions old.

Example: sliderzero selfplay --run checkpoints/dist --workers 2`

func runSelfplay(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("selfplay", flag.ContinueOnError)
	location := fs.String("run", "", "where the trainer publishes: a folder, a bucket URL, or a run's name for checkpoints/<name> (required)")
	workers := parallelVar(fs, "workers", runtime.NumCPU(), "self-play goroutines")
	rounds := countVar(fs, "rounds", 0, "rounds to play before stopping (0: until stopped)")
	seed := fs.Uint64("seed", 1, "seed of the games, mixed with this process's name")
	quiet := fs.Bool("quiet", false, "no log lines (but for the storage's failures)")
	storageWait := storageWaitVar(fs)
	if err := parseFlags(fs, args, io, selfplayAbout); err != nil {
		return ignoreHelp(err)
	}
	if *location == "" {
		return usageError{fmt.Errorf("selfplay: --run LOCATION is required")}
	}
	*location = namedRun(*location)
	st, err := runstore.Open(ctx, *location)
	if err != nil {
		return err
	}
	defer st.Close()
	st.WaitForStorage(*storageWait, io.err)
	if _, err := st.Read(ctx, selfplay.ConfigKey, 1<<20); errors.Is(err, runstore.ErrNotFound) && !*quiet {
		fmt.Fprintf(io.err, "waiting for a trainer to publish a run at %s (no %s there yet): start it with sliderzero train --selfplay external, or check the location\n", *location, selfplay.ConfigKey)
	}
	p, err := train.OpenProducer(ctx, st, *workers, *seed)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	if err != nil {
		return err
	}
	if !*quiet {
		p.Log = io.err
		fmt.Fprintf(io.err, "self-play %s for %s\n", p.Name(), *location)
	}
	err = p.Run(ctx, *rounds)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// storageWaitVar is the flag of how long a process waits for a bucket
// that fails (its server restarted, the network cut) before it gives up.
func storageWaitVar(fs *flag.FlagSet) *time.Duration {
	w := waitFlag(15 * time.Minute)
	fs.Var(&w, "storage-wait", "how long to wait for a bucket that fails (a server restarted, the network cut), trying again with a log line, before giving up (0: at once)")
	return (*time.Duration)(&w)
}

// waitFlag is a duration flag that refuses a negative value as it is
// parsed.
type waitFlag time.Duration

func (w *waitFlag) String() string { return time.Duration(*w).String() }
func (w *waitFlag) Get() any       { return time.Duration(*w) }

func (w *waitFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("want a duration of at least 0, such as 15m")
	}
	*w = waitFlag(d)
	return nil
}
