#!/usr/bin/env python3
"""SchemaBrain beside its peers in one run, on Chinook in PostgreSQL: each figure is measured with the same client for
every server, the servers interleaved, and /proc/loadavg printed before and after each pair.

  1. process start to the first answered call over stdio (bench/stdio-startup.py): describe_table against DBHub's
     search_objects and server-postgres's query of information_schema, median of RUNS interleaved starts;
  2. an agent's session over stdio from a fresh process, calls GAP ms apart (bench/agent-session.py): SchemaBrain's
     cycle against DBHub's nearest cycle (search_objects, and execute_sql of the SQL SchemaBrain's get_metric reports);
  3. resident memory after CALLS lookups over stdio (bench/serve-memory.py), all three servers;
  4. get_metric over Streamable HTTP at CONCURRENCY with wrk, against DBHub's execute_sql of exactly the SQL that
     get_metric reports (its parameters inlined);
  5. describe_table over HTTP against a bare Jetty (bench/JettyEcho.java, the Jetty serve embeds) answering the same
     bytes.

    psql -d postgres -f bench/sampledbs/chinook.sql   # the file drops, creates and connects to database chinook
    python3 bench/peers.py
    CHINOOK_URL=postgresql://postgres@127.0.0.1:5432/mydb RUNS=9 python3 bench/peers.py
    DBHUB="node /opt/peers/node_modules/@bytebase/dbhub/dist/index.js" python3 bench/peers.py

Peers: DBHUB and PG_MCP are command lines (without their database arguments); by default each is fetched once with
`npx -y` and then run as `node BIN`, so npx's own start is not counted. DBHUB_DSN overrides the DSN given to DBHub
(default: CHINOOK_URL as postgres://...?sslmode=disable). Knobs: RUNS (5), N (200 calls a session), GAP (50 ms),
SESSIONS (3 of each), CALLS (2000), IDLE (5 s), WARMUP (20 s of wrk before the timed runs), DURATION (15 s),
CONCURRENCY (8), ROUNDS (2), FIGURES (1,2,3,4,5), SB_METRIC and HTTP_METRIC (get_metric's arguments). The store,
the servers' logs, wrk's reports and each session's per-tool lines land in target/bench-peers/ (OUT). Needs wrk for
4 and 5, java for 5, node/npx for the peers.
"""
import atexit, json, os, re, shlex, shutil, signal, statistics, subprocess, sys, time, urllib.request

bench = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(bench)
sys.path.insert(0, bench)
from mcpcheck import failure  # noqa: E402

env = os.environ.get
out = os.path.abspath(env("OUT", os.path.join(root, "target", "bench-peers")))
url = env("CHINOOK_URL", "postgresql://postgres@127.0.0.1:5432/chinook")
sb = shlex.split(env("SB", os.path.join(root, "schemabrain")))
figures = {int(f) for f in env("FIGURES", "1,2,3,4,5").split(",") if f}
runs, sessions, rounds = int(env("RUNS", "5")), int(env("SESSIONS", "3")), int(env("ROUNDS", "2"))
warmup, duration, concurrency = int(env("WARMUP", "20")), int(env("DURATION", "15")), int(env("CONCURRENCY", "8"))
store = os.path.join(out, "chinook.db")
session_metric = json.loads(env("SB_METRIC", '{"name":"invoice_total_sum","time_grain":"year"}'))
http_metric = json.loads(env("HTTP_METRIC", '{"name":"invoice_total_sum","group_by":["invoice.billing_country"]}'))
ports = {"schemabrain": 18471, "dbhub": 18472, "jetty-echo": 18473}
summary = []   # (figure, ours, peer name, peer's, unit, lower is better)
children = []


def stop_children():
    for p in children:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(p.pid, signal.SIGKILL)


atexit.register(stop_children)


def load(label):
    with open("/proc/loadavg") as f:
        print("    loadavg %-7s %s" % (label, f.read().strip()), flush=True)


