package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/web"
)

const serveAbout = `Serves the local web app: play any game against any player on a board
(click a piece, then a target), with the agent's analysis drawn as it
searches; replay recorded games; follow training runs' curves as they are
written. It works offline (everything is in the binary), reads only files
under --root, and listens on loopback unless --addr says otherwise.

--engine NAME=COMMAND (repeatable) offers an external program speaking the
engine protocol as the player engine:NAME; requests can name only these.

"Perfect play" on the board shows the exact value of the position and of
each legal move (solved within a few seconds): Connect Four by its search
solver, a Slider board when --table gives its solved table (sliderzero
solve; repeatable, one table a layout).

Example: sliderzero serve --root . --engine mine="./my-engine --level 3"`

// hostFlags collects --allow-host NAME.
type hostFlags []string

func (h *hostFlags) String() string { return strings.Join(*h, ",") }
func (h *hostFlags) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name == "" || strings.ContainsAny(name, "/:@ ") {
			return fmt.Errorf("want a host name, not %q", name)
		}
		*h = append(*h, name)
	}
	return nil
}

// engineFlags collects --engine NAME=COMMAND.
type engineFlags map[string]string

func (e engineFlags) String() string { return fmt.Sprint(map[string]string(e)) }
func (e engineFlags) Set(v string) error {
	name, cmd, ok := strings.Cut(v, "=")
	if !ok || name == "" || strings.TrimSpace(cmd) == "" {
		return fmt.Errorf("want NAME=COMMAND")
	}
	e[name] = cmd
	return nil
}

func runServe(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (by default 127.0.0.1:8080, loopback: the app is for this machine)")
	root := fs.String("root", ".", "folder whose player files, records and runs the app may read")
	engines := engineFlags{}
	fs.Var(engines, "engine", "NAME=COMMAND: an external engine offered as engine:NAME (repeatable)")
	searches := rangeVar(fs, "searches", 0, 0, maxParallel, "searches running at once (0: one per core)")
	threads := rangeVar(fs, "threads", min(runtime.NumCPU(), mcts.MaxThreads), 1, mcts.MaxThreads, "threads an analysis searches with unless the page asks for others (default: every core)")
	var allow hostFlags
	var tableFiles []string
	fs.Func("table", "a solved Slider table (sliderzero solve) for the perfect-play verdict on its board (repeatable)", func(v string) error {
		tableFiles = append(tableFiles, v)
		return nil
	})
	fs.Var(&allow, "allow-host", "a host name the app may be addressed by, besides localhost and --addr's (repeatable; for a name in /etc/hosts or a reverse proxy)")
	if err := parseFlags(fs, args, io, serveAbout); err != nil {
		return ignoreHelp(err)
	}
	if err := checkAddr(*addr); err != nil {
		return err
	}
	tables, err := readTables(tableFiles)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if h, _, err := net.SplitHostPort(*addr); err == nil && h != "" {
		allow = append(allow, h)
	}
	srv, err := web.New(web.Config{Root: *root, Engines: engines, MaxSearches: *searches, Threads: *threads,
		Log: slog.New(slog.NewTextHandler(io.err, nil)), AllowHosts: allow, Tables: tables})
	if err != nil {
		ln.Close()
		return fmt.Errorf("serve: %w", err)
	}
	return serveOn(ctx, io, ln, srv)
}

// checkAddr refuses an --addr that is not HOST:PORT with a port from 0 to
// 65535 (or a service's name): a bad command line, not a failure to
// listen.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		_, err = net.LookupPort("tcp", port)
	}
	if err != nil {
		return usageError{fmt.Errorf("serve: --addr %s: want HOST:PORT with a port from 0 to 65535", env.Quote(addr))}
	}
	return nil
}

// serveOn says where the app is and serves it on ln until ctx ends.
func serveOn(ctx context.Context, io stdio, ln net.Listener, srv *web.Server) error {
	announce(io, ln.Addr(), srv.Root())
	// A client that stops sending, or reading, holds its connection no
	// longer than these; answers stream (analysis, run events) and have no
	// write timeout, but end with the request's context.
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// announce says where the app listens, warning when it is not loopback
// only, and the address to open.
func announce(io stdio, addr net.Addr, root string) {
	host, _, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(io.err, "warning: listening on %s, not loopback: other machines can reach the app\n", addr)
	} else {
		fmt.Fprintf(io.err, "serving on loopback only (this machine); reading %s\n", root)
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		// Every address of the machine: a browser here opens localhost.
		_, port, _ := net.SplitHostPort(addr.String())
		fmt.Fprintf(io.out, "open http://localhost:%s/ (from other machines, this machine's address)\n", port)
	} else {
		fmt.Fprintf(io.out, "open http://%s/\n", addr)
	}
}

// readTables reads serve's --table files.
func readTables(files []string) ([]registry.Table, error) {
	var tables []registry.Table
	for _, f := range files {
		t, err := solver.ReadTable(f)
		if err != nil {
			return nil, fmt.Errorf("serve: --table: %w", err)
		}
		tables = append(tables, t)
	}
	return tables, nil
}
