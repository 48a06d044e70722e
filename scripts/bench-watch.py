#!/usr/bin/env python3
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

"""A living library, measured (issue 26; docs/benchmarks.md, "A living library").

Runs the release `photomill` as a coordinator and one worker over a tree of TREE_FILES
photos in TREE_FOLDERS folders, and measures against the same run's idle baseline:

  - start-up reconciliation of the unchanged tree, against `find DIR -printf '%s %T@ %C@\\n'`;
  - the idle coordinator watching the tree: CPU over 60 s, RSS, both against a coordinator
    that watches nothing (--max-watches 0) over the same tree;
  - a 12 MP JPEG copied in: hash and metadata committed how long after the copy closed
    (minus the settle window), median and p99;
  - 1,000 photos copied in at once: all processed, none twice;
  - a folder of 1,000 photos renamed: no task queued;
  - a file written slowly over 30 s: attempts before it settles, and after;
  - an overflow forced (the coordinator stopped with SIGSTOP while more files than
    fs.inotify.max_queued_events appear): nothing missed;
  - a watch cap below the folder count: the message, the polled folders, nothing missed.

Every figure comes from the catalog (Python's sqlite3), /proc and the clock; nothing from
photomill's own report. Usage: scripts/bench-watch.py [--files N] [--folders N] [--keep DIR]
"""
import argparse, glob, hashlib, os, re, shutil, signal, sqlite3, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build", "release", "photomill")
TICKS = os.sysconf("SC_CLK_TCK")


def log(*parts):
    print(*parts, flush=True)


