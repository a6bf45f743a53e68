// Command sim plays a fleet of self-play producers against a real run's
// storage (experiments/fleet): each simulated producer writes a real
// shard (a copy of one a real producer wrote) every interval that gives
// the positions a second a measured producer offers, under its own key,
// labelled with the weights version it read from the storage just
// before, as a real producer does between rounds. The learner is a real
// sliderzero train --selfplay external on the same storage, started
// fresh for each fleet.
//
//	sim --shared LOC --template SHARD --producers N --rate R --seconds S
//
// waits for the learner's first weights, plays the fleet for S seconds
// and prints what it offered as one JSON line;
//
//	sim --checkpoint RUN
//
// prints, as one JSON line, what the learner did, from the checkpoint it
// saved when it was stopped: the positions it took, the games it
// dropped as stale, the samples it trained and the weights it published.
//
// The copies carry the template's producer name, so the learner's
// per-producer rates count them as one producer; encoding happens once
// per weights version, so that the simulator's own work stays small
// beside the learner's.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

func main() {
	loc := flag.String("shared", "", "the run's storage, the learner's --shared (a folder or s3:// URL)")
	template := flag.String("template", "", "a shard file a real producer wrote")
	producers := flag.Int("producers", 1, "simulated producers")
	rate := flag.Float64("rate", 4000, "positions a second each producer offers")
	seconds := flag.Float64("seconds", 60, "how long the fleet plays")
	seed := flag.Uint64("seed", 1, "seed of the producers' start offsets")
	checkpoint := flag.String("checkpoint", "", "instead: the learner's run folder, to report what it did")
	wait := flag.Duration("wait", 5*time.Minute, "how long to wait for the learner's first weights")
	flag.Parse()
	var err error
	switch {
	case *checkpoint != "":
	case *producers < 1 || *producers > 10_000:
		err = fmt.Errorf("--producers %d: want 1 to 10000", *producers)
	case !(*rate > 0 && *rate <= 1e9):
		err = fmt.Errorf("--rate %v: want a number of positions a second above 0", *rate)
	case !(*seconds > 0 && *seconds <= 86_400):
		err = fmt.Errorf("--seconds %v: want above 0 and at most a day", *seconds)
	case *wait <= 0:
		err = fmt.Errorf("--wait %v: want a positive duration", *wait)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sim:", err)
		os.Exit(2)
	}
	if *checkpoint != "" {
		err = report(*checkpoint)
	} else {
		err = play(*loc, *template, *producers, *rate, *seconds, *seed, *wait)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sim:", err)
		os.Exit(1)
	}
}

// encoded keeps the template encoded for each weights version.
type encoded struct {
	mu    sync.Mutex
	shard replay.Shard
	byVer map[int][]byte
}

func (e *encoded) bytes(v int) ([]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.byVer[v]; ok {
		return b, nil
	}
	s := e.shard
	s.WeightsVersion = v
	b, err := replay.Encode(&s)
	if err != nil {
		return nil, err
	}
	e.byVer[v] = b
	return b, nil
}

type offered struct {
	Producers     int     `json:"producers"`
	Seconds       float64 `json:"seconds"`
	OfferedPerSec float64 `json:"offered_positions_per_second"`
	Shards        int64   `json:"shards_written"`
	WriteErrors   int64   `json:"write_errors"`
	WriteMeanMs   float64 `json:"write_mean_ms"`
	WriteMaxMs    float64 `json:"write_max_ms"`
	// BehindSeconds is how late a shard was written against its
	// schedule, on average: the simulator's (or the server's) own limit.
	BehindSeconds float64 `json:"behind_seconds"`
}

