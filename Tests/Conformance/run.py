#!/usr/bin/python3
##===----------------------------------------------------------------------===##
#
# This source file is part of the photomill open source project
#
# Copyright (c) 2026 the photomill authors
# Licensed under Apache License v2.0
#
# See LICENSE for license information
#
# SPDX-License-Identifier: Apache-2.0
#
##===----------------------------------------------------------------------===##

"""The PMILL conformance suite: scenarios run against the real coordinator
(`photomill coordinator`) with a worker of either implementation — the Python worker of
pyworker/, written from protocols/PROTOCOL.md alone, or the Swift `photomill worker`.

    run.py --photomill .build/debug/photomill --worker python|swift [--scenario NAME ...]

Every scenario ends with the same checks, read from the catalog with sqlite3:
  * every photo's hash task is done, by exactly one `done` attempt;
  * the stored MD5 and SHA-256 equal what md5sum and sha256sum print for the file;
  * the coordinator counted no protocol violation (the `violations` table is empty; only
    `ready-invalid` allows its two refused READYs, `invalid-field` and `old-protocol`);
  * the run ends: the coordinator exits 0 on SIGTERM, and so do the workers still running.
Some add their own (no lease expired despite slow jobs, one registration per worker, …).

Scenarios that need a worker to misbehave on purpose run with the Python worker only
(PYTHON_ONLY: its --omit-heartbeat, --spoil-ready and --fail-first-of-batch options); with
--worker swift they are left out, and refused when named:
  * heartbeat-unset: a READY without heartbeat_interval_ms registers and both peers use
    1000 ms: jobs of 3.5 s, no worker-lost attempt, one registration;
  * ready-invalid: READY with slots=0 gets DISCONNECT `invalid-field: …` naming `slots`,
    READY with protocol_version=0 (unset) gets `old-protocol`; both workers exit 3 (the
    worker's status for a refused READY); then a valid worker does all the work;
  * fail-before-result: FAILs (`timeout`, retryable) held back and sent in one RESULTS with
    a later job's RESULT; each recorded as a retry of class timeout under its own token.
Both workers run restart-leases-out: the coordinator is killed with 4 leases of 3-s jobs in
the catalog; the next run adopts them and commits the re-sent RESULTs (no attempt but
`done`, one a task; the Python worker's log shows those job ids ACKed committed).
The Python worker logs every JOB, ACK and DISCONNECT (its reason's token) with job ids
and tokens; the scenarios count from that log and from the catalog, and wait on events
(a line in a log, a row in the catalog, an exit).
Exit status 0 when every scenario passed; the first failure's reason is printed.
"""
import argparse
import ast
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYWORKER = os.path.join(HERE, "pyworker", "worker.py")


class Failed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failed(message)


def tool(name, path):
    return subprocess.run([name, path], check=True, capture_output=True, text=True).stdout.split()[0]


class Process:
    def __init__(self, name, argv, env=None, log_dir="."):
        self.name = name
        self.log_path = os.path.join(log_dir, name + ".log")
        self.log = open(self.log_path, "w")
        # An empty signal mask: a test runner that blocks SIGTERM in its threads would
        # otherwise pass the block on, and no process here would ever see our SIGTERMs.
        self.popen = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT,
                                      env={**os.environ, **(env or {})},
                                      preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, []))

    def signal(self, number):
        if self.popen.poll() is None:
            self.popen.send_signal(number)

    def wait(self, seconds):
        try:
            return self.popen.wait(seconds)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
            return None

    def text(self):
        self.log.flush()
        with open(self.log_path, errors="replace") as handle:
            return handle.read()