def peer(var, package, binary):
    """A peer's command line: $var as given, else the package's bin fetched once by npx and run with node."""
    if env(var):
        return shlex.split(env(var))
    for _ in range(2):   # npx's first run installs, and has been seen to print nothing then
        found = subprocess.run(["npx", "-y", "-p", package, "-c", "command -v " + binary],
                               capture_output=True, text=True).stdout.strip()
        if found:
            return ["node", os.path.realpath(found)]
    sys.exit("peers: npx could not fetch %s; install it and set %s to its command line." % (package, var))


def run(script, command, extra_env):
    """One of the bench scripts with its environment; its last line of output."""
    done = subprocess.run([sys.executable, os.path.join(bench, script)] + command, capture_output=True, text=True,
                          env={**os.environ, **{k: str(v) for k, v in extra_env.items()}}, cwd=out)
    if done.returncode != 0:
        sys.exit("peers: %s %s failed: %s" % (script, " ".join(command[:3]), (done.stderr or done.stdout).strip()[-500:]))
    return done.stdout.strip()


def number(pattern, text):
    return float(re.search(pattern, text).group(1))


def stdio_calls(command, calls):
    """The answers to calls ([tool, arguments]) from one stdio server process."""
    p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=out)
    messages = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
                 "capabilities": {}, "clientInfo": {"name": "peers", "version": "1"}}},
                {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    messages += [{"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": t, "arguments": a}}
                 for i, (t, a) in enumerate(calls)]
    p.stdin.write(("\n".join(json.dumps(m) for m in messages) + "\n").encode())
    p.stdin.close()
    answers = {}
    for line in p.stdout:
        reply = json.loads(line)
        if reply.get("id"):
            answers[reply["id"]] = reply
    p.wait()
    return [answers.get(i + 1, {"error": "no answer"}) for i in range(len(calls))]


def envelope(reply):
    result = reply.get("result") or {}
    return result.get("structuredContent") or json.loads(result["content"][0]["text"])


def inline(sql, params):
    """get_metric's SQL with its parameters written in, for a server that takes SQL text only."""
    pieces = sql.split("?")
    if len(pieces) != len(params) + 1 or "'" in sql and any("?" in s for s in re.findall(r"'[^']*'", sql)):
        sys.exit("peers: the metric's SQL does not have one ? per parameter outside quotes; cannot inline it.")
    literal = [str(v) if isinstance(v, (int, float)) else "'" + str(v).replace("'", "''") + "'" for v in params]
    return "".join(p + (literal[i] if i < len(literal) else "") for i, p in enumerate(pieces))


def metric_sql(arguments):
    reply = stdio_calls(sb_serve, [("get_metric", arguments)])[0]
    why = failure(reply, ok=("success", "degraded"))
    if why:
        sys.exit("peers: get_metric %s failed: %s" % (json.dumps(arguments), why))
    data = envelope(reply)["data"]
    return inline(data["sql"], data.get("params", [])), len(data["rows"])


def ratio(ours, theirs):
    return "%.2f" % (ours / theirs) if theirs else "-"


# --- setup -------------------------------------------------------------------------------------------------------
os.makedirs(out, exist_ok=True)
for stale in ("chinook.db", "chinook.db-wal", "chinook.db-shm", "chinook.audit.db", "chinook.audit.db-wal",
              "chinook.audit.db-shm"):
    if os.path.exists(os.path.join(out, stale)):
        os.remove(os.path.join(out, stale))
indexed = subprocess.run(sb + ["--store", store, "index", "--source", url], capture_output=True, text=True)
if indexed.returncode != 0:
    sys.exit("peers: indexing %s failed (load bench/sampledbs/chinook.sql and set CHINOOK_URL): %s"
             % (url, indexed.stderr.strip()[-400:]))
