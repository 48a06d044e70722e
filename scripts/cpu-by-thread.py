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

"""Where the CPU of a cluster run goes, by thread: a coordinator (plaintext, tcp
loopback) and two workers of one slot doing hash, metadata and thumbnail of PHOTOS,
once fed bytes (no --root) and once reading the paths, the order alternated each round.
Per mode: the rate from the first lease to the last result (the catalog's attempts),
and the CPU seconds of each thread name (/proc/PID/task/*/stat, utime + stime) of the
coordinator during the run and of the workers over their lives (docs/benchmarks.md,
"Where a fed worker's time goes").

    scripts/cpu-by-thread.py .build/release/photomill PHOTOS [--rounds 2]

PHOTOS: e.g. `photomill samples --count 240 --photo-size 4000x3000 PHOTOS`. Run it on a
quiet machine; it takes about 20 s a mode for 240 photos of 12 MP.
"""

import argparse
import glob
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

TICK = os.sysconf("SC_CLK_TCK")
KINDS = "hash,metadata,thumbnail"


def cpu_by_thread(pid):
    """CPU seconds by thread name (digits and dashes at the end dropped: pm-slot-1 is pm-slot)."""
    seconds = {}
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            text = open(task + "/stat").read()
        except OSError:
            continue
        name = text[text.index("(") + 1 : text.rindex(")")].rstrip("0123456789-")
        fields = text[text.rindex(")") + 2 :].split()
        seconds[name] = seconds.get(name, 0) + (int(fields[11]) + int(fields[12])) / TICK
    return seconds


def query(catalog, sql):
    connection = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=10)
    try:
        return connection.execute(sql).fetchone()
    finally:
        connection.close()


def free_port():
    # Only for this script's own processes, on a quiet machine (not a test).
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(binary, photos, mode, folder, round):
    catalog = os.path.join(folder, f"{mode}-{round}.sqlite")
    endpoint = f"tcp://127.0.0.1:{free_port()}"
    coordinator = subprocess.Popen(
        [binary, "coordinator", "--bind", endpoint, "--insecure", "--catalog", catalog,
         "--no-exports", "--no-http", "--kinds", KINDS, photos],
        stderr=subprocess.DEVNULL,
    )
    # Scanned: the photo count unchanged for 3 s (longer than the settle window, 2 s).
    deadline = time.monotonic() + 300
    seen, since = -1, time.monotonic()
    while True:
        try:
            count = query(catalog, "SELECT COUNT(*) FROM photos")[0]
        except sqlite3.Error:
            count = -1
        if count != seen:
            seen, since = count, time.monotonic()
        elif count > 0 and time.monotonic() - since >= 3:
            break
        if time.monotonic() > deadline or coordinator.poll() is not None:
            sys.exit(f"cpu-by-thread: the coordinator did not scan {photos}")
        time.sleep(0.1)
    workers = [
        subprocess.Popen(
            [binary, "worker", "--connect", endpoint, "--insecure", "--slots", "1", "--kinds", KINDS,
             "--log-level", "error"] + (["--root", photos] if mode == "paths" else []),
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    before = cpu_by_thread(coordinator.pid)
    while query(catalog, "SELECT COUNT(*) FROM tasks WHERE state IN ('pending', 'leased')")[0] > 0:
        if time.monotonic() > deadline + 900:
            sys.exit("cpu-by-thread: the run did not end")
        time.sleep(0.1)
    after = cpu_by_thread(coordinator.pid)
    worker_seconds = {}
    for worker in workers:
        for name, seconds in cpu_by_thread(worker.pid).items():
            worker_seconds[name] = worker_seconds.get(name, 0) + seconds
    for process in workers + [coordinator]:
        process.terminate()
    for process in workers + [coordinator]:
        process.wait()
    first, last = query(catalog, "SELECT MIN(startedAt), MAX(endedAt) FROM attempts")
    count = query(catalog, "SELECT COUNT(*) FROM photos")[0]
    coordinator_seconds = {k: after[k] - before.get(k, 0) for k in after if after[k] - before.get(k, 0) > 0.05}
    shown = lambda d: ", ".join(f"{k} {v:.2f}" for k, v in sorted(d.items(), key=lambda kv: -kv[1]) if v > 0.05)
    print(f"{mode}: {count} photos in {last - first:.2f} s, {count / (last - first):.2f} photos/s")
    print(f"  coordinator, CPU s by thread: {shown(coordinator_seconds)}")
    print(f"  two workers, CPU s by thread: {shown(worker_seconds)}")
    print(f"  CPU ms a photo: coordinator {1000 * sum(coordinator_seconds.values()) / count:.1f}, "
          f"workers {1000 * sum(worker_seconds.values()) / count:.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("photos")
    parser.add_argument("--rounds", type=int, default=2)
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="cpu-by-thread-")
    try:
        for round in range(arguments.rounds):
            for mode in ["fed", "paths"] if round % 2 == 0 else ["paths", "fed"]:
                run(os.path.abspath(arguments.binary), os.path.abspath(arguments.photos), mode, folder, round)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