class Cluster:
    """A coordinator on tcp loopback over generated photos, and the workers a scenario starts."""

    def __init__(self, args, name, photos, curve=False):
        self.args = args
        self.dir = tempfile.mkdtemp(prefix=f"pmill-conformance-{name}-")
        self.photos = os.path.join(self.dir, "photos")
        self.catalog = os.path.join(self.dir, "catalog.sqlite")
        # Read back from the first coordinator's socket (a port the kernel chose); its
        # restarts bind it again, the workers know no other.
        self.endpoint = None
        self.processes = []
        self.coordinator = None
        subprocess.run([args.photomill, "samples", self.photos, "--count", str(photos), "--photo-size", "64x48",
                        "--seed", "18"], check=True, capture_output=True)
        # The text and empty files named .jpg fail at the coordinator's scan, never reaching
        # a worker: out of the way of the protocol's scenarios.
        # The rest are the photos the catalog must hold: a file written within the settle
        # window of the coordinator's first scan is recorded once it has settled, later.
        self.expected_photos = 0
        with open(os.path.join(self.photos, "samples.json")) as manifest:
            for entry in json.load(manifest)["files"]:
                if entry.get("scanFails"):
                    os.remove(os.path.join(self.photos, entry["file"]))
                else:
                    self.expected_photos += 1
        self.curve = curve
        if curve:
            for key in ["coordinator", "worker-a", "worker-b"]:
                subprocess.run([args.photomill, "keys", "generate", "--out", os.path.join(self.dir, key)],
                               check=True, capture_output=True)
            self.allow(["worker-a", "worker-b"])

    def allow(self, names):
        with open(os.path.join(self.dir, "allowed"), "w") as handle:
            for name in names:
                with open(os.path.join(self.dir, name + ".pub")) as pub:
                    handle.write(pub.read())

    def start_coordinator(self, *extra):
        security = (["--key", os.path.join(self.dir, "coordinator.key"), "--allow", os.path.join(self.dir, "allowed")]
                    if self.curve else ["--insecure"])
        number = sum(p.name.startswith("coordinator") for p in self.processes) + 1
        self.coordinator = Process(f"coordinator-{number}", [
            self.args.photomill, "coordinator", "--bind", self.endpoint or "tcp://127.0.0.1:*", "--catalog", self.catalog,
            "--no-exports", "--kinds", "hash", "--log-level", "info", *security, *extra, self.photos], log_dir=self.dir)
        self.processes.append(self.coordinator)
        if self.endpoint is None:
            expect(self.wait(lambda: self.bound_endpoint(self.coordinator) is not None, 60),
                   "the coordinator never said where it listens:\n" + self.coordinator.text())
            self.endpoint = self.bound_endpoint(self.coordinator)
        expect(self.wait(lambda: self.count("SELECT COUNT(*) FROM tasks") > 0, 60), "the coordinator queued nothing")
        return self.coordinator

    @staticmethod
    def bound_endpoint(coordinator):
        """The endpoint of the coordinator's "listening on" line (`endpoints=` in its metadata)."""
        for line in coordinator.text().splitlines():
            if line.endswith("listening on"):
                for word in line.split():
                    if word.startswith("endpoints="):
                        return word[len("endpoints="):].split(",")[0]
        return None

    def start_worker(self, name, interval=1000, roots=True, delay=0.0, key=None, slots=2, python_options=()):
        """python_options: pyworker's options for misbehaving on purpose (PYTHON_ONLY scenarios)."""
        if self.args.worker == "python":
            argv = ["/usr/bin/python3", PYWORKER, "--connect", self.endpoint, "--slots", str(slots),
                    "--heartbeat-interval", str(interval), "--worker-id", f"{name}-{os.getpid()}", *python_options]
            argv += ["--root", self.photos] if roots else []
            argv += ["--delay", str(delay)] if delay else []
            env = {}
        else:
            assert not python_options, "a scenario of the Python worker only"
            argv = [self.args.photomill, "worker", "--connect", self.endpoint, "--slots", str(slots), "--kinds", "hash",
                    "--heartbeat-interval", str(interval), "--log-level", "info"]
            argv += ["--root", self.photos] if roots else []
            argv += [] if key else ["--insecure"]
            env = {"PHOTOMILL_FAULT_HANG_ON": f"*:{delay}"} if delay else {}
        if key:
            argv += ["--key", os.path.join(self.dir, key + ".key"), "--server-key", os.path.join(self.dir, "coordinator.pub")]
        worker = Process(name, argv, env=env, log_dir=self.dir)
        self.processes.append(worker)
        return worker

    def query(self, sql):
        connection = sqlite3.connect(f"file:{self.catalog}?mode=ro", uri=True, timeout=10)
        try:
            return connection.execute(sql).fetchall()
        finally:
            connection.close()

    def count(self, sql):
        try:
            return self.query(sql)[0][0]
        except sqlite3.Error:
            return -1

    @property
    def done(self):
        return self.count("SELECT COUNT(*) FROM tasks WHERE state = 'done'")

    @property
    def photo_count(self):
        return self.count("SELECT COUNT(*) FROM photos")

    def wait(self, condition, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.1)
        return condition()

    def wait_done(self, seconds=120):
        finished = self.wait(lambda: self.photo_count == self.expected_photos and self.done == self.photo_count, seconds)
        expect(finished, f"{self.done} of {self.photo_count} hashes done ({self.expected_photos} photos expected)"
               f" after {seconds} s\n"
               + self.tails())

    def check(self, allowed_violations=()):
        """The checks every scenario ends with (the module's docstring); a scenario that
        sends bad messages on purpose names the reasons it may be counted under, once each."""
        twice = self.query("""SELECT p.path, COUNT(*) FROM attempts a JOIN photos p ON p.id = a.photoId
                              WHERE a.outcome = 'done' GROUP BY a.photoId, a.kind HAVING COUNT(*) != 1""")
        expect(not twice, f"tasks not done exactly once: {twice}")
        undone = self.query("SELECT p.path, t.state FROM tasks t JOIN photos p ON p.id = t.photoId WHERE t.state != 'done'")
        expect(not undone, f"tasks not done: {undone}")
        for path, md5, sha256 in self.query("SELECT path, md5, sha256 FROM photos"):
            expect(md5 == tool("md5sum", path), f"{path}: md5 {md5} in the catalog, md5sum says {tool('md5sum', path)}")
            expect(sha256 == tool("sha256sum", path), f"{path}: sha256 {sha256}, sha256sum says {tool('sha256sum', path)}")
        violations = self.query("SELECT reason, count FROM violations")
        expect(all(reason in allowed_violations and count == 1 for reason, count in violations),
               f"protocol violations counted: {violations} (allowed: {sorted(allowed_violations)}, once each)")

    def registrations(self, text):
        return sum(line.count("worker ready") for line in text.splitlines())

    def attempts_not_done(self):
        return self.query("SELECT outcome, errorClass, COUNT(*) FROM attempts WHERE outcome != 'done' GROUP BY 1, 2")

    def tails(self):
        return "\n".join(f"--- {p.name}\n{p.text()[-3000:]}" for p in self.processes)

    def stop(self):
        """SIGTERM to everything still running, workers first; every one must exit 0."""
        statuses = {}
        for process in reversed(self.processes):
            if process.popen.poll() is None:
                process.signal(signal.SIGTERM)
                statuses[process.name] = process.wait(60)
        bad = {name: status for name, status in statuses.items() if status != 0}
        expect(not bad, f"exit statuses after SIGTERM: {bad}\n"
               + "\n".join(f"--- {p.name}\n{p.text()[-3000:]}" for p in self.processes if p.name in bad))

    def clean(self, passed):
        for process in self.processes:
            if process.popen.poll() is None:
                process.popen.kill()
                process.popen.wait()
        if passed:
            shutil.rmtree(self.dir, ignore_errors=True)