dsn = env("DBHUB_DSN", re.sub(r"^postgresql://", "postgres://", url) + ("&" if "?" in url else "?") + "sslmode=disable")
dbhub = peer("DBHUB", "@bytebase/dbhub", "dbhub")
pg_mcp = peer("PG_MCP", "@modelcontextprotocol/server-postgres", "mcp-server-postgres")
limits = ["--metric-rate-limit", "off", "--catalog-rate-limit", "off"]
sb_serve = sb + ["--store", store, "serve", "--source", url] + limits
print("SchemaBrain: %s\nDBHub: %s --dsn %s\nserver-postgres: %s\nwhere: %s; %s"
      % (" ".join(sb), " ".join(dbhub), dsn, " ".join(pg_mcp), url, os.uname().nodename), flush=True)
session_sql, _ = metric_sql(session_metric)
http_sql, http_rows = metric_sql(http_metric)
aggregate = ("SELECT g.name, count(*) AS tracks FROM public.track AS t JOIN public.genre AS g ON g.genre_id = t.genre_id "
             "GROUP BY g.name")   # tracks are no one's: execute suppresses no group

# --- 1. start to the first answered call ---------------------------------------------------------------------------
if 1 in figures:
    print("\n1. process start -> first answered call over stdio (%d interleaved runs)" % runs, flush=True)
    starters = [
        ("schemabrain describe_table", sb + ["--store", store, "serve"],
         {"TOOL": "describe_table", "ARGS": '{"qualified_name":"public.invoice"}'}),
        ("dbhub search_objects", dbhub + ["--transport", "stdio", "--dsn", dsn],
         {"TOOL": "search_objects", "ARGS": '{"object_type":"table","pattern":"invoice","detail_level":"full"}'}),
        ("server-postgres query", pg_mcp + [url],
         {"TOOL": "query", "ARGS": json.dumps({"sql": "SELECT column_name, data_type, is_nullable FROM "
                                               "information_schema.columns WHERE table_name = 'invoice'"})}),
    ]
    starts = {name: [] for name, _, _ in starters}
    for r in range(runs):
        load("before")
        for name, command, e in starters:
            starts[name].append(number(r"median (\d+) ms", run("stdio-startup.py", command, {**e, "RUNS": 1})))
        load("after")
    medians = {name: statistics.median(xs) for name, xs in starts.items()}
    for name, xs in starts.items():
        print("  %-28s median %5.0f ms  (runs: %s)" % (name, medians[name], ", ".join("%.0f" % x for x in xs)))
    ours = medians["schemabrain describe_table"]
    summary.append(("1. start -> first answered call, stdio (ms)", ours, "DBHub", medians["dbhub search_objects"], True))
    summary.append(("", ours, "server-postgres", medians["server-postgres query"], True))

