#!/usr/bin/env python3
# CPU-seconds of a command's whole process tree, split by `npm test`'s steps (issue 30: on a shared
# machine wall time is noise, CPU is not). Usage: python3 scripts/cpu-steps.py npm test
# It makes itself the tree's child subreaper, so an orphaned Chromium or workerd process is still
# counted: the exact total is what the kernel reports for every reaped descendant (RUSAGE_CHILDREN).
# The split samples /proc every 0.5 s and charges each process's own CPU to the step it descends
# from: a direct child of scripts/test.mjs (a step's command, or a server: charged to the suite
# whose TEST_BASE_URL names its port). A process's CPU after its last sample is not seen by the
# split, so the split's sum is a little under the exact total ("unsampled" is the difference).
import ctypes, os, resource, signal, subprocess, sys, time

PR_SET_CHILD_SUBREAPER = 36
ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
TICK = os.sysconf("SC_CLK_TCK")


def stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        s = f.read()
    rest = s[s.rindex(")") + 2 :].split()
    return int(rest[1]), (int(rest[11]) + int(rest[12])) / TICK  # ppid, utime + stime


def read(pid, name):
    try:
        with open(f"/proc/{pid}/{name}", "rb") as f:
            return f.read().split(b"\0")
    except OSError:
        return []


def label_of(pid):
    cmd = b" ".join(read(pid, "cmdline")).decode(errors="replace")
    env = dict(e.decode(errors="replace").split("=", 1) for e in read(pid, "environ") if b"=" in e)
    if "scripts/start.mjs" in cmd:
        return "server:" + env.get("PORT", "?")
    for key, name in (("--project api", "api"), ("--project workers", "module"), ("e2e/community-empty", "e2e-empty"),
                      ("playwright", "e2e"), ("dev-smoke", "dev smoke"), ("typecheck", "typecheck"), ("lint", "lint"),
                      ("react-router", "build")):
        if key in cmd:
            port = env.get("TEST_BASE_URL", "").rsplit(":", 1)[-1]
            return name + (":" + port if port else "")
    return "other: " + cmd[:60]


def is_runner(argv):
    return len(argv) > 1 and os.path.basename(argv[0]).startswith(b"node") and argv[1].endswith(b"scripts/test.mjs")


child = subprocess.Popen(sys.argv[1:])
signal.signal(signal.SIGINT, lambda *_: child.send_signal(signal.SIGINT))
signal.signal(signal.SIGTERM, lambda *_: child.send_signal(signal.SIGTERM))
cpu, label, runner = {}, {}, None
while child.poll() is None:
    procs = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                procs[int(d)] = stat(int(d))
            except (OSError, ValueError, IndexError):
                pass
    if runner is None:
        # the node process running scripts/test.mjs (not npm's `sh -c` in front of it)
        runner = next((p for p in procs if is_runner(read(p, "cmdline"))), None)
    for pid, (ppid, t) in procs.items():
        if pid not in label:
            chain, p = [], pid
            while p in procs and p != os.getpid() and p != runner and p not in label and p > 1:
                chain.append(p)
                p = procs[p][0]
            if p == runner and chain:
                top = chain[-1]
                label[top] = label_of(top)
                base = label[top]
            elif p in label:
                base = label[p]
            elif p == os.getpid() or pid == runner:
                base = "runner"
            else:
                continue
            for q in chain:
                label.setdefault(q, base)
        if pid in label:
            cpu[pid] = t
    # reap orphans handed to us (their CPU lands in RUSAGE_CHILDREN)
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass
    time.sleep(0.5)
try:
    while True:
        os.waitpid(-1, 0)
except ChildProcessError:
    pass
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
total = ru.ru_utime + ru.ru_stime
by = {}
for pid, t in cpu.items():
    by[label[pid]] = by.get(label[pid], 0) + t
# "name:port" labels (a suite's command, a server); anything else ("other: <command>") as it is
with_port = lambda k: ":" in k and k.rsplit(":", 1)[1].isdigit()
ports = {k.rsplit(":", 1)[1]: k.rsplit(":", 1)[0] for k in by if with_port(k) and not k.startswith("server")}
merged = {}
for k, v in by.items():
    if k.startswith("server:"):
        k = f"{ports.get(k.split(':')[1], '?')} (server)"
    elif with_port(k):
        k = k.rsplit(":", 1)[0] + " (client)"
    merged[k] = merged.get(k, 0) + v
with open(os.environ.get("CPU_STEPS_OUT", "/dev/stderr"), "a") as out:
    for k, v in sorted(merged.items(), key=lambda kv: -kv[1]):
        print(f"CPU-s {v:8.1f}  {k}", file=out)
    print(f"CPU-s {total - sum(by.values()):8.1f}  unsampled", file=out)
    print(f"CPU-s {total:8.1f}  total (exact)", file=out)
sys.exit(child.returncode)
