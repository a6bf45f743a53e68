// Command tally adds up the games of a run whose producers and trainer
// met at a bucket of a SeaweedFS server (experiments/realstore): the
// shards in the bucket (read through the server's filer, beside the S3
// gateway the run used), the trainer's checkpoint, and the producers'
// logs. Games played (the shards in the bucket, those set aside under
// rejected/ included) must equal the games taken + dropped as stale + in
// shards set aside + not taken yet; every shard a producer logged must be
// in the bucket with the games it logged; no shard may be taken twice.
// It prints the figures and exits 1 when they do not add up.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/replay"
)

func main() {
	filer := flag.String("filer", "", "the filer's URL, http://127.0.0.1:PORT")
	prefix := flag.String("prefix", "/buckets/runs/realstore", "the run's folder in the filer (the bucket's prefix)")
	run := flag.String("run", "", "the trainer's run folder")
	flag.Parse()
	if err := tally(*filer, *prefix, *run, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "tally:", err)
		os.Exit(1)
	}
}

func tally(filer, prefix, run string, logs []string) error {
	played, err := shardGames(filer, prefix+"/shards")
	if err != nil {
		return err
	}
	aside, err := shardGames(filer, prefix+"/rejected")
	if err != nil {
		return err
	}
	var ck train.Checkpoint
	if _, err := store.Read(filepath.Join(run, train.CheckpointFile), model.KindCheckpoint, model.FormatVersion, &ck); err != nil {
		return err
	}
	bad := 0
	fail := func(format string, args ...any) {
		bad++
		fmt.Printf("NOT ADDING UP: "+format+"\n", args...)
	}
	logged, loggedGames := checkLogs(logs, played, fail)
	var games, asideGames int64
	for _, n := range played {
		games += n
	}
	for _, n := range aside {
		asideGames += n
	}
	taken := map[string]bool{}
	var used, dropped, asideTaken int64
	for _, t := range ck.Taken {
		if taken[t.Key] {
			fail("%s taken twice", t.Key)
		}
		taken[t.Key] = true
		n, inBucket := played[t.Key]
		switch {
		case t.Used && inBucket:
			used += n
		case t.Games > 0 && inBucket:
			dropped += n
		case !inBucket:
			if _, ok := aside["rejected/"+path.Base(t.Key)]; !ok {
				fail("%s taken, and neither in shards/ nor in rejected/", t.Key)
			}
			asideTaken++
		}
	}
	var pending, pendingShards int64
	for k, n := range played {
		if !taken[k] {
			pending += n
			pendingShards++
		}
	}
	if used != ck.Games {
		fail("the taken shards hold %d games, the checkpoint counts %d", used, ck.Games)
	}
	if dropped != ck.DroppedGames {
		fail("the dropped shards hold %d games, the checkpoint counts %d", dropped, ck.DroppedGames)
	}
	total := games + asideGames
	if used+dropped+asideGames+pending != total {
		fail("played %d != taken %d + dropped %d + set aside %d + not taken yet %d", total, used, dropped, asideGames, pending)
	}
	fmt.Printf("shards in the bucket: %d (%d games), set aside under rejected/: %d (%d games)\n", len(played), games, len(aside), asideGames)
	fmt.Printf("producers' logs: %d shards, %d games logged as written\n", logged, loggedGames)
	fmt.Printf("checkpoint: %d shards taken (%d set aside), %d games trained on, %d dropped as stale; %d steps, %d weights versions\n",
		len(ck.Taken), asideTaken, ck.Games, ck.DroppedGames, ck.Steps, ck.Published)
	fmt.Printf("games played %d = taken %d + dropped as stale %d + set aside %d + not taken yet %d (%d shards)\n",
		total, used, dropped, asideGames, pending, pendingShards)
	if bad > 0 {
		return fmt.Errorf("%d figures do not add up", bad)
	}
	fmt.Println("the totals add up")
	return nil
}

var shardLine = regexp.MustCompile(`(shards/\S+\.msgpack): (\d+) games`)

// checkLogs finds the shards the producers logged as written: each must
// be in the bucket with the games logged. A shard in the bucket that no
// log names is a producer killed between its write and its line.
func checkLogs(logs []string, played map[string]int64, fail func(string, ...any)) (shards int, games int64) {
	seen := map[string]bool{}
	for _, l := range logs {
		data, err := os.ReadFile(l)
		if err != nil {
			fail("%v", err)
			continue
		}
		for _, m := range shardLine.FindAllStringSubmatch(string(data), -1) {
			n, _ := strconv.ParseInt(m[2], 10, 64)
			if seen[m[1]] {
				fail("%s logged twice", m[1])
			}
			seen[m[1]] = true
			shards++
			games += n
			if got, ok := played[m[1]]; !ok || got != n {
				fail("%s logged %s with %d games; the bucket has %d (there: %v)", l, m[1], n, got, ok)
			}
		}
	}
	var unlogged []string
	for k := range played {
		if !seen[k] {
			unlogged = append(unlogged, k)
		}
	}
	sort.Strings(unlogged)
	fmt.Printf("shards in the bucket that no log names (a producer killed between its write and its line): %d %v\n", len(unlogged), unlogged)
	return shards, games
}

// shardGames reads every shard in a filer folder: key (shards/NAME or
// rejected/NAME) to games; one that cannot be decoded counts 0 games.
func shardGames(filer, dir string) (map[string]int64, error) {
	out := map[string]int64{}
	last := ""
	for {
		q := url.Values{"limit": {"1000"}, "lastFileName": {last}}
		req, _ := http.NewRequest("GET", filer+dir+"/?"+q.Encode(), nil)
		req.Header.Set("Accept", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		var page struct {
			Entries []struct {
				FullPath string
			}
			ShouldDisplayLoadMore bool
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s: %s: %w", dir, resp.Status, err)
		}
		for _, e := range page.Entries {
			key := path.Base(dir) + "/" + path.Base(e.FullPath)
			n, err := readGames(filer + e.FullPath)
			if err != nil {
				fmt.Printf("%s: %v\n", key, err)
			}
			out[key] = n
			last = path.Base(e.FullPath)
		}
		if !page.ShouldDisplayLoadMore || len(page.Entries) == 0 {
			return out, nil
		}
	}
}

func readGames(u string) (int64, error) {
	resp, err := http.Get(u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, replay.MaxShardFileSize))
	if err != nil {
		return 0, err
	}
	s, _, err := replay.Decode(data, path.Base(u), true)
	if err != nil {
		return 0, err
	}
	return int64(s.Games), nil
}
