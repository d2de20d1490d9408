#!/usr/bin/env python3
"""Process start to the initialize answer and to the first answered tools/call over stdio: spawn the server, send
initialize, initialized and one call at once, and time until each answer arrives. Run it in a directory holding a store (after
`./schemabrain demo`), with the server's command line as arguments:

    python3 bench/stdio-startup.py ./schemabrain serve --store schemabrain.db
    RUNS=7 python3 bench/stdio-startup.py java -jar target/schemabrain.jar serve --store schemabrain.db
    TOOL=search_objects ARGS='{"object_type":"table","pattern":"users","detail_level":"full"}' \\
      python3 bench/stdio-startup.py node .../dbhub/dist/index.js --transport stdio --dsn sqlite:///path/demo.sqlite
"""
import json, os, subprocess, sys, time
from mcpcheck import failure

cmd = sys.argv[1:]
if not cmd:
    sys.exit(__doc__)
tool = os.environ.get("TOOL", "describe_table")
args = json.loads(os.environ.get("ARGS", '{"qualified_name":"main.users"}'))


def once():
    started = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    messages = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
                 "capabilities": {}, "clientInfo": {"name": "stdio-startup", "version": "1"}}},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": args}}]
    p.stdin.write(("\n".join(json.dumps(m) for m in messages) + "\n").encode())
    p.stdin.flush()
    initialized = None
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("the server closed stdout before answering the call")
        answer = json.loads(line)
        if answer.get("id") == 0:
            initialized = time.perf_counter() - started
        if answer.get("id") == 1:
            break
    elapsed = time.perf_counter() - started
    why = failure(answer)
    if why:
        sys.exit("the call failed, so the time would not be a start-up: %s" % why)
    p.stdin.close()
    p.wait()
    return initialized, elapsed


pairs = [once() for _ in range(int(os.environ.get("RUNS", "5")))]
for name, runs in (("initialize", sorted(i for i, _ in pairs)), ("first " + tool, sorted(c for _, c in pairs))):
    print("start -> %s: median %.0f ms (min %.0f, max %.0f; %d runs)"
          % (name, runs[len(runs) // 2] * 1000, runs[0] * 1000, runs[-1] * 1000, len(runs)))
