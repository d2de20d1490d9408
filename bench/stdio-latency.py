#!/usr/bin/env python3
"""Latency of one tool, tools/list and ping over serve's stdio, measured with a raw newline-delimited JSON-RPC
client (no SDK in the way). Run it in a directory holding a store, e.g. after `./schemabrain demo`:

    python3 bench/stdio-latency.py            # describe_table on main.users, 500 calls each after 200 warm-up
    WARMUP=20000 python3 bench/stdio-latency.py   # the same once the JIT has compiled the call path
    N=3000 TOOL=find_relevant_tables ARGS='{"query":"invoices"}' python3 bench/stdio-latency.py

SB names the launcher (default: the repository's ./schemabrain); extra arguments go to serve.
A tool answer that is not success stops the run, so a wrong argument cannot pass for a fast call.
"""
import json, os, subprocess, sys, time

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
n = int(os.environ.get("N", "500"))
tool = os.environ.get("TOOL", "describe_table")
targs = json.loads(os.environ.get("ARGS", '{"qualified_name":"main.users"}'))
p = subprocess.Popen([os.environ.get("SB", os.path.join(here, "schemabrain")), "serve", "--store", "schemabrain.db",
                      "--metric-rate-limit", "off", "--catalog-rate-limit", "off"] + sys.argv[1:],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=-1)

def call(o):
    p.stdin.write((json.dumps(o) + "\n").encode())
    p.stdin.flush()
    return json.loads(p.stdout.readline()) if "id" in o else None

call({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {},
      "clientInfo": {"name": "stdio-latency", "version": "1"}}})
call({"jsonrpc": "2.0", "method": "notifications/initialized"})

def bench(method, params, k):
    lat = []
    for i in range(k):
        t = time.perf_counter()
        r = call({"jsonrpc": "2.0", "id": i + 1, "method": method, "params": params})
        lat.append((time.perf_counter() - t) * 1000)
        if "error" in r:
            sys.exit("%s failed: %s" % (method, r["error"]))
        if method == "tools/call" and '"status":"success"' not in r["result"]["content"][0]["text"]:
            sys.exit("%s did not succeed: %s" % (tool, r["result"]["content"][0]["text"][:300]))
    lat.sort()
    return lat[len(lat) // 2], lat[int(len(lat) * 0.95)], lat[max(0, int(len(lat) * 0.99) - 1)]

bench("tools/call", {"name": tool, "arguments": targs}, int(os.environ.get("WARMUP", "200")))
print("%s p50/p95/p99 ms: %.2f %.2f %.2f" % ((tool,) + bench("tools/call", {"name": tool, "arguments": targs}, n)))
print("tools/list p50/p95/p99 ms: %.2f %.2f %.2f" % bench("tools/list", {}, n))
print("ping p50/p95/p99 ms: %.2f %.2f %.2f" % bench("ping", {}, n))
p.stdin.close()
p.wait()
