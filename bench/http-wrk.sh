#!/usr/bin/env bash
# describe_table over Streamable HTTP measured with wrk (a load generator in C, so the client costs little of the
# 2 cores), after a warm-up long enough for C2 to compile the call path, every call audited. DBHub's HTTP mode on
# the same demo database is measured the same way when npx is installed (SKIP_DBHUB=1 skips it).
#
#   bench/http-wrk.sh                          # warm-up 60 s, then 20 s each at concurrency 8, 32, 64
#   WARMUP=30 DURATION=10 CONCURRENCY="8 64" bench/http-wrk.sh
#
# Prints, per server and concurrency: calls/s, p50/p99 (wrk --latency), and the server's CPU per call read from
# /proc; then checks that SchemaBrain's audit chain verifies and holds one row per answered call.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
warmup="${WARMUP:-60}"
duration="${DURATION:-20}"
concurrency="${CONCURRENCY:-8 32 64}"
out="${OUT:-$root/target/bench-wrk}"
sb="$root/schemabrain"
sb_port="${SB_PORT:-18441}"
dbhub_port="${DBHUB_PORT:-18442}"
dbhub_pkg="@bytebase/dbhub${DBHUB_VERSION:+@$DBHUB_VERSION}"
command -v wrk >/dev/null || { echo "http-wrk: wrk is not installed (apt-get install wrk)." >&2; exit 2; }
mkdir -p "$out"
rm -f "$out"/store.db* "$out"/store.audit.db* "$out"/demo.sqlite
"$sb" --store "$out/store.db" demo --database "$out/demo.sqlite" >/dev/null

pids=()
cleanup() { for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

wait_for() {
  for _ in $(seq 1 600); do
    curl -s -o /dev/null "http://127.0.0.1:$1/" && return 0
    sleep 0.5
  done
  echo "http-wrk: nothing answered on port $1 within 5 minutes; see $2." >&2
  exit 2
}

lua() {   # one JSON-RPC tools/call per request; stateless servers need no session
  cat >"$out/$1.lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"$2","arguments":$3}}'
EOF
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

measure() {   # name url pid
  local name="$1" url="$2" pid="$3"
  wrk -t2 -c16 -d"${warmup}s" -s "$out/$name.lua" "$url" >/dev/null
  for c in $concurrency; do
    local before after requests
    before=$(cpu_ticks "$pid")
    wrk -t2 -c"$c" -d"${duration}s" --latency -s "$out/$name.lua" "$url" >"$out/$name-c$c.txt"
    after=$(cpu_ticks "$pid")
    requests=$(awk '/requests in/ {print $1}' "$out/$name-c$c.txt")
    awk -v n="$name" -v c="$c" -v req="$requests" -v cpu="$((after - before))" '
      /Requests\/sec/ {rps=$2} / 50%/ {p50=$2} / 99%/ {p99=$2} /Non-2xx/ {bad=$NF}
      END {printf "%-12s c=%-3s %8.0f calls/s  p50 %-9s p99 %-9s server CPU %.3f ms/call%s\n", n, c, rps, p50, p99,
           cpu * 10 / req, bad ? "  NON-2XX: " bad : ""}' "$out/$name-c$c.txt"
  done
}

# The server's own process: the launcher execs java, so the setsid'd pid is the JVM.
setsid "$sb" --store "$out/store.db" serve --transport http --port "$sb_port" --stats-interval 0 \
  --metric-rate-limit off --catalog-rate-limit off >"$out/schemabrain.log" 2>&1 &
pids+=("$!")
wait_for "$sb_port" "$out/schemabrain.log"
lua schemabrain describe_table '{"qualified_name":"main.invoices"}'
measure schemabrain "http://127.0.0.1:$sb_port/mcp" "${pids[0]}"
kill -TERM -- "-${pids[0]}"
wait "${pids[0]}" 2>/dev/null || true
answered=$(grep -c 'tool=describe_table status=200' "$out/schemabrain.log" || true)
"$sb" --store "$out/store.db" audit verify >"$out/verify.txt" 2>&1 && verified=ok || verified=FAILED
echo "schemabrain: audit verify $verified ($(tail -1 "$out/verify.txt")); $answered answered calls in the request log"

if [ -z "${SKIP_DBHUB:-}" ] && command -v npx >/dev/null 2>&1; then
  setsid npx -y "$dbhub_pkg" --transport http --port "$dbhub_port" --dsn "sqlite://$out/demo.sqlite" \
    >"$out/dbhub.log" 2>&1 &
  pids+=("$!")
  wait_for "$dbhub_port" "$out/dbhub.log"
  node_pid=$(pgrep -g "${pids[1]}" -f node | tail -1)
  lua dbhub search_objects '{"object_type":"table","pattern":"invoices","detail_level":"full"}'
  measure dbhub "http://127.0.0.1:$dbhub_port/mcp" "$node_pid"
fi
