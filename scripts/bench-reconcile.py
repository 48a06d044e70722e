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

"""Start-up reconciliation of an unchanged tree against find(1) (issue 26; docs/benchmarks.md,
"A living library").

Alternates, RUNS times: `find LIBRARY -printf '%s %T@ %C@\\n'` (wall time, and its CPU from
rusage), then a release `photomill coordinator` (no worker, kinds hash and metadata) started
on the same catalog and tree, read until its "full scan done" line: the scan's seconds from
that line, and the CPU of its `pm-scanner` thread from /proc. The first start catalogues the
tree if the catalog is new (not counted). Prints each pair, the medians, ranges and the load
average. Usage: scripts/bench-reconcile.py LIBRARY CATALOG [--runs N] [--binary PATH]
(`scripts/bench-watch.py --keep DIR` leaves a tree in DIR/library and its catalog in
DIR/catalog.sqlite).
"""
import argparse, os, re, resource, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICKS = os.sysconf("SC_CLK_TCK")


def find_once(library):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    subprocess.run(["find", library, "-printf", "%s %T@ %C@\\n"], stdout=subprocess.DEVNULL, check=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def scanner_cpu(pid):
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            if open(f"/proc/{pid}/task/{task}/comm").read().strip() == "pm-scanner":
                fields = open(f"/proc/{pid}/task/{task}/stat").read().rsplit(")", 1)[1].split()
                return (int(fields[11]) + int(fields[12])) / TICKS
        except FileNotFoundError:
            pass
    return float("nan")


def start_once(binary, library, catalog, work, timeout=3600):
    log_path = os.path.join(work, "coordinator.log")
    with open(log_path, "w") as log:
        coordinator = subprocess.Popen(
            [binary, "coordinator", "--bind", f"ipc://{work}/coordinator.sock", "--catalog", catalog, "--no-exports",
             "--no-http", "--kinds", "hash,metadata", library], stderr=log, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = next((l for l in open(log_path) if "full scan done" in l), None)
            if line:
                cpu = scanner_cpu(coordinator.pid)
                seconds = float(re.search(r" seconds=([0-9.]+)", line).group(1))
                walk = float(re.search(r"walk\.seconds=([0-9.]+)", line).group(1))
                changed = re.search(r"scan\.new=(\d+)", line).group(1)
                return seconds, walk, cpu, changed
            if coordinator.poll() is not None:
                sys.exit(f"the coordinator ended ({coordinator.returncode}):\n{open(log_path).read()}")
            time.sleep(0.05)
        sys.exit("no full scan within the timeout")
    finally:
        coordinator.send_signal(2)
        coordinator.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("library")
    parser.add_argument("catalog")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "photomill"))
    args = parser.parse_args()
    library, catalog = os.path.abspath(args.library), os.path.abspath(args.catalog)
    work = tempfile.mkdtemp(prefix="pm-bench-reconcile-")
    print(f"load average at start: {os.getloadavg()}", flush=True)
    if not os.path.exists(catalog):
        print("cataloguing the tree first (not counted)", flush=True)
        start_once(args.binary, library, catalog, work)
    finds, scans, walks, cpus, find_cpus = [], [], [], [], []
    for run in range(args.runs):
        wall, cpu = find_once(library)
        seconds, walk, scanner, new = start_once(args.binary, library, catalog, work)
        finds.append(wall), find_cpus.append(cpu), scans.append(seconds), walks.append(walk), cpus.append(scanner)
        print(f"run {run + 1}: find {wall:.2f} s (CPU {cpu:.2f} s); start-up scan {seconds:.2f} s (walk {walk:.2f} s, "
              f"pm-scanner CPU {scanner:.2f} s, new {new}); load {os.getloadavg()[0]:.1f}", flush=True)

    def spread(values):
        return f"median {statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})"
    print(f"find: {spread(finds)}, CPU {spread(find_cpus)}")
    print(f"start-up scan: {spread(scans)}, walk {spread(walks)}, pm-scanner CPU {spread(cpus)}")
    print(f"ratio of medians: wall {statistics.median(scans) / statistics.median(finds):.2f}x, "
          f"CPU {statistics.median(cpus) / statistics.median(find_cpus):.2f}x (bound 2x); load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
