//go:build cloud

package s3test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/s3blob"
)

// WeedVersion is the SeaweedFS module the real-server tests and
// experiments/realstore were run with.
const WeedVersion = "github.com/seaweedfs/seaweedfs@v0.0.0-20261109003541-7506e5f91cd6"

// WeedHint says how to get the weed binary. go install refuses the
// module (its go.mod has a replace directive); built as the main module
// from the proxy's copy of its source, it builds.
const WeedHint = "bash experiments/realstore/run.sh builds it into ~/.cache/sliderzero/weed/weed (about 20 minutes on two cores; by hand: go mod download -json " +
	WeedVersion + ", copy its Dir, go build -o weed ./weed there), then set SZ_WEED to it or put it on PATH"

// Weed is a SeaweedFS server (master, volume, filer and S3 gateway in one
// process) on loopback ports, with its data in a folder of the test's, so
// that it can be stopped and started again with what it held.
type Weed struct {
	// URL is the location of the prefix in the bucket "runs", with the
	// endpoint the drivers need.
	URL string
	// Log is the server's output, appended across restarts.
	Log string

	t     testing.TB
	bin   string
	dir   string
	ports []int // master, volume, filer, s3, and their gRPC ports
	cmd   *exec.Cmd
}

// WeedBinary finds weed: $SZ_WEED, else on PATH.
func WeedBinary() (string, error) {
	if p := os.Getenv("SZ_WEED"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("SZ_WEED=%s: %w", p, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("weed"); err == nil {
		return p, nil
	}
	return "", errors.New("no weed binary: SZ_WEED is not set and weed is not on PATH")
}

// StartWeed starts a SeaweedFS server for the test's lifetime with a
// bucket "runs" and returns it, URL naming prefix in the bucket; it skips
// the test, saying how to get the server, when there is no weed binary.
// The drivers' credentials are set in the environment (and so passed to
// the commands the test starts).
func StartWeed(t testing.TB, prefix string) *Weed {
	t.Helper()
	bin, err := WeedBinary()
	if err != nil {
		t.Skipf("a real S3 server is needed: %v; get it with %s", err, WeedHint)
	}
	dir := t.TempDir()
	w := &Weed{t: t, bin: bin, dir: dir, Log: filepath.Join(dir, "weed.log")}
	for _, sub := range []string{"data", "meta"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "sliderzero")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "sliderzero-secret")
	config := `{"identities":[{"name":"sliderzero","credentials":[{"accessKey":"sliderzero","secretKey":"sliderzero-secret"}],"actions":["Admin","Read","List","Tagging","Write"]}]}`
	if err := os.WriteFile(filepath.Join(dir, "s3.json"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	w.ports = FreePorts(t, 8)
	w.URL = "s3://runs"
	if prefix != "" {
		w.URL += "/" + prefix
	}
	w.URL += fmt.Sprintf("?endpoint=http://127.0.0.1:%d&region=us-east-1&use_path_style=true", w.ports[3])
	t.Cleanup(w.Stop)
	w.Start()
	return w
}

// Args are weed's arguments for a server on loopback with its data in
// dir, ports master, volume, filer and S3 then their gRPC ports.
func Args(dir string, ports []int) []string {
	p := func(i int) string { return strconv.Itoa(ports[i]) }
	return []string{"server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		"-dir=" + filepath.Join(dir, "data"), "-master.dir=" + filepath.Join(dir, "meta"),
		"-master.port=" + p(0), "-master.port.grpc=" + p(4), "-master.telemetry=false",
		"-master.volumeSizeLimitMB=64", "-volume.max=100",
		"-volume.port=" + p(1), "-volume.port.grpc=" + p(5),
		"-filer", "-filer.port=" + p(2), "-filer.port.grpc=" + p(6),
		"-s3", "-s3.port=" + p(3), "-s3.port.grpc=" + p(7), "-s3.port.iceberg=0", "-s3.port.lance=0",
		"-s3.config=" + filepath.Join(dir, "s3.json")}
}

// Start starts the server (again, after Stop, on the same ports and data)
// and waits until its bucket answers, creating the bucket the first time.
func (w *Weed) Start() {
	w.t.Helper()
	log, err := os.OpenFile(w.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		w.t.Fatal(err)
	}
	defer log.Close()
	w.cmd = exec.Command(w.bin, Args(w.dir, w.ports)...)
	w.cmd.Stdout, w.cmd.Stderr = log, log
	if err := w.cmd.Start(); err != nil {
		w.t.Fatalf("starting %s: %v", w.bin, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	created := false
	for {
		err := w.ready(ctx)
		if err == nil {
			return
		}
		if !created && strings.Contains(err.Error(), "NoSuchBucket") {
			if cerr := w.createBucket(ctx); cerr != nil {
				err = fmt.Errorf("%v; creating the bucket: %v", err, cerr)
			} else {
				created = true
			}
		}
		select {
		case <-ctx.Done():
			out, _ := os.ReadFile(w.Log)
			w.t.Fatalf("the SeaweedFS server did not answer within a minute (%v); its log:\n%s", err, tail(out, 3000))
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// ready lists the bucket once.
func (w *Weed) ready(ctx context.Context) error {
	b, err := blob.OpenBucket(ctx, w.URL)
	if err != nil {
		return err
	}
	defer b.Close()
	_, _, err = b.ListPage(ctx, blob.FirstPageToken, 1, nil)
	return err
}

// createBucket makes the bucket "runs" through weed shell.
func (w *Weed) createBucket(ctx context.Context) error {
	// An address is host:port.grpcPort when the gRPC port is not port+10000.
	addr := func(i int) string { return fmt.Sprintf("127.0.0.1:%d.%d", w.ports[i], w.ports[i+4]) }
	c := exec.CommandContext(ctx, w.bin, "shell", "-master="+addr(0), "-filer="+addr(2))
	c.Stdin = strings.NewReader("s3.bucket.create -name runs\nexit\n")
	out, err := c.CombinedOutput()
	if err != nil {
		return fmt.Errorf("weed shell: %v: %s", err, tail(out, 500))
	}
	return nil
}

// Stop kills the server (SIGKILL: a crash, for the tests' time: its
// graceful stop takes about half a minute); what it had written stays
// for Start.
func (w *Weed) Stop() {
	if w.cmd == nil || w.cmd.Process == nil {
		return
	}
	w.cmd.Process.Kill()
	w.cmd.Wait()
	w.cmd = nil
}

// FreePorts returns n ports free on loopback now.
func FreePorts(t testing.TB, n int) []int {
	t.Helper()
	var ls []net.Listener
	var ports []int
	for len(ports) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
