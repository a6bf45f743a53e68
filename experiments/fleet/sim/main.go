// Command sim plays a fleet of self-play producers against a real run's
// storage (experiments/fleet): each simulated producer writes a real
// shard (a copy of one a real producer wrote) every interval that gives
// the positions a second a measured producer offers, under its own key,
// labelled with the weights version it read from the storage just
// before, as a real producer does between rounds. The learner is a real
// sliderzero train --selfplay external on the same storage. When the
// fleet stops, it reads the learner's metrics and prints one JSON line:
// what was offered, what the learner took, trained and dropped, and how
// long the weights the producers played with stayed the newest.
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
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train/replay"
	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/train/selfplay"
)

func main() {
	loc := flag.String("shared", "", "the run's storage, the learner's --shared (a folder or s3:// URL)")
	runDir := flag.String("run", "", "the learner's run folder (for its metrics)")
	template := flag.String("template", "", "a shard file a real producer wrote")
	producers := flag.Int("producers", 1, "simulated producers")
	rate := flag.Float64("rate", 4000, "positions a second each producer offers")
	seconds := flag.Float64("seconds", 60, "how long the fleet plays")
	warmup := flag.Float64("warmup", 10, "seconds at the start left out of the learner's figures")
	seed := flag.Uint64("seed", 1, "seed of the producers' start offsets")
	flag.Parse()
	if err := run(*loc, *runDir, *template, *producers, *rate, *seconds, *warmup, *seed); err != nil {
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

type result struct {
	Producers         int     `json:"producers"`
	Seconds           float64 `json:"seconds"`
	OfferedPerSec     float64 `json:"offered_positions_per_second"`
	ShardsWritten     int64   `json:"shards_written"`
	WriteErrors       int64   `json:"write_errors"`
	WriteMeanMs       float64 `json:"write_mean_ms"`
	WriteMaxMs        float64 `json:"write_max_ms"`
	BehindSeconds     float64 `json:"producers_behind_seconds"` // mean lateness of a shard against its schedule
	TakenPerSec       float64 `json:"taken_positions_per_second"`
	SamplesPerSec     float64 `json:"trained_samples_per_second"`
	Rounds            int     `json:"rounds"`
	RoundMeanSec      float64 `json:"round_mean_seconds"`
	RoundMaxSec       float64 `json:"round_max_seconds"`
	DroppedShare      float64 `json:"dropped_share"`
	LearnerTrainShare float64 `json:"learner_train_share"` // of the learner's time, training
}

func run(loc, runDir, template string, producers int, rate, seconds, warmup float64, seed uint64) error {
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
				for {
					m := writeMaxNs.Load()
					if took <= m || writeMaxNs.CompareAndSwap(m, took) {
						break
					}
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
	stop := time.Now()
	res := result{Producers: producers, Seconds: stop.Sub(start).Seconds(), ShardsWritten: written.Load(), WriteErrors: errs.Load()}
	if n := written.Load() + errs.Load(); n > 0 {
		res.OfferedPerSec = float64(written.Load()) * float64(len(tmpl.Samples)) / res.Seconds
		res.WriteMeanMs = float64(writeNs.Load()) / float64(n) / 1e6
		res.WriteMaxMs = float64(writeMaxNs.Load()) / 1e6
		res.BehindSeconds = float64(behindNs.Load()) / float64(n) / 1e9
	}
	// The learner's rounds that ended inside the measured span.
	ms, err := runfolder.ReadMetrics(runDir)
	if err != nil {
		return err
	}
	from := start.Add(time.Duration(warmup * float64(time.Second)))
	var in []runfolder.Metrics
	var before *runfolder.Metrics
	for i := range ms {
		m := ms[i]
		switch {
		case m.Time.Before(from):
			before = &ms[i]
		case !m.Time.After(stop):
			in = append(in, m)
		}
	}
	if before == nil || len(in) == 0 {
		return fmt.Errorf("no learner round ended between %s and %s", from.Format(time.TimeOnly), stop.Format(time.TimeOnly))
	}
	last := in[len(in)-1]
	span := last.Time.Sub(before.Time).Seconds()
	res.Rounds = len(in)
	res.TakenPerSec = float64(last.Positions-before.Positions) / span
	res.SamplesPerSec = float64(last.Steps-before.Steps) * float64(batchOf(runDir)) / span
	var games, dropped int
	var trainSecs float64
	prev := before.Time
	var rounds []float64
	for _, m := range in {
		d := m.Time.Sub(prev).Seconds()
		rounds = append(rounds, d)
		prev = m.Time
		dropped += m.Dropped
		trainSecs += m.TrainSecs
		for _, n := range m.Wins {
			games += n
		}
	}
	sort.Float64s(rounds)
	var sum float64
	for _, d := range rounds {
		sum += d
	}
	res.RoundMeanSec = sum / float64(len(rounds))
	res.RoundMaxSec = rounds[len(rounds)-1]
	if games+dropped > 0 {
		res.DroppedShare = float64(dropped) / float64(games+dropped)
	}
	res.LearnerTrainShare = math.Min(1, trainSecs/span)
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	return nil
}

// batchOf is the run's batch size, from its configuration.
func batchOf(runDir string) int {
	var c struct {
		Batch int `json:"batch_size"`
	}
	data, err := os.ReadFile(runDir + "/config.json")
	if err == nil && json.Unmarshal(data, &c) == nil && c.Batch > 0 {
		return c.Batch
	}
	return 128
}
