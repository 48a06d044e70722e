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

"""The long hostile-file run (scripts/fuzz.sh's media part; docs/reliability.md): seeded
variants of every media file in the folders given — 1-40 bit flips, most in the first
64 KiB where the structures are, or a cut at a random length, the mutations of the
suite's HostileVariants — each through its own `photomill inspect --json --kinds
hash,metadata,thumbnail,ocr` process, until SECONDS have passed.

A variant passes when inspect exits 0 or 1 within its lease, prints one JSON line, and
every failure in it has a known error class and a message. The lease is a job's deadline
(60 s) of CPU time (RLIMIT_CPU: SIGXCPU past it), and four times that of wall time (the
coordinator's leaseCapFactor: how far EXTENDs may stretch a lease), so that a machine
shared with other work does not pass for a hang. Any other outcome — a signal (crash), a
limit reached (hang), an unknown class, no output — is kept in KEEP/ with its seed and
printed; rerun one with --seed SEED --files FILE.

    fuzz-media.py --binary PATH [--seconds N] [--lease S] [--jobs J] [--keep DIR] [--seed S] FOLDER...

Prints, per format (file extension): variants, results, errors per class, failures, the
most CPU seconds a variant took (user + system), the longest wall time and the largest
peak RSS (/usr/bin/time's %M).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

CLASSES = {"unreadable", "not-an-image", "unsupported-format", "too-large", "corrupt", "ocr-failed", "timeout"}
SKIP = {".xmp", ".md", ".json", ".txt"}


def mutate(data, rng, flips):
    data = bytearray(data)
    if not data:
        return bytes(data)
    if flips:
        for _ in range(rng.randrange(1, 41)):
            span = len(data) if rng.randrange(4) == 0 else min(len(data), 65536)
            data[rng.randrange(span)] ^= 1 << rng.randrange(8)
        return bytes(data)
    return bytes(data[:rng.randrange(len(data))])


def run_one(binary, path, lease):
    def limit_cpu():
        resource.setrlimit(resource.RLIMIT_CPU, (int(lease), int(lease) + 5))

    started = time.monotonic()
    try:
        done = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", binary, "inspect", "--json", "--kinds",
                               "hash,metadata,thumbnail,ocr", path],
                              capture_output=True, text=True, timeout=4 * lease, preexec_fn=limit_cpu,
                              env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    except subprocess.TimeoutExpired:
        return "hang (wall time)", 0, time.monotonic() - started, 0, {}
    wall = time.monotonic() - started
    fields = (done.stderr.strip().splitlines() or [""])[-1].split()
    rss, cpu = (int(fields[0]), float(fields[1]) + float(fields[2])) if len(fields) == 3 else (0, 0)
    if "Command terminated by signal 24" in done.stderr:
        return "hang (CPU time)", cpu, wall, rss, {}
    if done.returncode not in (0, 1) or "Command terminated by signal" in done.stderr:
        return f"crash (exit {done.returncode})", cpu, wall, rss, {}
    out = done.stdout.strip().splitlines()
    if len(out) != 1:
        return "no result line", cpu, wall, rss, {}
    errors = json.loads(out[0]).get("errors", {})
    for failure in errors.values():
        if failure.get("class") not in CLASSES or not failure.get("message"):
            return f"unclassified {failure}", cpu, wall, rss, errors
    return None, cpu, wall, rss, errors


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--lease", type=float, default=60)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--keep", default=".build/fuzz-found/media")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--files", nargs="*")
    parser.add_argument("folders", nargs="*")
    args = parser.parse_args()

    files = list(args.files or [])
    for folder in args.folders:
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isfile(path) and os.path.splitext(name)[1].lower() not in SKIP:
                files.append(path)
    if not files:
        sys.exit("fuzz-media.py: no files")
    contents = {path: open(path, "rb").read() for path in files}
    work = tempfile.mkdtemp(prefix="photomill-fuzz-media-")
    stats = collections.defaultdict(lambda: {"variants": 0, "results": 0, "errors": collections.Counter(),
                                             "failures": 0, "cpu": 0.0, "wall": 0.0, "rss": 0})
    deadline = time.monotonic() + args.seconds
    seed = args.seed
    failures = 0
    print(f"fuzz-media: {len(files)} files, first seed {seed}, {args.seconds:g} s, lease {args.lease:g} s, {args.jobs} at a time",
          flush=True)
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            while time.monotonic() < deadline:
                batch = []
                for path in files:
                    rng = random.Random(seed)
                    variant = mutate(contents[path], rng, flips=seed % 2 == 0)
                    base = os.path.basename(path)
                    name = os.path.join(work, f"{seed}-{base}")
                    with open(name, "wb") as out:
                        out.write(variant)
                    batch.append((seed, path, name))
                    seed += 1
                outcomes = pool.map(lambda item: (item, run_one(args.binary, item[2], args.lease)), batch)
                for (variant_seed, path, name), (problem, cpu, wall, rss, errors) in outcomes:
                    ext = os.path.splitext(path)[1].lower()
                    entry = stats[ext]
                    entry["variants"] += 1
                    entry["cpu"] = max(entry["cpu"], cpu)
                    entry["wall"] = max(entry["wall"], wall)
                    entry["rss"] = max(entry["rss"], rss)
                    if problem:
                        failures += 1
                        entry["failures"] += 1
                        os.makedirs(args.keep, exist_ok=True)
                        shutil.copy(name, os.path.join(args.keep, os.path.basename(name)))
                        print(f"FAIL seed {variant_seed} {path}: {problem}", flush=True)
                    elif errors:
                        entry["errors"].update(failure["class"] for failure in errors.values())
                    else:
                        entry["results"] += 1
                    os.remove(name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{'format':8} {'variants':>8} {'results':>8} {'failures':>8} {'CPU s':>6} {'wall s':>6} {'RSS MB':>6}  errors by class")
    for ext, entry in sorted(stats.items()):
        errors = ", ".join(f"{name} {count}" for name, count in entry["errors"].most_common())
        print(f"{ext:8} {entry['variants']:8} {entry['results']:8} {entry['failures']:8} {entry['cpu']:6.1f} {entry['wall']:6.0f} "
              f"{entry['rss'] / 1024:6.0f}  {errors}")
    print(f"seeds {args.seed}..{seed - 1}: {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
