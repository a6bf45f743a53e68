package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// docExample is one request of docs/web-api.md and the answer it shows.
type docExample struct {
	method, path, body string
	kind               string // json or sse
	answer             string
}

// docExamples reads each ```http block of the API document with the
// fenced answer that follows it.
func docExamples(t *testing.T, doc string) []docExample {
	t.Helper()
	blocks := regexp.MustCompile("(?s)```(\\w+)\\n(.*?)```").FindAllStringSubmatch(doc, -1)
	var out []docExample
	for i := 0; i < len(blocks); i++ {
		if blocks[i][1] != "http" {
			continue
		}
		if i+1 == len(blocks) || (blocks[i+1][1] != "json" && blocks[i+1][1] != "sse") {
			t.Fatalf("the request %q has no answer after it", blocks[i][2])
		}
		line, body, _ := strings.Cut(strings.TrimSpace(blocks[i][2]), "\n")
		method, path, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("request line %q: want METHOD PATH", line)
		}
		out = append(out, docExample{method: method, path: path, body: body, kind: blocks[i+1][1], answer: blocks[i+1][2]})
		i++
	}
	return out
}

// escapeQuery URL-encodes the values of a path's query, which the document
// writes plainly for people to read.
func escapeQuery(path string) string {
	base, query, ok := strings.Cut(path, "?")
	if !ok {
		return path
	}
	var parts []string
	for _, kv := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(kv, "=")
		parts = append(parts, k+"="+url.QueryEscape(v))
	}
	return base + "?" + strings.Join(parts, "&")
}

// sameShape reports where got differs from the documented answer doc in
// its keys or value types: at the top every key on both sides, below it
// the documented keys; a list's first element against the first
// documented one.
func sameShape(doc, got any, where string, top bool) error {
	switch d := doc.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: documented an object, got %T", where, got)
		}
		for k, v := range d {
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("%s: the documented key %q is missing", where, k)
			}
			if err := sameShape(v, gv, where+"."+k, false); err != nil {
				return err
			}
		}
		if top {
			for k := range g {
				if _, ok := d[k]; !ok {
					return fmt.Errorf("%s: the key %q is not documented", where, k)
				}
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Errorf("%s: documented a list, got %T", where, got)
		}
		if len(d) > 0 && len(g) > 0 {
			return sameShape(d[0], g[0], where+"[0]", false)
		}
	default:
		if fmt.Sprintf("%T", doc) != fmt.Sprintf("%T", got) {
			return fmt.Errorf("%s: documented a %T, got %T", where, doc, got)
		}
	}
	return nil
}

// Every example of docs/web-api.md, run against a server with the root it
// describes, answers with the shape the document shows.
func TestWebAPIDocExamples(t *testing.T) {
	raw, err := os.ReadFile("../docs/web-api.md")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	examples := docExamples(t, string(raw))
	if len(examples) < 11 {
		t.Fatalf("%d examples in the document; want one for each of the 11 endpoints and an error", len(examples))
	}
	seen := map[string]bool{}
	for _, ex := range examples {
		name := ex.method + " " + ex.path
		seen[ex.method+" "+strings.SplitN(ex.path, "?", 2)[0]] = true
		var doc map[string]any
		if ex.kind == "sse" {
			data, ok := strings.CutPrefix(strings.TrimSpace(ex.answer), "data: ")
			if !ok {
				t.Fatalf("%s: the stream's example is not a data: line", name)
			}
			ex.answer = data
		}
		if err := json.Unmarshal([]byte(ex.answer), &doc); err != nil {
			t.Fatalf("%s: the documented answer is not JSON: %v", name, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		req, _ := http.NewRequestWithContext(ctx, ex.method, f.ts.URL+escapeQuery(ex.path), strings.NewReader(ex.body))
		if ex.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			cancel()
			t.Fatalf("%s: %v", name, err)
		}
		want := http.StatusOK
		if _, isErr := doc["error"]; isErr {
			want = http.StatusBadRequest
		}
		var got map[string]any
		if r.StatusCode != want {
			t.Errorf("%s: status %d, want %d", name, r.StatusCode, want)
		} else if ex.kind == "json" {
			err = json.NewDecoder(r.Body).Decode(&got)
		} else {
			got, err = lastEvent(r, doc)
		}
		r.Body.Close()
		cancel()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got == nil {
			continue
		}
		if err := sameShape(doc, got, name, true); err != nil {
			t.Errorf("%v\ngot: %.600v", err, got)
		}
	}
	for _, ep := range []string{"GET /api/info", "POST /api/state", "POST /api/move", "GET /api/analyze", "POST /api/perfect",
		"GET /api/records", "GET /api/record", "GET /api/runs", "GET /api/run", "GET /api/run/events"} {
		if !seen[ep] {
			t.Errorf("docs/web-api.md has no example of %s", ep)
		}
	}
}

// lastEvent reads a stream's events: the first, or, when the documented
// one says whether it is done, the one that is.
func lastEvent(r *http.Response, doc map[string]any) (map[string]any, error) {
	_, waitDone := doc["done"]
	sc := bufio.NewScanner(r.Body)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(data), &v); err != nil {
			return nil, err
		}
		if !waitDone || v["done"] == true {
			return v, nil
		}
	}
	return nil, fmt.Errorf("the stream ended without the documented event")
}
