#!/usr/bin/env bash
# Builds target/schemabrain.jsa, a class-data sharing archive of the classes a stdio serve loads up to its first
# answered tools/call, so later starts map them instead of parsing them (start to first answer: docs/operations.md).
# Run by `mvn package` after the jar is shaded; the launcher uses the archive when it is newer than the jar.
# Training: the demo's database and store (no server needed: SQLite is bundled), then a serve of it for an agent's
# first calls (search, describe, relate, list and compute a metric, run a SELECT), so the classes a session's first
# get_metric and execute load (the compiler, the SQL guard, JDBC result sets, the audit) are mapped too.
# A JVM without dynamic CDS (or any failure here) leaves no archive and does not fail the build.
set -uo pipefail
cd "$(dirname "$0")/../.."
jar="$PWD/target/schemabrain.jar"   # absolute: the archive records the class path it was made with
jsa=target/schemabrain.jsa
work=target/cds
rm -rf "$work" "$jsa"
mkdir -p "$work"
export XDG_CONFIG_HOME="$PWD/$work/config" XDG_STATE_HOME="$PWD/$work/state"
if ! java -jar "$jar" --store "$work/store.db" demo --database "$work/demo.sqlite" >"$work/demo.log" 2>&1; then
  echo "cds-archive: the training demo failed (see $work/demo.log); no class-data archive" >&2
  exit 0
fi
call() {   # id, tool, arguments
  printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":%s}}\n' "$1" "$2" "$3"
  sleep 0.3
}
{
  printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"cds","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"describe_table","arguments":{"qualified_name":"main.invoices"}}}'
  sleep 2   # the background warm-up runs as it would before an agent's first call
  call 3 find_relevant_tables '{"query":"revenue by customer country"}'
  call 4 suggest_joins '{"tables":["main.invoices","main.organizations"]}'
  call 5 list_metrics '{}'
  call 6 get_metric '{"name":"invoices_count","time_grain":"month"}'
  call 7 get_metric '{"name":"invoices_total_cents_sum","group_by":["organizations.country"],"limit":3}'
  call 8 execute '{"sql":"SELECT i.status, count(*) AS n, sum(i.total_cents) AS total FROM main.invoices AS i JOIN main.subscriptions AS s ON s.id = i.subscription_id WHERE i.issued_at >= '"'"'2024-01-01'"'"' GROUP BY i.status"}'
  call 9 describe_entity '{"name":"invoices"}'
  sleep 2   # the answers and the background warm-up finish before stdin closes
} | java -XX:ArchiveClassesAtExit="$jsa" -Xlog:disable "-Xlog:all=warning,cds*=off:stderr" -XX:TieredStopAtLevel=1 \
      -XX:+UseSerialGC -jar "$jar" --store "$work/store.db" serve --source "sqlite:$work/demo.sqlite" --source "duckdb:$work/demo-events.duckdb" >"$work/serve.out" 2>"$work/serve.err"
if [ ! -s "$jsa" ] || ! grep -q '"id":8' "$work/serve.out"; then
  echo "cds-archive: the training serve did not answer (see $work/serve.err); no class-data archive" >&2
  rm -f "$jsa"
elif ! java -XX:SharedArchiveFile="$jsa" -Xshare:on -jar "$jar" --version >/dev/null 2>"$work/check.err"; then
  echo "cds-archive: this JVM cannot map the archive it wrote (see $work/check.err); no class-data archive" >&2
  rm -f "$jsa"
fi
exit 0