# --- 2. an agent's session -----------------------------------------------------------------------------------------
if 2 in figures:
    n, gap = int(env("N", "200")), env("GAP", "50")
    print("\n2. agent session over stdio, fresh process, %d calls %s ms apart (%d sessions each, interleaved)"
          % (n, gap, sessions), flush=True)
    print("  the metric's SQL (get_metric %s), given to DBHub's execute_sql:\n    %s" % (json.dumps(session_metric),
                                                                                       session_sql))
    cycles = {
        "schemabrain": [
            ("find_relevant_tables", {"query": "revenue by customer country"}),
            ("describe_table", {"qualified_name": "public.invoice"}),
            ("suggest_joins", {"tables": ["public.invoice", "public.customer"]}),
            ("list_metrics", {}),
            ("get_metric", session_metric),
            ("describe_table", {"qualified_name": "public.invoice_line"}),
            ("execute", {"sql": aggregate}),
            ("find_relevant_tables", {"query": "tracks by genre"}),
        ],
        "dbhub": [   # the nearest call DBHub has for each of SchemaBrain's
            ("search_objects", {"object_type": "table", "pattern": "%invoice%", "detail_level": "summary"}),
            ("search_objects", {"object_type": "table", "pattern": "invoice", "detail_level": "full"}),
            ("execute_sql", {"sql": "SELECT conname, pg_get_constraintdef(oid) AS definition FROM pg_constraint "
                                    "WHERE contype = 'f' AND conrelid = 'public.invoice'::regclass"}),
            ("search_objects", {"object_type": "column", "schema": "public", "table": "invoice"}),
            ("execute_sql", {"sql": session_sql}),
            ("search_objects", {"object_type": "table", "pattern": "invoice_line", "detail_level": "full"}),
            ("execute_sql", {"sql": aggregate}),
            ("search_objects", {"object_type": "table", "pattern": "%track%", "detail_level": "summary"}),
        ],
    }
    for name, cycle in cycles.items():
        with open(os.path.join(out, "cycle-%s.json" % name), "w") as f:
            json.dump(cycle, f)
    commands = {"schemabrain": [], "dbhub": ["--"] + dbhub + ["--transport", "stdio", "--dsn", dsn]}
    found = {name: [] for name in cycles}
    for s in range(sessions):
        load("before")
        for name in cycles:
            e = {"N": n, "GAP": gap, "CYCLE": os.path.join(out, "cycle-%s.json" % name), "STORE": store,
                 "SOURCE": url, "SB": sb[0]}
            text = run("agent-session.py", commands[name], e)
            with open(os.path.join(out, "session-%s-%d.txt" % (name, s + 1)), "w") as f:
                f.write(text + "\n")   # the per-tool lines, with each tool's first call
            found[name].append((number(r"p50 ([\d.]+) ms", text), number(r"p99 ([\d.]+) ms", text)))
            print("  %-12s %s" % (name, text.splitlines()[0]), flush=True)
        load("after")
    p50 = {k: statistics.median(x[0] for x in v) for k, v in found.items()}
    p99 = {k: statistics.median(x[1] for x in v) for k, v in found.items()}
    summary.append(("2. agent session p50, stdio (ms)", p50["schemabrain"], "DBHub", p50["dbhub"], True))
    summary.append(("2. agent session p99, stdio (ms)", p99["schemabrain"], "DBHub", p99["dbhub"], True))

# --- 3. memory after CALLS lookups ---------------------------------------------------------------------------------
if 3 in figures:
    calls = int(env("CALLS", "2000"))
    words = "album,artist,customer,employee,genre,invoice,invoice_line,media_type,playlist,playlist_track,track"
    print("\n3. resident memory after %d lookups over stdio (one table's name a call)" % calls, flush=True)
    memory_runs = [
        ("schemabrain", sb + ["--store", store, "serve"] + limits, {}),
        ("dbhub", dbhub + ["--transport", "stdio", "--dsn", dsn],
         {"TOOL": "search_objects", "ARGS": '{"object_type":"table","pattern":"%{word}%","detail_level":"full"}'}),
        ("server-postgres", pg_mcp + [url],
         {"TOOL": "query", "ARGS": json.dumps({"sql": "SELECT table_name, column_name, data_type FROM "
                                               "information_schema.columns WHERE table_name LIKE '%{word}%'"})}),
    ]
    rss = {}
    load("before")
    for name, command, e in memory_runs:
        text = run("serve-memory.py", command, {**e, "CALLS": calls, "IDLE": env("IDLE", "5"), "WORDS": words})
        rss[name] = number(r"RSS after \d+ calls (\d+) kB", text) / 1024
        print("  %-16s %s" % (name, text), flush=True)
        load("after")
    summary.append(("3. RSS after %d calls (MiB)" % calls, rss["schemabrain"], "DBHub", rss["dbhub"], True))
    summary.append(("", rss["schemabrain"], "server-postgres", rss["server-postgres"], True))