# What the Python worker logs (pyworker/worker.py) ---------------------------------------

def logged_jobs(text):
    """(connection, job id, lease token, whether it fails on purpose) of every JOB received."""
    return [(int(c), job, token, bool(failing)) for c, job, token, failing in
            re.findall(r"connection (\d+): JOB id=(\S+) token=(\S+) photo=\d+( \(to fail\))?", text)]


def logged_acks(text):
    """(connection, committed ids, discarded ids) of every ACK received."""
    return [(int(c), set(filter(None, committed.split(","))), set(filter(None, discarded.split(","))))
            for c, committed, discarded in re.findall(r"connection (\d+): ACK committed=(\S*) discarded=(\S*)", text)]


def logged_disconnects(text):
    """(token, full reason) of every DISCONNECT received; token "(none)" for a reason without one."""
    return [(token, ast.literal_eval(reason)) for token, reason in
            re.findall(r"DISCONNECT token=(\S+) text=('.*'|\".*\")$", text, re.MULTILINE)]


# Scenarios ----------------------------------------------------------------------------

def normal(cluster, roots):
    cluster.start_coordinator()
    cluster.start_worker("w", roots=roots)
    cluster.wait_done()
    cluster.check()
    cluster.stop()


def extend(cluster):
    # Each job takes 5 s; the lease is 2 s + the grace of two 1-s intervals (4 s), capped at
    # 8 s: only EXTENDs keep it. Without them every lease would expire.
    cluster.start_coordinator("--lease-seconds", "2")
    cluster.start_worker("w", delay=5, slots=2)
    cluster.wait_done()
    cluster.check()
    expired = cluster.count("SELECT COUNT(*) FROM attempts WHERE outcome = 'lease-expired'")
    expect(expired == 0, f"{expired} leases expired although the worker sent EXTEND")
    cluster.stop()


