# Shared by the experiment scripts that need a real S3 server
# (experiments/realstore, experiments/fleet): SeaweedFS's weed server on
# loopback ports, its data under $OUT/weed, a static access key, and a
# bucket named runs. Source it with OUT and a say function set; then
# weed_setup, start_weed, weed_bucket; stop_weed stops it. LOC_BASE is
# the bucket's URL without the run's path.
#
# Without SZ_WEED and without weed on PATH, weed_setup builds SeaweedFS's
# weed (the version the tests name, s3test.WeedVersion) from the module
# proxy into ~/.cache/sliderzero/weed.
WEED_MODULE=github.com/seaweedfs/seaweedfs@v0.0.0-20261109003541-7506e5f91cd6

weed_setup() {
  WEED=${SZ_WEED:-$(command -v weed || true)}
  if [ -z "$WEED" ]; then
    WEED=$HOME/.cache/sliderzero/weed/weed
    if [ ! -x "$WEED" ]; then
      # go install refuses the module (its go.mod has a replace directive):
      # build it as the main module from the proxy's copy of its source.
      say "building weed of $WEED_MODULE into $(dirname "$WEED") (about 20 minutes on two cores)"
      local src tmp
      src=$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "$WEED_MODULE" | python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')
      tmp=$(mktemp -d)
      cp -r "$src"/. "$tmp" && chmod -R u+w "$tmp"
      (cd "$tmp" && GOFLAGS=-mod=mod nice -n 19 go build -o "$WEED" ./weed)
      rm -rf "$tmp"
    fi
  fi
  say "weed: $WEED ($("$WEED" version 2>&1 | head -1))"
  # Eight free loopback ports: master, volume, filer, S3, and their gRPC.
  read -r P_MASTER P_VOLUME P_FILER P_S3 G_MASTER G_VOLUME G_FILER G_S3 < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(8)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])
for s in ss: s.close()')
  mkdir -p "$OUT/weed/data" "$OUT/weed/meta"
  export AWS_ACCESS_KEY_ID=sliderzero AWS_SECRET_ACCESS_KEY=sliderzero-secret
  cat > "$OUT/weed/s3.json" <<EOF
{"identities":[{"name":"sliderzero","credentials":[{"accessKey":"$AWS_ACCESS_KEY_ID","secretKey":"$AWS_SECRET_ACCESS_KEY"}],"actions":["Admin","Read","List","Tagging","Write"]}]}
EOF
  WEED_ARGS=(server -ip=127.0.0.1 -ip.bind=127.0.0.1 -dir="$OUT/weed/data" -master.dir="$OUT/weed/meta"
    -master.port=$P_MASTER -master.port.grpc=$G_MASTER -master.telemetry=false
    -master.volumeSizeLimitMB=64 -volume.max=100 -volume.port=$P_VOLUME -volume.port.grpc=$G_VOLUME
    -filer -filer.port=$P_FILER -filer.port.grpc=$G_FILER
    -s3 -s3.port=$P_S3 -s3.port.grpc=$G_S3 -s3.port.iceberg=0 -s3.port.lance=0 -s3.config="$OUT/weed/s3.json")
  LOC_BASE="s3://runs"
  LOC_QUERY="endpoint=http://127.0.0.1:$P_S3&region=us-east-1&use_path_style=true"
}

WEED_PID=
start_weed() {
  nice -n 19 "$WEED" "${WEED_ARGS[@]}" >>"$OUT/weed.log" 2>&1 &
  WEED_PID=$!
  for _ in $(seq 120); do
    # The S3 port answers (403 without a signature) once the gateway is up.
    if curl -s -o /dev/null "http://127.0.0.1:$P_S3/" && curl -s -o /dev/null "http://127.0.0.1:$P_FILER/"; then
      return 0
    fi
    sleep 0.5
  done
  say "the SeaweedFS server did not start; see $OUT/weed.log"; exit 1
}
stop_weed() { kill -TERM "$WEED_PID" 2>/dev/null || true; wait "$WEED_PID" 2>/dev/null || true; }

weed_bucket() {
  for _ in $(seq 30); do
    if printf 's3.bucket.create -name runs\nexit\n' | "$WEED" shell -master=127.0.0.1:$P_MASTER.$G_MASTER -filer=127.0.0.1:$P_FILER.$G_FILER >>"$OUT/weed-shell.log" 2>&1; then break; fi
    sleep 1
  done
  say "SeaweedFS: pid $WEED_PID, S3 on 127.0.0.1:$P_S3, filer on 127.0.0.1:$P_FILER; bucket runs created"
}
