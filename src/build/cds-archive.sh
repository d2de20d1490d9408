#!/usr/bin/env bash
# Builds target/schemabrain.jsa, a class-data sharing archive of the classes a stdio serve loads up to its first
# answered tools/call, so later starts map them instead of parsing them (start to first answer: docs/operations.md).
# Run by `mvn package` after the jar is shaded; the launcher uses the archive when it is newer than the jar.
# Training: index a small DDL schema, then serve it for initialize, tools/list and describe_table.
# A JVM without dynamic CDS (or any failure here) leaves no archive and does not fail the build.
set -uo pipefail
cd "$(dirname "$0")/../.."
jar="$PWD/target/schemabrain.jar"   # absolute: the archive records the class path it was made with
jsa=target/schemabrain.jsa
work=target/cds
rm -rf "$work" "$jsa"
mkdir -p "$work"
cat >"$work/schema.sql" <<'SQL'
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, country TEXT, created_at TIMESTAMP);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
  ordered_at TIMESTAMP NOT NULL, status TEXT, total_amount NUMERIC(10,2));
SQL
export XDG_CONFIG_HOME="$PWD/$work/config" XDG_STATE_HOME="$PWD/$work/state"
if ! java -jar "$jar" --store "$work/store.db" index --source "ddl:$work/schema.sql" >"$work/index.log" 2>&1; then
  echo "cds-archive: the training index failed (see $work/index.log); no class-data archive" >&2
  exit 0
fi
{
  printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"cds","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"describe_table","arguments":{"qualified_name":"public.orders"}}}' \
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"find_relevant_tables","arguments":{"query":"orders by country"}}}'
  sleep 4   # the answers and the background warm-up finish before stdin closes
} | java -XX:ArchiveClassesAtExit="$jsa" -Xlog:disable "-Xlog:all=warning,cds*=off:stderr" -XX:TieredStopAtLevel=1 \
      -XX:+UseSerialGC -jar "$jar" --store "$work/store.db" serve >"$work/serve.out" 2>"$work/serve.err"
if [ ! -s "$jsa" ] || ! grep -q '"id":2' "$work/serve.out"; then
  echo "cds-archive: the training serve did not answer (see $work/serve.err); no class-data archive" >&2
  rm -f "$jsa"
elif ! java -XX:SharedArchiveFile="$jsa" -Xshare:on -jar "$jar" --version >/dev/null 2>"$work/check.err"; then
  echo "cds-archive: this JVM cannot map the archive it wrote (see $work/check.err); no class-data archive" >&2
  rm -f "$jsa"
fi
exit 0