func play(loc, template string, producers int, rate, seconds float64, seed uint64, wait time.Duration) error {
	ctx := context.Background()
	st, err := runstore.Open(ctx, loc)
	if err != nil {
		return err
	}
	defer st.Close()
	data, err := os.ReadFile(template)
	if err != nil {
		return err
	}
	tmpl, _, err := replay.Decode(data, template, false)
	if err != nil {
		return err
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(200 * time.Millisecond) {
		v, err := selfplay.CurrentVersion(ctx, st)
		if err != nil {
			return err
		}
		if v >= 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no weights published at %s after %v: is the learner running there?", loc, wait)
		}
	}
	enc := &encoded{shard: *tmpl, byVer: map[int][]byte{}}
	interval := time.Duration(float64(len(tmpl.Samples)) / rate * float64(time.Second))
	start := time.Now()
	end := start.Add(time.Duration(seconds * float64(time.Second)))
	rng := rand.New(rand.NewPCG(seed, 1))
	var written, errs, behindNs, writeNs, writeMaxNs atomic.Int64
	var wg sync.WaitGroup
	for p := 0; p < producers; p++ {
		offset := time.Duration(rng.Float64() * float64(interval))
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			name := fmt.Sprintf("fleet%03d", p)
			next := start.Add(offset)
			for seq := 1; ; seq++ {
				if d := time.Until(next); d > 0 {
					time.Sleep(d)
				} else {
					behindNs.Add(int64(-d))
				}
				if time.Now().After(end) {
					return
				}
				v, err := selfplay.CurrentVersion(ctx, st)
				var b []byte
				if err == nil {
					b, err = enc.bytes(v)
				}
				t0 := time.Now()
				if err == nil {
					err = st.Write(ctx, selfplay.ShardKey(name, seq), b)
				}
				took := time.Since(t0).Nanoseconds()
				writeNs.Add(took)
				for m := writeMaxNs.Load(); took > m && !writeMaxNs.CompareAndSwap(m, took); m = writeMaxNs.Load() {
				}
				if err != nil {
					errs.Add(1)
					fmt.Fprintln(os.Stderr, "sim:", name, err)
				} else {
					written.Add(1)
				}
				next = next.Add(interval)
			}
		}(p)
	}
	wg.Wait()
	res := offered{Producers: producers, Seconds: time.Since(start).Seconds(), Shards: written.Load(), WriteErrors: errs.Load()}
	if n := written.Load() + errs.Load(); n > 0 {
		res.OfferedPerSec = float64(written.Load()) * float64(len(tmpl.Samples)) / res.Seconds
		res.WriteMeanMs = float64(writeNs.Load()) / float64(n) / 1e6
		res.WriteMaxMs = float64(writeMaxNs.Load()) / 1e6
		res.BehindSeconds = float64(behindNs.Load()) / float64(n) / 1e9
	}
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	return nil
}

type learned struct {
	Elapsed       float64 `json:"learner_seconds"`
	Positions     int64   `json:"positions_taken"`
	ShardsTaken   int     `json:"shards_taken"`
	DroppedGames  int64   `json:"games_dropped"`
	Games         int64   `json:"games_taken"`
	Samples       int64   `json:"samples_trained"`
	Steps         int64   `json:"steps"`
	Published     int     `json:"weights_published"`
	Rounds        int     `json:"rounds"`
	SamplesOwed   int64   `json:"samples_owed"` // by the sample ratio, not trained when it stopped
	SampleRatio   float64 `json:"sample_ratio"`
	SecondsPerPub float64 `json:"seconds_per_weights"`
}

func report(run string) error {
	var ck train.Checkpoint
	if _, err := store.Read(filepath.Join(run, train.CheckpointFile), model.KindCheckpoint, model.FormatVersion, &ck); err != nil {
		return err
	}
	l := learned{Elapsed: ck.Elapsed, Positions: ck.Positions, DroppedGames: ck.DroppedGames, Games: ck.Games,
		Samples: ck.SamplesTrained, Steps: ck.Steps, Published: ck.Published, Rounds: ck.Round,
		SampleRatio: ck.Config.SampleRatio}
	for _, t := range ck.Taken {
		if t.Used {
			l.ShardsTaken++
		}
	}
	l.SamplesOwed = max(0, int64(ck.Config.SampleRatio*float64(ck.Positions))-ck.SamplesTrained)
	if ck.Published > 0 {
		l.SecondsPerPub = ck.Elapsed / float64(ck.Published)
	}
	out, _ := json.Marshal(l)
	fmt.Println(string(out))
	return nil
}