def worker_killed(cluster):
    cluster.start_coordinator()
    first = cluster.start_worker("a", delay=0.3)
    expect(cluster.wait(lambda: cluster.done >= 4, 60), "no progress before the kill")
    first.signal(signal.SIGKILL)
    first.wait(10)
    cluster.start_worker("b")
    cluster.wait_done()
    cluster.check()
    cluster.stop()


def coordinator_restarted(cluster):
    coordinator = cluster.start_coordinator()
    cluster.start_worker("w", delay=0.3)
    expect(cluster.wait(lambda: cluster.done >= 4, 60), "no progress before the kill")
    coordinator.signal(signal.SIGKILL)
    coordinator.wait(10)
    time.sleep(0.5)   # jobs out at the worker finish meanwhile; their results wait for a coordinator
    cluster.start_coordinator()
    cluster.wait_done()
    cluster.check()
    cluster.stop()


def heartbeat(cluster, interval):
    # Jobs long enough that the worker is silent for more than three of the default
    # 1-s intervals (5000) or hears the coordinator less often than it expects (300): a
    # coordinator that ignored the READY's interval drops the worker or is dropped.
    job = {300: 1.5, 1000: 1.5, 5000: 6.0}[interval]
    cluster.start_coordinator()
    cluster.start_worker("w", interval=interval, delay=job, slots=1)
    cluster.wait_done(seconds=60 + 4 * job)
    cluster.check()
    lost = cluster.count("SELECT COUNT(*) FROM attempts WHERE outcome = 'worker-lost'")
    expect(lost == 0, f"{lost} leases released as worker-lost")
    registrations = cluster.registrations(cluster.coordinator.text())
    expect(registrations == 1, f"the worker registered {registrations} times: a connection was dropped")
    cluster.stop()


def curve(cluster):
    cluster.start_coordinator()
    cluster.start_worker("a", key="worker-a")
    cluster.wait_done()
    cluster.check()
    cluster.stop()


