#!/usr/bin/env python3
"""Resident memory of a stdio serve: start the server with the command line given, send initialize and CALLS
find_relevant_tables calls (questions made of the catalog's own table names, so every call searches), then read
VmRSS and VmHWM from /proc, wait IDLE seconds, and read VmRSS again (a server should not grow while idle).

    python3 bench/serve-memory.py ./schemabrain serve --store scale.db
    CALLS=1000 IDLE=60 python3 bench/serve-memory.py java -jar target/schemabrain.jar serve --store scale.db
    JCMD="GC.heap_info,VM.native_memory summary" python3 bench/serve-memory.py java -XX:NativeMemoryTracking=summary ...
    SETTLE=90 python3 bench/serve-memory.py ./schemabrain serve --store scale1m.db   # time calls after the table graph is built
    TOOL=search_objects ARGS='{"object_type":"table","pattern":"%{word}%"}' WORDS=album,artist \
      python3 bench/serve-memory.py node .../dbhub/dist/index.js --transport stdio --dsn ...   # a peer's lookup

TOOL and ARGS replace find_relevant_tables for a server without it: each call's ARGS has {word} replaced by the next
of WORDS (comma-separated; default: the schema names, read with find_relevant_tables '*').

Prints one line: RSS after the calls, peak RSS, RSS after the idle wait, and the p50/p95 of the calls in ms.
"""
import json, os, subprocess, sys, time
from mcpcheck import failure

cmd = sys.argv[1:]
if not cmd:
    sys.exit(__doc__)
calls = int(os.environ.get("CALLS", "300"))
idle = int(os.environ.get("IDLE", "30"))
settle = int(os.environ.get("SETTLE", "0"))   # seconds between the first call and the timed ones
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
ids = iter(range(1, 10 ** 9))


def call(method, params):
    i = next(ids)
    p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n").encode())
    p.stdin.flush()
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("the server ended before answering %s" % method)
        try:
            reply = json.loads(line)
        except ValueError:
            sys.exit("the server wrote a line that is not JSON on stdout: %r" % line[:200])
        if reply.get("id") == i:
            if "error" in reply:
                sys.exit("%s failed: %s" % (method, reply["error"]))
            return reply["result"]


def status():
    fields = {}
    with open("/proc/%d/status" % p.pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def tool(name, arguments):
    result = call("tools/call", {"name": name, "arguments": arguments})
    why = failure({"result": result}, ok=("success",))
    if why:
        sys.exit("%s did not succeed: %s" % (name, why))
    return json.loads(result["content"][0]["text"])


call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "serve-memory", "version": "1"}})
p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
p.stdin.flush()
words = [w for w in os.environ.get("WORDS", "").split(",") if w]
peer_tool = os.environ.get("TOOL")
if peer_tool:
    template = os.environ.get("ARGS", "{}")


    def one_call(k):
        word = json.dumps(words[k % len(words)] if words else "customer")[1:-1]
        tool(peer_tool, json.loads(template.replace("{word}", word)))
else:
    # The schemas' names from the tables find_relevant_tables lists for "*" (list_indexed_schemas is not in serve's
    # default tools).
    for hit in [] if words else tool("find_relevant_tables", {"query": "*", "limit": 50})["data"].get("hits", []):
        name = hit.get("qualified_name", "").split(".")[0]
        if name and name.replace("_", " ") not in words:
            words.append(name.replace("_", " "))


    def one_call(k):
        question = "which %s records changed last week %d" % (words[k % len(words)] if words else "customer", k)
        tool("find_relevant_tables", {"query": question, "limit": 10})
if settle:
    one_call(0)
    time.sleep(settle)
lat = []
for k in range(calls):
    t = time.perf_counter()
    one_call(k)
    lat.append((time.perf_counter() - t) * 1000)
after = status()
if os.environ.get("JCMD"):   # the command must be java itself, so that the child is the JVM
    for what in os.environ["JCMD"].split(","):
        out = subprocess.run(["jcmd", str(p.pid)] + what.split(), capture_output=True, text=True).stdout
        print("\n".join(l for l in out.splitlines() if l.startswith(("-", "Total", " def", " tenured", " garbage", " region", " Metaspace"))))
time.sleep(idle)
later = status()
p.stdin.close()
p.wait(timeout=60)
lat.sort()
print("RSS after %d calls %s (peak %s); after %d s idle %s; %s p50 %.1f ms, p95 %.1f ms" % (
    calls, after["VmRSS"], after["VmHWM"], idle, later["VmRSS"], peer_tool or "find", lat[len(lat) // 2], lat[int(len(lat) * 0.95)]))