# --- HTTP: 4 and 5 -------------------------------------------------------------------------------------------------
def post(port, body, session=None):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if session:
        headers["Mcp-Session-Id"] = session
    request = urllib.request.Request("http://127.0.0.1:%d/mcp" % port, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        raw = answer.read()
        return raw, answer.headers.get("Content-Type", ""), answer.headers.get("Mcp-Session-Id")


def rpc(raw):
    text = raw.decode()
    if not text.lstrip().startswith("{"):   # an event stream: the last data line is the answer
        text = [line[5:] for line in text.splitlines() if line.startswith("data:")][-1]
    return json.loads(text)


def start_http(name, command):
    log = open(os.path.join(out, name + ".log"), "w")
    p = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=out,
                         start_new_session=True)
    children.append(p)
    for _ in range(600):
        try:
            urllib.request.urlopen("http://127.0.0.1:%d/" % ports[name], timeout=2)
            break
        except urllib.error.HTTPError:
            break
        except OSError:
            if p.poll() is not None:
                sys.exit("peers: %s stopped at start; see %s." % (name, log.name))
            time.sleep(0.5)
    else:
        sys.exit("peers: %s did not answer on port %d within 5 minutes; see %s." % (name, ports[name], log.name))
    return p


def handshake(name):
    _, _, session = post(ports[name], {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "peers", "version": "1"}}})
    post(ports[name], {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    return session


def call_http(name, session, tool, arguments, ok=("success",)):
    """One checked tools/call; the raw answer bytes and their content type."""
    raw, kind, _ = post(ports[name], {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                      "params": {"name": tool, "arguments": arguments}}, session)
    reply = rpc(raw)
    why = failure(reply, ok=ok)
    if why:
        sys.exit("peers: %s %s failed over HTTP: %s" % (name, tool, why))
    return raw, kind, reply


def lua(name, session, tool, arguments):
    path = os.path.join(out, name + ".lua")
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    with open(path, "w") as f:
        f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                'wrk.headers["Accept"] = "application/json, text/event-stream"\n')
        if session:
            f.write('wrk.headers["Mcp-Session-Id"] = "%s"\n' % session)
        f.write("wrk.body = [==[%s]==]\n" % body)
    return path


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def wrk(name, script, seconds, pid=None):
    before = cpu_ticks(pid) if pid else 0
    text = subprocess.run(["wrk", "-t2", "-c%d" % concurrency, "-d%ds" % seconds, "--latency", "-s", script,
                           "http://127.0.0.1:%d/mcp" % ports[name]], capture_output=True, text=True).stdout
    with open(os.path.join(out, "%s-c%d.txt" % (name, concurrency)), "a") as f:
        f.write(text)
    rate = number(r"Requests/sec:\s+([\d.]+)", text)
    requests = number(r"(\d+) requests in", text)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    cpu = (cpu_ticks(pid) - before) * 1000.0 / os.sysconf("SC_CLK_TCK") / max(requests, 1) if pid else 0
    line = "  %-12s c=%d %8.0f calls/s  p50 %-9s p99 %-9s%s%s" % (
        name, concurrency, rate, re.search(r" 50%\s+(\S+)", text).group(1), re.search(r" 99%\s+(\S+)", text).group(1),
        "  server CPU %.3f ms/call" % cpu if pid else "", "  NON-2XX: " + bad.group(1) if bad else "")
    print(line, flush=True)
    return rate


def pairs(title, sides):
    """Warm each side up, then ROUNDS interleaved timed runs; the median calls/s of each."""
    print(title, flush=True)
    for name, script, pid in sides:
        subprocess.run(["wrk", "-t2", "-c%d" % concurrency, "-d%ds" % warmup, "-s", script,
                        "http://127.0.0.1:%d/mcp" % ports[name]], capture_output=True)
    rates = {name: [] for name, _, _ in sides}
    for _ in range(rounds):
        load("before")
        for name, script, pid in sides:
            rates[name].append(wrk(name, script, duration, pid))
        load("after")
    return {name: statistics.median(xs) for name, xs in rates.items()}


if figures & {4, 5}:
    if not shutil.which("wrk"):
        sys.exit("peers: wrk is not installed (apt-get install wrk); figures 4 and 5 need it.")
    server = start_http("schemabrain", sb + ["--store", store, "serve", "--transport", "http", "--port",
                                             str(ports["schemabrain"]), "--stats-interval", "0", "--source", url] + limits)
    sb_session = handshake("schemabrain")

if 4 in figures:
    dbhub_server = start_http("dbhub", dbhub + ["--transport", "http", "--port", str(ports["dbhub"]), "--dsn", dsn])
    dbhub_session = handshake("dbhub")
    _, _, ours = call_http("schemabrain", sb_session, "get_metric", http_metric, ok=("success", "degraded"))
    _, _, theirs = call_http("dbhub", dbhub_session, "execute_sql", {"sql": http_sql})
    rows = (len(envelope(ours)["data"]["rows"]), len(envelope(theirs)["data"]["rows"]))
    print("\n4. get_metric %s over HTTP vs DBHub execute_sql of its SQL, c=%d, %d s after %d s warm-up\n"
          "  SQL: %s\n  rows per answer: SchemaBrain %d (status %s; smaller groups suppressed inside the SQL), "
          "DBHub %d" % (json.dumps(http_metric), concurrency, duration, warmup, http_sql, rows[0],
                        envelope(ours)["status"], rows[1]), flush=True)
    if not all(rows):
        sys.exit("peers: an answer had no rows, so its rate would not count answers with rows.")
    rates = pairs("", [("schemabrain", lua("metric-schemabrain", sb_session, "get_metric", http_metric), server.pid),
                       ("dbhub", lua("metric-dbhub", dbhub_session, "execute_sql", {"sql": http_sql}), dbhub_server.pid)])
    call_http("schemabrain", sb_session, "get_metric", http_metric, ok=("success", "degraded"))
    call_http("dbhub", dbhub_session, "execute_sql", {"sql": http_sql})
    summary.append(("4. get_metric HTTP c=%d (answers/s)" % concurrency, rates["schemabrain"], "DBHub execute_sql",
                    rates["dbhub"], False))
    os.killpg(dbhub_server.pid, signal.SIGTERM)

if 5 in figures:
    describe = {"qualified_name": "public.invoice"}
    raw, kind, _ = call_http("schemabrain", sb_session, "describe_table", describe)
    body = os.path.join(out, "describe-table.body")
    with open(body, "wb") as f:
        f.write(raw)
    echo = start_http("jetty-echo", ["java", "-cp", os.path.join(root, "target", "schemabrain.jar"),
                              os.path.join(bench, "JettyEcho.java"), str(ports["jetty-echo"]), body, kind])
    echoed = urllib.request.urlopen(urllib.request.Request("http://127.0.0.1:%d/mcp" % ports["jetty-echo"], b"{}")).read()
    if echoed != raw:
        sys.exit("peers: the Jetty echo did not answer describe_table's bytes.")
    rates = pairs("\n5. describe_table over HTTP vs a bare Jetty answering the same %d bytes (%s), c=%d"
                  % (len(raw), kind, concurrency),
                  [("schemabrain", lua("describe-schemabrain", sb_session, "describe_table", describe), server.pid),
                   ("jetty-echo", lua("describe-echo", None, "describe_table", describe), echo.pid)])
    summary.append(("5. describe_table HTTP c=%d (calls/s)" % concurrency, rates["schemabrain"], "Jetty echo",
                    rates["jetty-echo"], False))

stop_children()
print("\n| figure | SchemaBrain | peer | peer's | ratio us/peer |\n|---|---|---|---|---|")
for figure, ours, name, theirs, lower in summary:
    print("| %s | %.0f | %s | %.0f | %s (%s is better) |" % (figure, ours, name, theirs, ratio(ours, theirs),
                                                           "lower" if lower else "higher"))