def curve_key_removed(cluster):
    coordinator = cluster.start_coordinator()
    removed = cluster.start_worker("a", key="worker-a", delay=0.3)
    expect(cluster.wait(lambda: cluster.done >= 4, 60), "no progress with the allowed key")
    cluster.allow(["worker-b"])
    coordinator.signal(signal.SIGHUP)
    expect(cluster.wait(lambda: "key was removed" in coordinator.text(), 30), "the coordinator did not act on the removal")
    time.sleep(0.3)   # a batch the committer was writing as the key went
    done_at_removal = cluster.done
    time.sleep(3)
    expect(cluster.done == done_at_removal, "the removed worker's results were still committed")
    cluster.start_worker("b", key="worker-b")
    cluster.wait_done()
    cluster.check()
    expect(cluster.registrations(coordinator.text()) == 2, "the removed worker was admitted again")
    removed.signal(signal.SIGKILL)    # it keeps trying to reconnect: the handshake refuses it
    removed.wait(10)
    cluster.processes.remove(removed)
    cluster.stop()


def disconnects(cluster):
    coordinator = cluster.start_coordinator()
    leaving = cluster.start_worker("a", delay=0.5)
    expect(cluster.wait(lambda: cluster.done >= 4, 60), "no progress")
    # Worker -> coordinator: a drained stop ends with DISCONNECT; its jobs come back unused.
    leaving.signal(signal.SIGTERM)
    expect(leaving.wait(60) == 0, f"the stopping worker exited {leaving.popen.returncode}")
    # The worker that stays starts only now and works slowly (1 s a job, 2 slots), so the
    # coordinator's DISCONNECT finds work left however long the first worker's drain took
    # on a busy machine (CI saw both run out the photos before it).
    staying = cluster.start_worker("b", delay=1.0)
    expect(cluster.wait(lambda: cluster.registrations(coordinator.text()) == 2, 60),
           "the second worker did not register\n" + cluster.tails())
    # Coordinator -> worker: SIGTERM says DISCONNECT to the workers; the one left
    # reconnects by itself to the next coordinator.
    expect(cluster.done < cluster.expected_photos, "the run ended before the coordinator's DISCONNECT")
    coordinator.signal(signal.SIGTERM)
    expect(coordinator.wait(60) == 0, "the coordinator did not exit 0 on SIGTERM")
    cluster.start_coordinator()
    cluster.wait_done()
    cluster.check()
    handed = cluster.count("SELECT COUNT(*) FROM attempts WHERE errorClass IN ('shutting-down', 'interrupted')")
    expect(handed == 0, f"{handed} attempts used by hand-backs")
    expect(staying.popen.poll() is None, "the staying worker did not survive the coordinator's restart")
    if cluster.args.worker == "python":
        # The coordinator's DISCONNECT carries its token ("DISCONNECT" in PROTOCOL.md).
        expect("DISCONNECT token=coordinator-stopping" in staying.text(),
               "the staying worker's log shows no DISCONNECT with the token coordinator-stopping:\n" + staying.text()[-2000:])
    cluster.stop()


def slow(cluster):
    cluster.start_coordinator()
    cluster.start_worker("slow", delay=3, slots=1)
    cluster.start_worker("fast")
    cluster.wait_done()
    cluster.check()
    expired = cluster.count("SELECT COUNT(*) FROM attempts WHERE outcome = 'lease-expired'")
    expect(expired == 0, f"{expired} leases expired")
    cluster.stop()


def heartbeat_unset(cluster):
    # READY without heartbeat_interval_ms: the text's default, 1000 ms, for both peers.
    # Jobs of 3.5 s, longer than three intervals: a coordinator that took a shorter interval
    # drops the worker (worker-lost), one that took a longer one stays silent and the worker
    # (1000 ms, liveness 3) drops it (a second registration).
    cluster.start_coordinator()
    worker = cluster.start_worker("w", delay=3.5, slots=1, python_options=["--omit-heartbeat"])
    expect(cluster.wait(lambda: cluster.registrations(cluster.coordinator.text()) >= 1
                        or "connection 2:" in worker.text(), 30),
           "no registration in 30 s")
    ready = [line for line in worker.text().splitlines() if ": READY " in line]
    expect(ready and "heartbeat_interval_ms" not in ready[0], f"the READY sent: {ready}")
    expect(cluster.registrations(cluster.coordinator.text()) >= 1,
           f"a READY without heartbeat_interval_ms was not answered (the worker reconnected); "
           f"violations: {cluster.query('SELECT reason, count FROM violations')}\n" + cluster.tails())
    cluster.wait_done(seconds=60 + 4 * 3.5)
    cluster.check()
    expect(not cluster.attempts_not_done(), f"attempts other than done: {cluster.attempts_not_done()}")
    registrations = cluster.registrations(cluster.coordinator.text())
    expect(registrations == 1, f"the worker registered {registrations} times: a connection was dropped")
    cluster.stop()


