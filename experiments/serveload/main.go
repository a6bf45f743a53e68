// Command serveload measures the web app under load (issue 35): a root
// with many player files, requests sent at a fixed rate whatever the
// answers' speed (an open loop, so slow answers cannot hide by slowing
// the sender), and the latency of each kind of request.
//
//	go build -C experiments/serveload # from the repository's root; then
//	experiments/serveload/serveload --rate 300 --seconds 20 --players 50
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/web"
)

type request struct {
	name, method, path, body string
	share                    float64
}

func main() {
	rate := flag.Float64("rate", 300, "requests a second")
	seconds := flag.Float64("seconds", 20, "how long to send them")
	players := flag.Int("players", 50, "player files in the root (copies of --player)")
	playerFile := flag.String("player", "checkpoints/slider-5x5.player", "the player file copied")
	flag.Parse()

	root, err := os.MkdirTemp("", "serveload")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(root)
	data, err := os.ReadFile(*playerFile)
	if err != nil {
		fail(err)
	}
	for i := 0; i < *players; i++ {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("p%02d.player", i)), data, 0o644); err != nil {
			fail(err)
		}
	}
	srv, err := web.New(web.Config{Root: root, Engines: map[string]string{}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		fail(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	state := `{"game":{"name":"slider","size":5},"moves":["a2R","c1U","a3R"]}`
	analyze := url.QueryEscape(`{"game":{"name":"slider","size":5},"moves":["a2R"],"player":"player:p03.player","sims":200,"threads":1}`)
	reqs := []request{
		{"GET /api/info", "GET", "/api/info", "", 0.5},
		{"GET /app.js (static)", "GET", "/app.js", "", 0.2},
		{"POST /api/state", "POST", "/api/state", state, 0.15},
		{"POST /api/move p07.player,sims=50", "POST", "/api/move", `{"game":{"name":"slider","size":5},"moves":["a2R"],"player":"player:p07.player,sims=50"}`, 0.1},
		{"GET /api/analyze (200 sims, to the end)", "GET", "/api/analyze?q=" + analyze, "", 0.05},
	}
	// Warm the player-file cache as a first page load would.
	if _, err := http.Get(ts.URL + "/api/info"); err != nil {
		fail(err)
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 512}, Timeout: 30 * time.Second}
	var mu sync.Mutex
	lat := map[string][]time.Duration{}
	errs := map[string]int{}
	// The process's memory every few seconds: flat, or growing with the
	// requests served.
	var heap []uint64
	stopSampling := make(chan struct{})
	go func() {
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			mu.Lock()
			heap = append(heap, ms.HeapInuse)
			mu.Unlock()
			select {
			case <-stopSampling:
				return
			case <-time.After(5 * time.Second):
			}
		}
	}()
	var wg sync.WaitGroup
	interval := time.Duration(float64(time.Second) / *rate)
	total := int(*rate * *seconds)
	start := time.Now()
	for i := 0; i < total; i++ {
		time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		// The kinds in proportion, spread evenly.
		x := float64(i%100) / 100
		r := reqs[len(reqs)-1]
		for _, q := range reqs {
			if x < q.share {
				r = q
				break
			}
			x -= q.share
		}
		wg.Add(1)
		go func(r request) {
			defer wg.Done()
			t0 := time.Now()
			req, _ := http.NewRequest(r.method, ts.URL+r.path, bytes.NewReader([]byte(r.body)))
			if r.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			resp, err := client.Do(req)
			ok := err == nil && resp.StatusCode == http.StatusOK
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			d := time.Since(t0)
			mu.Lock()
			defer mu.Unlock()
			if !ok {
				errs[r.name]++
				return
			}
			lat[r.name] = append(lat[r.name], d)
		}(r)
	}
	wg.Wait()
	close(stopSampling)
	elapsed := time.Since(start)
	fmt.Printf("%d requests in %.1f s (%.0f a second asked, %.0f sent), %d player files in the root\n",
		total, elapsed.Seconds(), *rate, float64(total)/elapsed.Seconds(), *players)
	var all []time.Duration
	for _, r := range reqs {
		ds := lat[r.name]
		all = append(all, ds...)
		fmt.Printf("%-38s %s, %d failed\n", r.name, summary(ds), errs[r.name])
	}
	fmt.Printf("%-38s %s\n", "all", summary(all))
	mu.Lock()
	defer mu.Unlock()
	third := max(1, len(heap)/3)
	fmt.Printf("heap in use (server and load together), MB: first third of the run max %.0f, last third max %.0f; samples %v\n",
		maxMB(heap[:third]), maxMB(heap[len(heap)-third:]), mbs(heap))
}

func maxMB(xs []uint64) float64 {
	var m uint64
	for _, x := range xs {
		m = max(m, x)
	}
	return float64(m) / (1 << 20)
}

func mbs(xs []uint64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x >> 20)
	}
	return out
}

func summary(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	q := func(p float64) string {
		return fmt.Sprintf("%.1f ms", float64(ds[min(len(ds)-1, int(p*float64(len(ds))))].Microseconds())/1000)
	}
	return fmt.Sprintf("%5d answered: p50 %s, p90 %s, p99 %s, max %s", len(ds), q(0.5), q(0.9), q(0.99), q(1))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "serveload:", err)
	os.Exit(1)
}