def cpu_seconds(pid):
    """User + system CPU of a process and all its threads (/proc/PID/stat)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Cluster:
    started = []   # every cluster of the run, stopped at the end even when a step fails

    def __init__(self, work, library, extra=()):
        Cluster.started.append(self)
        self.work, self.library = work, library
        self.catalog = os.path.join(work, "catalog.sqlite")
        self.endpoint = f"ipc://{work}/coordinator.sock"
        self.log_path = os.path.join(work, f"coordinator-{int(time.time() * 1000)}.log")
        self.coordinator = subprocess.Popen(
            [BINARY, "coordinator", "--bind", self.endpoint, "--catalog", self.catalog, "--no-exports", "--no-http",
             "--kinds", "hash,metadata", *extra, library],
            stderr=open(self.log_path, "w"), stdout=subprocess.DEVNULL)
        self.worker = subprocess.Popen([BINARY, "worker", "--connect", self.endpoint, "--slots", "2", "--root", library],
                                       stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)

    def db(self):
        return sqlite3.connect(f"file:{self.catalog}?mode=ro", uri=True, timeout=30)

    def query(self, sql, *args):
        for _ in range(50):
            try:
                with self.db() as con:
                    return con.execute(sql, args).fetchall()
            except sqlite3.OperationalError:
                time.sleep(0.1)
        raise RuntimeError("catalog unreadable")

    def scalar(self, sql, *args):
        return self.query(sql, *args)[0][0]

    def log_text(self):
        return open(self.log_path).read()

    def wait_for(self, what, condition, timeout=3600, step=0.05):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if condition():
                return
            if self.coordinator.poll() is not None:
                raise RuntimeError(f"the coordinator ended while waiting for {what}:\n{self.log_text()[-3000:]}")
            time.sleep(step)
        raise RuntimeError(f"timed out waiting for {what}")

    def unfinished(self):
        return self.scalar("SELECT COUNT(*) FROM tasks WHERE state IN ('pending', 'leased')")

    def full_scans(self):
        return len(re.findall(r"full scan done", self.log_text()))

    def stop(self):
        for process in (self.worker, self.coordinator):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in (self.worker, self.coordinator):
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()


def make_tree(library, files, folders, small):
    per = files // folders
    for f in range(folders):
        folder = os.path.join(library, f"{f // 100:02d}", f"f{f:04d}")
        os.makedirs(folder, exist_ok=True)
        for i in range(per):
            # Each file its own content (its own MD5): a byte appended after the JPEG's end.
            with open(os.path.join(folder, f"IMG_{i:04d}.jpg"), "wb") as out:
                out.write(small + f.to_bytes(4, "big") + i.to_bytes(4, "big"))


def copy_closed(source, target):
    """Copies and returns the wall time at which the copy closed."""
    with open(source, "rb") as src, open(target, "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
    return time.time()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--folders", type=int, default=2_000)
    parser.add_argument("--latency-samples", type=int, default=40)
    parser.add_argument("--keep", help="work in this folder and keep it")
    args = parser.parse_args()
    if not os.path.exists(BINARY):
        sys.exit(f"no release build at {BINARY}: swift build -c release")
    work = args.keep or tempfile.mkdtemp(prefix="pm-bench-watch-")
    os.makedirs(work, exist_ok=True)
    library = os.path.join(work, "library")
    settle = 2.0
    log(f"load average at start: {os.getloadavg()}")
    samples = os.path.join(work, "samples")
    if not os.path.exists(os.path.join(samples, "big", "samples.json")):
        subprocess.run([BINARY, "samples", os.path.join(samples, "small"), "--count", "1", "--photo-size", "32x24"], check=True)
        subprocess.run([BINARY, "samples", os.path.join(samples, "big"), "--count", "1", "--photo-size", "4000x3000"], check=True)
    small = open(glob.glob(os.path.join(samples, "small", "*.jpg"))[0], "rb").read()
    big = glob.glob(os.path.join(samples, "big", "*.jpg"))[0]
    log(f"12 MP sample: {big} ({os.path.getsize(big)} bytes)")
    if not os.path.exists(library):
        t = time.time()
        make_tree(library, args.files, args.folders, small)
        log(f"tree: {args.files} files in {args.folders} folders, made in {time.time() - t:.1f} s")

    # The find(1) reference, warm.
    finds = []
    for _ in range(3):
        t = time.time()
        subprocess.run(["find", library, "-printf", "%s %T@ %C@\\n"], stdout=subprocess.DEVNULL, check=True)
        finds.append(time.time() - t)
    find_s = statistics.median(finds)
    log(f"find -printf '%s %T@ %C@': median {find_s:.3f} s of {['%.3f' % f for f in finds]}")

    # First processing of the tree.
    cluster = Cluster(work, library)
    t = time.time()
    cluster.wait_for("the first scan", lambda: cluster.full_scans() >= 1)
    cluster.wait_for("the tree processed", lambda: cluster.scalar("SELECT COUNT(*) FROM photos WHERE md5 IS NOT NULL") >= args.files
                     and cluster.unfinished() == 0, step=1)
    log(f"tree processed (hash, metadata) in {time.time() - t:.0f} s")
    cluster.stop()

    # Idle baseline: the same tree, nothing watched.
    base = Cluster(work, library, ["--max-watches", "0"])
    base.wait_for("the baseline's scan", lambda: base.full_scans() >= 1)
    time.sleep(5)
    cpu0, rss_base = cpu_seconds(base.coordinator.pid), rss_mb(base.coordinator.pid)
    time.sleep(60)
    cpu_base = (cpu_seconds(base.coordinator.pid) - cpu0) / 60
    log(f"baseline (nothing watched): CPU {100 * cpu_base:.2f} % of a core over 60 s, RSS {rss_base:.1f} MB")
    base.stop()

    # Start-up reconciliation of the unchanged tree, and the idle coordinator watching it.
    cluster = Cluster(work, library, ["--settle", str(settle)])
    cluster.wait_for("the start-up scan", lambda: cluster.full_scans() >= 1)
    scan_s = float(re.search(r"reason=start .*?seconds=([0-9.]+)", cluster.log_text()).group(1))
    log(f"start-up reconciliation: {scan_s:.3f} s = {scan_s / find_s:.2f}x find (bound 2x); "
        f"tasks queued by it: {cluster.unfinished()}")
    time.sleep(5)
    pid = cluster.coordinator.pid
    cpu0, rss0 = cpu_seconds(pid), rss_mb(pid)
    time.sleep(60)
    cpu_idle = (cpu_seconds(pid) - cpu0) / 60
    rss_idle = rss_mb(pid)
    watched = int(re.findall(r"folders\.watched=(\d+)", cluster.log_text())[-1]) if "folders.watched" in cluster.log_text() else None
    log(f"idle, watching: CPU {100 * cpu_idle:.2f} % of a core over 60 s (baseline {100 * cpu_base:.2f} %), "
        f"RSS {rss_idle:.1f} MB: +{rss_idle - rss_base:.1f} MB over the baseline (bound 50 MB)")

    # Latency: a 12 MP JPEG copied in, one at a time.
    latencies = []
    for n in range(args.latency_samples):
        target = os.path.join(library, f"{n % 20:02d}", f"f{(n * 37) % args.folders:04d}", f"NEW_{n:03d}.jpg")
        if not os.path.isdir(os.path.dirname(target)):
            target = os.path.join(library, "00", "f0000", f"NEW_{n:03d}.jpg")
        # Each copy its own content: the sample with a byte appended.
        staged = os.path.join(work, "staged.jpg")
        with open(staged, "wb") as out:
            out.write(open(big, "rb").read() + n.to_bytes(2, "big"))
        closed = copy_closed(staged, target)
        cluster.wait_for("the copy's hash and metadata", lambda: cluster.scalar(
            "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = ? AND t.state = 'done'", target) == 2,
            timeout=120, step=0.02)
        committed = cluster.scalar(
            "SELECT MAX(t.updatedAt) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = ?", target)
        latencies.append(committed - closed - settle)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(round(0.99 * (len(latencies) - 1))))]
    log(f"12 MP JPEG copied in -> hash+metadata committed, minus the {settle:.0f} s settle window: "
        f"median {statistics.median(latencies):.3f} s, p99 {p99:.3f} s, max {latencies[-1]:.3f} s (n={len(latencies)}; bounds 1 s, 3 s)")

    # 1,000 photos copied in at once (cp -r of a folder).
    burst_source = os.path.join(work, "burst")
    if not os.path.exists(burst_source):
        os.makedirs(burst_source)
        for i in range(1000):
            with open(os.path.join(burst_source, f"B_{i:04d}.jpg"), "wb") as out:
                out.write(small + b"burst" + i.to_bytes(4, "big"))
    attempts0 = cluster.scalar("SELECT COUNT(*) FROM attempts")
    t = time.time()
    subprocess.run(["cp", "-r", burst_source, os.path.join(library, "burst")], check=True)
    copied = time.time()
    cluster.wait_for("the burst processed", lambda: cluster.scalar(
        "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path LIKE ? AND t.state = 'done'",
        os.path.join(library, "burst") + "/%") == 2000, timeout=600, step=0.2)
    twice = cluster.scalar("""SELECT COUNT(*) FROM (SELECT a.photoId, a.kind FROM attempts a JOIN photos p ON p.id = a.photoId
                              WHERE p.path LIKE ? GROUP BY a.photoId, a.kind HAVING COUNT(*) > 1)""", os.path.join(library, "burst") + "/%")
    log(f"1,000 photos copied at once (cp -r, {copied - t:.2f} s): all 2,000 tasks done {time.time() - copied:.1f} s after; "
        f"tasks attempted more than once: {twice}; attempts added: {cluster.scalar('SELECT COUNT(*) FROM attempts') - attempts0}")

    # A folder of 1,000 photos renamed.
    attempts0 = cluster.scalar("SELECT COUNT(*) FROM attempts")
    ids0 = cluster.scalar("SELECT SUM(id) FROM photos WHERE path LIKE ?", os.path.join(library, "burst") + "/%")
    t = time.time()
    os.rename(os.path.join(library, "burst"), os.path.join(library, "burst-renamed"))
    cluster.wait_for("the rename recorded", lambda: cluster.scalar(
        "SELECT COUNT(*) FROM photos WHERE path LIKE ? AND missingAt IS NULL", os.path.join(library, "burst-renamed") + "/%") == 1000,
        timeout=120, step=0.02)
    moved_s = time.time() - t
    time.sleep(settle + 1)
    log(f"folder of 1,000 photos renamed: recorded in {moved_s:.2f} s; same ids: "
        f"{cluster.scalar('SELECT SUM(id) FROM photos WHERE path LIKE ?', os.path.join(library, 'burst-renamed') + '/%') == ids0}; "
        f"tasks queued: {cluster.unfinished()}; attempts added: {cluster.scalar('SELECT COUNT(*) FROM attempts') - attempts0}")

    # A file written slowly over 30 s.
    slow = os.path.join(library, "00", "f0001", "SLOW.jpg")
    data = open(big, "rb").read()
    chunk = len(data) // 30 + 1
    with open(slow, "wb") as out:
        for i in range(30):
            out.write(data[i * chunk:(i + 1) * chunk])
            out.flush()
            time.sleep(1)
    closed = time.time()
    before = cluster.scalar("SELECT COUNT(*) FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path = ?", slow)
    cluster.wait_for("the slow file processed", lambda: cluster.scalar(
        "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = ? AND t.state = 'done'", slow) == 2, timeout=120)
    time.sleep(settle)
    after = cluster.query("SELECT a.kind, COUNT(*), MIN(a.startedAt) FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path = ? GROUP BY a.kind", slow)
    md5_ok = cluster.scalar("SELECT md5 FROM photos WHERE path = ?", slow) == hashlib.md5(open(slow, "rb").read()).hexdigest()
    log(f"a file written over 30 s: {before} attempts before it settled; after: "
        f"{', '.join(f'{k} {n} (started {s - closed:+.1f} s after the close)' for k, n, s in after)}; hash of the whole file: {md5_ok}")

    # An overflow: the coordinator stopped while more files appear than the kernel queues.
    queued_max = int(open("/proc/sys/fs/inotify/max_queued_events").read())
    flood = os.path.join(library, "00", "f0002")
    count = queued_max + 4000
    cluster.coordinator.send_signal(signal.SIGSTOP)
    for i in range(count):
        with open(os.path.join(flood, f"FLOOD_{i:05d}.jpg"), "wb") as out:
            out.write(small + b"flood" + i.to_bytes(4, "big"))
    t = time.time()
    scans0 = cluster.full_scans()
    cluster.coordinator.send_signal(signal.SIGCONT)
    cluster.wait_for("the flood recorded", lambda: cluster.scalar(
        "SELECT COUNT(*) FROM photos WHERE path LIKE ?", os.path.join(flood, "FLOOD_") + "%") == count, timeout=900, step=0.5)
    overflowed = "overflowed" in cluster.log_text()
    log(f"overflow forced ({count} files > max_queued_events {queued_max}, coordinator stopped meanwhile): overflow seen: {overflowed}; "
        f"full scans since: {cluster.full_scans() - scans0}; all {count} recorded {time.time() - t:.1f} s after SIGCONT")
    cluster.wait_for("the flood processed", lambda: cluster.unfinished() == 0, timeout=1800, step=1)
    cluster.stop()

    # A watch cap below the folder count.
    folders = sum(1 for _ in os.walk(library))
    cap = folders // 2
    capped = Cluster(work, library, ["--max-watches", str(cap), "--settle", str(settle)])
    capped.wait_for("the capped scan", lambda: capped.full_scans() >= 1)
    message = next((line for line in capped.log_text().splitlines() if "folders are polled" in line), "(no message)")
    log(f"watch cap {cap} < {folders} folders: {message[:400]}")
    polled = re.findall(r"polled=(\S+)", message)
    # A file in the last folder of the walk (polled), found by the rescan `photomill scan` asks for.
    last = sorted(glob.glob(os.path.join(library, "19", "*")))[-1]
    target = os.path.join(last, "LATE.jpg")
    copy_closed(os.path.join(flood, "FLOOD_00000.jpg"), target)
    time.sleep(settle + 2)
    seen_by_watch = capped.scalar("SELECT COUNT(*) FROM photos WHERE path = ?", target)
    subprocess.run([BINARY, "scan", "--catalog", capped.catalog], check=True, stdout=subprocess.DEVNULL)
    found = capped.scalar("SELECT COUNT(*) FROM photos WHERE path = ?", target)
    log(f"a file in a polled folder: seen without a rescan {seen_by_watch}, after `photomill scan` {found}")
    capped.stop()
    log(f"load average at the end: {os.getloadavg()}")
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    try:
        main()
    finally:
        # A failed step must not leave a coordinator holding the catalog (the next run
        # would be refused) or a worker behind.
        for cluster in Cluster.started:
            cluster.stop()