def ready_invalid(cluster):
    # Two READYs the coordinator must refuse with a DISCONNECT whose reason token says why
    # (slots=0 is outside 1-1024: `invalid-field: slots: ...`; protocol_version=0 is unset,
    # older than any revision: `old-protocol`), each counted once under that reason; the
    # workers exit 3 instead of reconnecting. Then a valid worker does all the work.
    cluster.start_coordinator()
    refused = {"invalid-field": cluster.start_worker("slots0", python_options=["--spoil-ready", "slots=0"]),
               "old-protocol": cluster.start_worker("version0", python_options=["--spoil-ready", "protocol_version=0"])}
    problems = []
    for token, worker in refused.items():
        # Refused: it exits. Unanswered: it gives up on the silence and opens connection 2.
        cluster.wait(lambda: worker.popen.poll() is not None or "connection 2:" in worker.text(), 30)
        disconnects = logged_disconnects(worker.text())
        if worker.popen.poll() != 3 or not disconnects or disconnects[0][0] != token:
            problems.append(f"{worker.name}: exit status {worker.popen.poll()} (None: still running), expected 3; "
                            f"DISCONNECTs received {disconnects}, expected the token {token}")
        elif token == "invalid-field" and "slots" not in disconnects[0][1]:
            problems.append(f"{worker.name}: the DISCONNECT does not name the field: {disconnects[0][1]!r}")
    expect(not problems, "; ".join(problems) + f"; violations: {cluster.query('SELECT reason, count FROM violations')}\n"
           + cluster.tails())
    cluster.start_worker("w")
    cluster.wait_done()
    cluster.check(allowed_violations={"invalid-field", "old-protocol"})
    registrations = cluster.registrations(cluster.coordinator.text())
    expect(registrations == 1, f"{registrations} registrations: a refused READY registered")
    cluster.stop()


def restart_leases_out(cluster):
    # Jobs of 3 s, 4 at a time; the coordinator is killed once the catalog holds 4 leases,
    # and the next run ADOPTS them: the worker's READY takes them over and its re-sent
    # RESULTs are committed. Nothing is redone: no lost or expired lease, one attempt a task.
    coordinator = cluster.start_coordinator()
    worker = cluster.start_worker("w", delay=3, slots=4)
    expect(cluster.wait(lambda: cluster.count("SELECT COUNT(*) FROM tasks WHERE state = 'leased'") >= 4, 60),
           "4 leases never reached the catalog\n" + cluster.tails())
    coordinator.signal(signal.SIGKILL)
    coordinator.wait(10)
    leased = {token for (token,) in cluster.query("SELECT leaseToken FROM tasks WHERE state = 'leased'")}
    cluster.start_coordinator()
    cluster.wait_done()
    cluster.check()
    expect(not cluster.attempts_not_done(), f"attempts other than done (work redone): {cluster.attempts_not_done()}")
    attempts, tasks = cluster.count("SELECT COUNT(*) FROM attempts"), cluster.count("SELECT COUNT(*) FROM tasks")
    expect(attempts == tasks, f"{attempts} attempts for {tasks} tasks")
    if cluster.args.worker == "python":
        text = worker.text()
        ids = {token: job for _, job, token, _ in logged_jobs(text)}
        expect(leased <= ids.keys(), f"leases the worker never logged: {leased - ids.keys()}")
        old = {ids[token] for token in leased}
        later = set().union(*(committed for connection, committed, _ in logged_acks(text) if connection > 1))
        discarded = set().union(*(d for _, _, d in logged_acks(text)))
        expect(old <= later and not old & discarded,
               f"jobs leased at the kill {sorted(old)}: committed by the next run {sorted(old & later)}, "
               f"discarded {sorted(old & discarded)}\n" + text[-3000:])
    cluster.stop()


