#!/usr/bin/env python3
"""An agent's session over stdio, from a fresh process: initialize, then a cycle of the calls an agent makes
(search, describe, relate, find a metric, compute it, run a SELECT), GAP ms apart, N calls in all. Prints the p50,
p95 and p99 of the calls (each timed from request to answer) and the same per tool. Run it in a directory holding
the demo store (`schemabrain demo` writes schemabrain.demo.db and schemabrain-demo.sqlite):

    python3 bench/agent-session.py
    SB=/other/checkout/schemabrain N=400 GAP=20 python3 bench/agent-session.py
    CYCLE=cycle.json python3 bench/agent-session.py -- node .../dbhub/dist/index.js --transport stdio --dsn ...

SB names the launcher (default: this repository's ./schemabrain); TOOLS the --tools groups (default all; empty
for a server without the option). CYCLE names a JSON file of [tool, arguments] pairs to cycle through instead of
the demo's; a command line after `--` is run instead of SchemaBrain (a peer such as DBHub, with its own cycle).
An answer that is not success or empty stops the run, so a wrong argument cannot pass for a fast call.
"""
import json, os, subprocess, sys, time
from mcpcheck import failure

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
n = int(os.environ.get("N", "200"))
gap = float(os.environ.get("GAP", "50")) / 1000.0
store = os.environ.get("STORE", "schemabrain.demo.db")
source = os.environ.get("SOURCE", "sqlite:" + os.path.abspath("schemabrain-demo.sqlite"))
CYCLE = [
    ("find_relevant_tables", {"query": "revenue by customer country"}),
    ("describe_table", {"qualified_name": "main.invoices"}),
    ("suggest_joins", {"tables": ["main.invoices", "main.organizations"]}),
    ("list_metrics", {}),
    ("get_metric", {"name": "invoices_count", "time_grain": "month"}),
    ("describe_table", {"qualified_name": "main.payments"}),
    ("execute", {"sql": "SELECT status, count(*) AS n FROM main.invoices GROUP BY status"}),
    ("find_relevant_tables", {"query": "failed payments"}),
]
if os.environ.get("CYCLE"):
    with open(os.environ["CYCLE"]) as f:
        CYCLE = [tuple(pair) for pair in json.load(f)]
tools = os.environ.get("TOOLS", "all")   # TOOLS= (empty) for a server from before --tools
if sys.argv[1:2] == ["--"]:
    command = sys.argv[2:]
else:
    command = ([os.environ.get("SB", os.path.join(here, "schemabrain")), "--store", store, "serve"]
               + (["--tools", tools] if tools else []) + ["--source", source, "--metric-rate-limit", "off",
                                                          "--catalog-rate-limit", "off"] + sys.argv[1:])
p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=-1)


def call(o):
    p.stdin.write((json.dumps(o) + "\n").encode())
    p.stdin.flush()
    while "id" in o:   # a server's notifications in between are skipped
        answer = json.loads(p.stdout.readline() or sys.exit("the server closed stdout"))
        if answer.get("id") == o["id"]:
            return answer


call({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {},
      "clientInfo": {"name": "agent-session", "version": "1"}}})
call({"jsonrpc": "2.0", "method": "notifications/initialized"})
times = {}
every = []
order = []   # (ms, call number, tool): the slowest calls are listed at the end
for i in range(n):
    tool, args = CYCLE[i % len(CYCLE)]
    t = time.perf_counter()
    answer = call({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": tool, "arguments": args}})
    ms = (time.perf_counter() - t) * 1000
    why = failure(answer)
    if why:
        p.kill()
        sys.exit(f"{tool} failed: {why}")
    times.setdefault(tool, []).append(ms)
    every.append(ms)
    order.append((ms, i, tool))
    time.sleep(gap)
p.stdin.close()
p.wait()


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


print(f"{n} calls, {gap * 1000:.0f} ms apart: p50 {pct(every, .5):.2f} ms, p95 {pct(every, .95):.2f} ms, "
      f"p99 {pct(every, .99):.2f} ms, max {max(every):.1f} ms")
for tool, xs in times.items():
    print(f"  {tool:22} n={len(xs):4} p50 {pct(xs, .5):7.2f}  p99 {pct(xs, .99):7.2f}  first {xs[0]:7.1f} ms")
print("  slowest: " + ", ".join(f"#{i + 1} {tool} {ms:.1f}" for ms, i, tool in sorted(order, reverse=True)[:6]))
