#!/usr/bin/env python3
"""Several builds (or JVM flags) side by side on agent sessions: K rounds, each running one session of every variant
in turn (bench/agent-session.py, a fresh process each), then the median over the rounds of each variant's p50 and
p99, of each tool's first call and of each tool's p50. Run it where agent-session.py would run (a directory holding
the store), with its STORE, SOURCE, CYCLE, N and GAP:

    VARIANTS='[["before", "../before/schemabrain", ""], ["after", "./schemabrain", ""],
               ["after+flag", "./schemabrain", "-XX:CompileThresholdScaling=0.1"]]' K=7 \\
    STORE=chinook.db SOURCE=postgresql://localhost/chinook CYCLE=cycle.json python3 bench/session-pairs.py

Each variant is [name, launcher, SCHEMABRAIN_JAVA_OPTS]. A session's first calls vary by tens of milliseconds from
one start to the next on a small machine, so compare medians of five or more rounds, never two single sessions.
"""
import json, os, re, statistics, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
variants = json.loads(os.environ["VARIANTS"])
rounds = int(os.environ.get("K", "5"))
seen = {name: [] for name, _, _ in variants}
for _ in range(rounds):
    for name, launcher, opts in variants:
        env = dict(os.environ, SB=launcher, SCHEMABRAIN_JAVA_OPTS=opts)
        run = subprocess.run([sys.executable, os.path.join(here, "agent-session.py")], env=env, capture_output=True,
                             text=True)
        total = re.search(r"p50 ([\d.]+) ms, p95 [\d.]+ ms, p99 ([\d.]+) ms", run.stdout)
        if run.returncode != 0 or not total:
            sys.exit(f"{name}: the session failed: {(run.stdout + run.stderr).strip()[-400:]}")
        tools = re.findall(r"^\s+(\w+)\s+n=\s*\d+ p50\s+([\d.]+)\s+p99\s+[\d.]+\s+first\s+([\d.]+) ms", run.stdout, re.M)
        slowest = next((line.strip() for line in run.stdout.splitlines() if "slowest" in line), "")
        seen[name].append((float(total.group(1)), float(total.group(2)), {t: (float(p), float(f)) for t, p, f in tools}))
        print(f"{name:12} p50 {total.group(1)} p99 {total.group(2)}  {slowest[:130]}", flush=True)
print()
for name, runs in seen.items():
    median = statistics.median
    print(f"{name}: p50 {median(r[0] for r in runs):.2f} ms, p99 {median(r[1] for r in runs):.2f} ms "
          f"(medians of {len(runs)} sessions)")
    tools = runs[0][2].keys()
    print("  first call: " + ", ".join(f"{t} {median(r[2][t][1] for r in runs):.1f}" for t in tools))
    print("  p50:        " + ", ".join(f"{t} {median(r[2][t][0] for r in runs):.2f}" for t in tools))