def fail_before_result(cluster):
    # The first entry of each JOBS of several FAILs at once (`timeout`, retryable), for 3
    # photos; the worker holds the FAIL until a later job's RESULT (0.5 s) is ready and
    # sends both in one RESULTS. Each entry counts as if sent alone: the FAILs are recorded
    # as retries of class timeout under their own tokens, the tasks done on a later lease.
    cluster.start_coordinator()
    worker = cluster.start_worker("w", delay=0.5, slots=4, python_options=["--fail-first-of-batch", "3"])
    cluster.wait_done()
    cluster.check()
    text = worker.text()
    failed = {token for _, _, token, failing in logged_jobs(text) if failing}
    expect(failed, "no JOBS of several entries came: nothing failed on purpose\n" + text[-3000:])
    expect(re.search(r"held FAILs \S+ go with RESULT", text) and "go alone" not in text,
           "no FAIL left with a later RESULT\n" + text[-3000:])
    recorded = cluster.query("SELECT leaseToken, outcome, errorClass FROM attempts WHERE outcome != 'done'")
    expect(sorted(recorded) == sorted((token, "retry", "timeout") for token in failed),
           f"attempts other than done: {recorded}; FAILs sent under {sorted(failed)}")
    cluster.stop()


SCENARIOS = {
    "path": (20, lambda c: normal(c, roots=True)),
    "bytes": (20, lambda c: normal(c, roots=False)),
    "extend": (4, extend),
    "worker-kill": (30, worker_killed),
    "coordinator-restart": (30, coordinator_restarted),
    "heartbeat-300": (3, lambda c: heartbeat(c, 300)),
    "heartbeat-1000": (3, lambda c: heartbeat(c, 1000)),
    "heartbeat-5000": (3, lambda c: heartbeat(c, 5000)),
    "curve": (10, curve),
    "curve-key-removed": (30, curve_key_removed),
    "disconnect": (40, disconnects),
    "slow": (12, slow),
    "heartbeat-unset": (2, heartbeat_unset),
    "ready-invalid": (10, ready_invalid),
    "restart-leases-out": (8, restart_leases_out),
    "fail-before-result": (12, fail_before_result),
}
CURVE = {"curve", "curve-key-removed"}
# Misbehaviour only the Python worker can be told to show (its options): skipped for --worker swift.
PYTHON_ONLY = {"heartbeat-unset", "ready-invalid", "fail-before-result"}


def main():
    parser = argparse.ArgumentParser(description="PMILL conformance scenarios")
    parser.add_argument("--photomill", required=True)
    parser.add_argument("--worker", choices=["python", "swift"], required=True)
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS))
    args = parser.parse_args()
    args.photomill = os.path.abspath(args.photomill)
    if args.worker == "swift" and set(args.scenario or ()) & PYTHON_ONLY:
        parser.error(f"{', '.join(sorted(set(args.scenario) & PYTHON_ONLY))}: the Python worker's scenarios only")
    failures = 0
    for name in args.scenario or [n for n in SCENARIOS if args.worker == "python" or n not in PYTHON_ONLY]:
        photos, body = SCENARIOS[name]
        started = time.monotonic()
        cluster = Cluster(args, name, photos, curve=name in CURVE)
        passed = False
        try:
            body(cluster)
            passed = True
        except Failed as failure:
            failures += 1
            print(f"FAIL {name} ({args.worker} worker): {failure}\n  (logs in {cluster.dir})", flush=True)
        finally:
            cluster.clean(passed)
        if passed:
            print(f"pass {name} ({args.worker} worker, {time.monotonic() - started:.1f} s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
