#!/usr/bin/env bash
# Side-by-side HTTP concurrency sweep on the demo SQLite database: DBHub's HTTP mode, and SchemaBrain's when
# this build's serve has --transport http. Both are measured by 'schemabrain sweep' from this machine, on loopback.
#
#   bench/sweep-http.sh                 # 2000 calls per point at 8,16,32,64; SLO p95 50 ms, p99 100 ms
#   TOTAL=500 CONCURRENCY=8,32 bench/sweep-http.sh
#
# Reports land in target/bench-sweep/: <server>.json (what sweep prints) and <server>.md (the report to read).
# The call is the same lookup on both: the invoices table's columns (SchemaBrain describe_table; DBHub
# search_objects with detail_level full, its closest read-only equivalent).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/target/bench-sweep}"
total="${TOTAL:-2000}"
concurrency="${CONCURRENCY:-8,16,32,64}"
p95="${P95_SLO_MS:-50}"
p99="${P99_SLO_MS:-100}"
# Unpinned by default (the report names the version that answered); DBHUB_VERSION=0.21.2 pins one.
dbhub_pkg="@bytebase/dbhub${DBHUB_VERSION:+@$DBHUB_VERSION}"
dbhub_port="${DBHUB_PORT:-18431}"
sb_port="${SB_PORT:-18432}"
sb="$root/schemabrain"
# The build that serves SchemaBrain's side (default: this one), e.g. another checkout's ./schemabrain.
sb_server="${SCHEMABRAIN_SERVER:-$sb}"
mkdir -p "$out"

"$sb" --store "$out/store.db" demo --database "$out/demo.sqlite" >/dev/null

pids=()
cleanup() {
  # Each server runs in its own process group (setsid), so npx's node child goes with it.
  for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  sleep 2
  for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

port_free() {
  if curl -s -o /dev/null "http://127.0.0.1:$1/"; then
    echo "sweep-http: something already answers on port $1; stop it or set ${2}." >&2
    exit 2
  fi
}

wait_for() {
  # Up to 5 minutes: npx's first run downloads DBHub.
  for _ in $(seq 1 600); do
    if curl -s -o /dev/null "http://127.0.0.1:$1/"; then return 0; fi
    sleep 0.5
  done
  echo "sweep-http: nothing answered on port $1 within 5 minutes; see $2." >&2
  exit 2
}

sweep() {
  local name="$1" url="$2" tool="$3" args="$4"
  "$sb" sweep --url "$url" --tool "$tool" --arguments "$args" --total "$total" --concurrency "$concurrency" \
    --p95-slo-ms "$p95" --p99-slo-ms "$p99" --markdown "$out/$name.md" >"$out/$name.json"
  echo "== $name: $out/$name.md"
  cat "$out/$name.md"
}

if command -v npx >/dev/null 2>&1; then
  port_free "$dbhub_port" DBHUB_PORT
  setsid npx -y "$dbhub_pkg" --transport http --port "$dbhub_port" \
    --dsn "sqlite://$out/demo.sqlite" >"$out/dbhub.log" 2>&1 &
  pids+=("$!")
  wait_for "$dbhub_port" "$out/dbhub.log"
  sweep dbhub "http://127.0.0.1:$dbhub_port/mcp" search_objects \
    '{"object_type":"table","pattern":"invoices","detail_level":"full"}'
else
  echo "sweep-http: npx is not installed (Node 20+); DBHub's side skipped." >&2
fi

if "$sb_server" serve --help | grep -q -- '--transport http'; then
  port_free "$sb_port" SB_PORT
  setsid "$sb_server" --store "$out/store.db" serve --transport http --host 127.0.0.1 --port "$sb_port" \
    >"$out/schemabrain.log" 2>&1 &
  pids+=("$!")
  wait_for "$sb_port" "$out/schemabrain.log"
  sweep schemabrain "http://127.0.0.1:$sb_port/mcp" describe_table '{"qualified_name":"main.invoices"}'
else
  echo "sweep-http: this build's serve has no --transport http; SchemaBrain's side skipped." >&2
fi
