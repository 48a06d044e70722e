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

"""Measures libexif 0.6.24 (photomill's path today) against exiv2 0.27.6 on the shared corpus:
agreement with exiftool, speed, memory, and behaviour on seeded hostile variants (plain,
ASan and valgrind). Builds both probes first. Everything generated goes to --out
(default /tmp/metadata-libraries); results.json and results.md are written there and the
Markdown is printed. See README.md beside this file.
"""
import argparse
import concurrent.futures as futures
import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIBS = ("libexif", "exiv2")
PHOTO_FIELDS = ["DateTimeOriginal", "Make", "Model", "Orientation", "GPSLatitude", "GPSLongitude",
                "FNumber", "ExposureTime", "ISO", "FocalLength"]
FORMAT_FIELDS = ["Make", "Model", "LensModel", "DateTimeOriginal", "Orientation", "GPSLatitude", "GPSLongitude",
                 "FNumber", "ExposureTime", "ISO", "FocalLength"]


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw).stdout


# ---------------------------------------------------------------- build
def build(out):
    bindir = out / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    exif_flags = sh(["pkg-config", "--cflags", "--libs", "libexif"]).split()
    exiv2_flags = sh(["pkg-config", "--cflags", "--libs", "exiv2"]).split()
    cxx_std = ["-std=gnu++14", "-Wno-deprecated-declarations"]  # exiv2 0.27's API uses std::auto_ptr
    asan = ["-O1", "-g", "-fsanitize=address", "-fno-omit-frame-pointer"]
    jobs = {
        "libexif": ["cc", "-O2", "-Wall", "-o", str(bindir / "libexif-probe"), str(HERE / "libexif-probe.c"), *exif_flags, "-lm"],
        "exiv2": ["c++", "-O2", "-Wall", *cxx_std, "-o", str(bindir / "exiv2-probe"), str(HERE / "exiv2-probe.cpp"), *exiv2_flags],
        "libexif-asan": ["cc", *asan, "-o", str(bindir / "libexif-probe-asan"), str(HERE / "libexif-probe.c"), *exif_flags, "-lm"],
        "exiv2-asan": ["c++", *asan, *cxx_std, "-o", str(bindir / "exiv2-probe-asan"), str(HERE / "exiv2-probe.cpp"), *exiv2_flags],
    }
    seconds = {}
    for name, cmd in jobs.items():
        t0 = time.monotonic()
        subprocess.run(cmd, check=True)
        seconds[name] = round(time.monotonic() - t0, 2)
        log(f"built {name} in {seconds[name]} s")
    bins = {"libexif": bindir / "libexif-probe", "exiv2": bindir / "exiv2-probe",
            "libexif-asan": bindir / "libexif-probe-asan", "exiv2-asan": bindir / "exiv2-probe-asan"}
    sizes = {name: path.stat().st_size for name, path in bins.items()}
    return bins, {"compile_seconds": seconds, "binary_bytes": sizes,
                  "commands": {k: " ".join(v) for k, v in jobs.items()}}


def run_probe(binary, files, extra=(), cwd=None):
    out = subprocess.run([str(binary), *extra, *map(str, files)], capture_output=True, text=True, cwd=cwd, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()], out.stderr


# ---------------------------------------------------------------- agreement
def iso_from_exiftool(text):
    return text[:10].replace(":", "-") + text[10:].replace(" ", "T", 1)


def agrees(field, expected, ours):
    if isinstance(expected, str):
        if not isinstance(ours, str):
            return False
        if field == "DateTimeOriginal":
            return ours[:19] == iso_from_exiftool(expected)[:19]
        return ours == expected.strip(" \t")
    if field == "Orientation" and expected == 1 and ours is None:
        return True
    if not isinstance(ours, (int, float)) or isinstance(ours, bool):
        return False
    if field.startswith("GPS"):
        return abs(ours - expected) <= 1e-5
    return abs(ours - expected) <= abs(expected) * 0.005


def valid_reference(field, value, exiftool):
    """Drops exiftool values that are placeholders: 0000 dates, 0,0 GPS."""
    if isinstance(value, str) and field.startswith("Date") and value.startswith("0000"):
        return False
    if field.startswith("GPS") and exiftool.get("GPSLatitude") == 0 and exiftool.get("GPSLongitude") == 0:
        return False
    return True


def agreement(bins, corpus):
    result = {}
    photos = json.loads((corpus / "manifest.json").read_text())["files"]
    formats = json.loads((corpus / "manifest-formats.json").read_text())["files"]
    groups = {
        "photos (45 photos, manifest.json)": ([f for f in photos if f["kind"] == "photo"], PHOTO_FIELDS),
        "broken (5 files, manifest.json)": ([f for f in photos if f["kind"] == "broken"], PHOTO_FIELDS),
        "formats (12 files, manifest-formats.json)": (formats, FORMAT_FIELDS),
    }
    outputs = {}
    for lib in LIBS:
        objs, _ = run_probe(bins[lib], [f["path"] for f in photos + formats], cwd=corpus)
        outputs[lib] = {o["file"]: o for o in objs}
    for group, (files, fields) in groups.items():
        result[group] = {}
        for lib in LIBS:
            compared = agreed = 0
            misses, statuses, extras = [], {}, []
            for f in files:
                o = outputs[lib][f["path"]]
                statuses[o["status"]] = statuses.get(o["status"], 0) + 1
                ours = o["fields"]
                for field in fields:
                    if field not in f["exiftool"] or not valid_reference(field, f["exiftool"][field], f["exiftool"]):
                        if field in ours and field not in f["exiftool"]:
                            extras.append(f"{f['path']} {field}={ours[field]}")
                        continue
                    expected = f["exiftool"][field]
                    compared += 1
                    if agrees(field, expected, ours.get(field)):
                        agreed += 1
                    else:
                        src = o.get("sources", {}).get(field)
                        got = ours.get(field, "absent")
                        misses.append(f"{f['path']} {field}: exiftool {expected!r}, {lib} {got!r}"
                                      + (f" [{o['status']}{': ' + o['error'] if o.get('error') else ''}]" if field not in ours else "")
                                      + (f" (from {src})" if src and field in ours else ""))
            result[group][lib] = {"compared": compared, "agreed": agreed, "misses": misses,
                                  "statuses": statuses, "extra_fields_not_in_exiftool": extras}
    # where exiv2 took ISO from (maker notes) and Exiv2::isoSpeed() for reference
    iso_sources = {}
    for path, o in outputs["exiv2"].items():
        src = o.get("sources", {}).get("ISO")
        if src and src != "Exif.Photo.ISOSpeedRatings":
            iso_sources[path] = {"key": src, "value": o["fields"]["ISO"], "easyaccess_isoSpeed": o.get("easyaccess_isoSpeed")}
    xmp_fallbacks = {path: {k: v for k, v in o.get("sources", {}).items() if v.startswith("Xmp.")}
                     for path, o in outputs["exiv2"].items()}
    per_file = {}
    for f in formats:
        row = {}
        for lib in LIBS:
            o = outputs[lib][f["path"]]
            keys = [k for k in FORMAT_FIELDS if k in f["exiftool"] and valid_reference(k, f["exiftool"][k], f["exiftool"])]
            ok = sum(agrees(k, f["exiftool"][k], o["fields"].get(k)) for k in keys)
            row[lib] = f"{ok}/{len(keys)} ({o['status']})"
        per_file[f["path"]] = row
    return result, {"per_file": per_file, "exiv2_iso_not_from_exif": iso_sources,
                    "exiv2_fields_from_xmp": {k: v for k, v in xmp_fallbacks.items() if v},
                    "outputs": outputs}


# ---------------------------------------------------------------- speed
def speed(bins, corpus, runs, target_seconds):
    photos = [f["path"] for f in json.loads((corpus / "manifest.json").read_text())["files"] if f["kind"] == "photo"]
    formats = [f["path"] for f in json.loads((corpus / "manifest-formats.json").read_text())["files"]]
    both = [p for p in photos if p.lower().endswith((".jpg", ".jpeg"))]
    sets = {"photos (45)": photos, "photos, JPEG only (38)": both, "formats (12)": formats}
    result = {}
    for name, files in sets.items():
        result[name] = {}
        for lib in LIBS:
            def once(repeat):
                _, err = run_probe(bins[lib], files, ["--repeat", str(repeat)], cwd=corpus)
                return json.loads(err.strip().splitlines()[-1])["timing"]
            probe_t = once(3)
            repeat = max(3, int(target_seconds / max(probe_t["seconds"] / 3, 1e-6)))
            timings = [once(repeat) for _ in range(runs)]
            rates = [t["files_per_second"] for t in timings]
            cpu_rates = [t["files_per_cpu_second"] for t in timings]
            med, cmed = statistics.median(rates), statistics.median(cpu_rates)

            def parse_only():
                _, err = run_probe(bins[lib], files, ["--parse-only", "--repeat", str(repeat)], cwd=corpus)
                return json.loads(err.strip().splitlines()[-1])["timing"]["files_per_cpu_second"]
            parse_rates = [parse_only() for _ in range(runs)]
            pmed = statistics.median(parse_rates)
            result[name][lib] = {"files": len(files), "repeat": repeat, "wall_runs": rates, "cpu_runs": cpu_rates,
                                 "median_files_per_second": round(med, 1), "median_us_per_file": round(1e6 / med, 1),
                                 "median_files_per_cpu_second": round(cmed, 1), "median_cpu_us_per_file": round(1e6 / cmed, 1),
                                 "parse_only_cpu_runs": parse_rates, "parse_only_median_cpu_us_per_file": round(1e6 / pmed, 1)}
            log(f"speed {name} {lib}: {med:.0f} files/s (repeat {repeat})")
    return result


# ---------------------------------------------------------------- memory
def max_rss_kb(cmd, cwd=None):
    out = subprocess.run(["/usr/bin/time", "-v", *map(str, cmd)], capture_output=True, text=True, cwd=cwd)
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr)
    return int(m.group(1)) if m else None


def make_big_jpeg(out, corpus):
    big = out / "big-100mp.jpg"
    if big.exists():
        return big
    raw = out / "black-100mp.v"
    subprocess.run(["vips", "black", str(raw), "10000", "10000", "--bands", "3"], check=True)
    subprocess.run(["vips", "copy", str(raw), f"{big}[Q=90]"], check=True)
    raw.unlink()
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-TagsFromFile", str(corpus / "photos/DSCN0010.jpg"),
                    "-all:all", str(big)], check=True)
    return big


def memory(bins, corpus, out):
    photos = [f["path"] for f in json.loads((corpus / "manifest.json").read_text())["files"]]
    formats = [f["path"] for f in json.loads((corpus / "manifest-formats.json").read_text())["files"]]
    big = make_big_jpeg(out, corpus)
    rows = {}
    for lib in LIBS:
        rows[lib] = {
            "startup, no file": max_rss_kb([bins[lib]], cwd=corpus),
            f"whole corpus ({len(photos) + len(formats)} files, one at a time)": max_rss_kb([bins[lib], *photos, *formats], cwd=corpus),
            f"100-Mpixel JPEG ({big.stat().st_size} bytes), file read into memory": max_rss_kb([bins[lib], big]),
        }
    rows["exiv2"]["100-Mpixel JPEG, ImageFactory::open(path) (exiv2's FileIo)"] = max_rss_kb([bins["exiv2"], "--path", big])
    objs, _ = run_probe(bins["libexif"], [big])
    objs2, _ = run_probe(bins["exiv2"], [big])
    return {"max_rss_kb": rows, "big_file": str(big), "big_file_bytes": big.stat().st_size,
            "big_file_fields": {"libexif": objs[0]["fields"], "exiv2": objs2[0]["fields"]}}


# ---------------------------------------------------------------- hostile variants
def variant_sources(corpus):
    files = sorted(p for d in ("photos", "formats") for p in (corpus / d).iterdir() if p.is_file() and p.stat().st_size > 0)
    return files


def make_variants(src, rel, dest, seed, count):
    data = src.read_bytes()
    rng = random.Random(f"{seed}/{rel}")
    size, window = len(data), min(len(data), 65536)
    stem, ext = src.stem, src.suffix
    made = []
    n_flip, n_run = count * 40 // 100, count * 30 // 100
    for i in range(count):
        b = bytearray(data)
        if i < n_flip:
            kind = "bitflip"
            for _ in range(rng.randint(1, 50)):
                b[rng.randrange(window)] ^= 1 << rng.randrange(8)
        elif i < n_flip + n_run:
            kind = "byterun"
            for _ in range(rng.randint(1, 4)):
                off, length = rng.randrange(window), rng.randint(1, 64)
                style = rng.randrange(4)
                if style == 0:
                    fill = bytes(rng.randrange(256) for _ in range(length))
                elif style == 1:
                    fill = b"\x00" * length
                elif style == 2:
                    fill = b"\xff" * length
                else:  # large offsets / counts
                    fill = (rng.choice([b"\x7f\xff\xff\xff", b"\xff\xff\xff\xf0", b"\x00\x01\x00\x00", b"\x80\x00\x00\x00"]) * 16)[:length]
                b[off:off + length] = fill[:max(0, min(length, size - off))]
            del b[size:]
        else:
            kind = "truncate"
            cut = rng.randrange(1, window) if rng.random() < 0.5 and window > 1 else rng.randrange(1, max(2, size))
            del b[cut:]
        path = dest / f"{stem}__{i:03d}-{kind}{ext}"
        path.write_bytes(bytes(b))
        made.append((path, kind))
    return made


def run_one(cmd, timeout, env=None, rss=False):
    """Runs cmd in its own session, killed (whole group) after timeout. With rss, under
    /usr/bin/time so the child's own peak RSS is known (a child forked from this Python
    process would inherit Python's high-water mark across exec)."""
    if rss:
        cmd = ["/usr/bin/time", "-f", "@@MAXRSS %M", *cmd]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    timed_out = threading.Event()

    def kill():
        timed_out.set()
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        out, err = p.communicate()
    finally:
        timer.cancel()
    out, err = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    rc, maxrss = p.returncode, None
    if rss:
        m = re.search(r"@@MAXRSS (\d+)\s*$", err)
        maxrss = int(m.group(1)) if m else None
        sig = re.search(r"Command terminated by signal (\d+)", err)
        if sig:
            rc = -int(sig.group(1))
        err = re.sub(r"(Command terminated by signal \d+\n)?@@MAXRSS \d+\s*$", "", err)
    return {"rc": rc, "timeout": timed_out.is_set(), "maxrss_kb": maxrss or 0, "stdout": out, "stderr": err}


ASAN_HEAD = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer): ([\w-]+)")
FRAME = re.compile(r"#\d+ 0x[0-9a-f]+ in (\S+) \(?([^\s)]+)")


def classify(res):
    """clean / error (exception or no EXIF, reported as JSON) / crash (signal) / hang (timeout) /
    memory-error (ASan aborted on a bad access) / abnormal-exit."""
    if res["timeout"]:
        return "hang", None
    if res["rc"] < 0:
        return "crash", signal.Signals(-res["rc"]).name
    m = ASAN_HEAD.search(res["stderr"])
    if m and m.group(1) == "AddressSanitizer":
        if m.group(2) in ("SEGV", "BUS", "FPE", "ILL", "ABRT", "stack-overflow"):
            return "crash", "asan-" + m.group(2)
        return "memory-error", "asan-" + m.group(2)
    try:
        obj = json.loads(res["stdout"].strip().splitlines()[-1])
    except (ValueError, IndexError):
        return "abnormal-exit", f"rc={res['rc']}"
    outcome = {"ok": "clean", "no-exif": "error", "error": "error"}.get(obj.get("status"), "abnormal-exit")
    return outcome, obj.get("error")


def asan_findings(stderr):
    found = []
    for m in ASAN_HEAD.finditer(stderr):
        tail = stderr[m.end():m.end() + 6000]
        frames = FRAME.findall(tail)
        lib_frame = next((f"{fn} ({Path(obj).name})" for fn, obj in frames
                          if "libexif" in obj or "libexiv2" in obj), None)
        first = f"{frames[0][0]} ({Path(frames[0][1]).name})" if frames else "?"
        found.append(f"{m.group(1)} {m.group(2)} at {lib_frame or first}")
    return found


def hostile(bins, corpus, out, seed, count, jobs, timeout, use_asan, use_valgrind):
    vroot = out / "variants"
    shutil.rmtree(vroot, ignore_errors=True)
    keep = out / "crashers"
    shutil.rmtree(keep, ignore_errors=True)
    keep.mkdir(parents=True)
    sources = variant_sources(corpus)
    variants = []  # (path, source rel, kind)
    for src in sources:
        rel = str(src.relative_to(corpus))
        dest = vroot / rel.replace("/", "__")
        dest.mkdir(parents=True, exist_ok=True)
        variants += [(p, rel, k) for p, k in make_variants(src, rel, dest, seed, count)]
    log(f"hostile: {len(variants)} variants of {len(sources)} files in {vroot}")
    asan_env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:symbolize=1:exitcode=86",
                    LSAN_OPTIONS="exitcode=86")
    modes = [("plain", lib, bins[lib], None) for lib in LIBS]
    if use_asan:
        modes += [("asan", lib, bins[lib + "-asan"], asan_env) for lib in LIBS]
    result = {"seed": seed, "variants_per_file": count, "files": len(sources), "variants": len(variants),
              "kinds": {"bitflip": count * 40 // 100, "byterun": count * 30 // 100,
                        "truncate": count - count * 40 // 100 - count * 30 // 100},
              "timeout_seconds": timeout, "plain": {}, "asan": {}, "valgrind": {}}
    for mode, lib, binary, env in modes:
        t0 = time.monotonic()
        counts = {"clean": 0, "error": 0, "crash": 0, "hang": 0, "memory-error": 0, "abnormal-exit": 0}
        crashes, hangs, findings, per_kind = [], [], {}, {}
        max_rss = (0, None)
        big_rss = 0

        def job(v):
            return v, run_one([str(binary), str(v[0])], timeout, env, rss=(mode == "plain"))
        with futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for (path, rel, kind), res in pool.map(job, variants):
                outcome, detail = classify(res)
                counts[outcome] += 1
                per_kind.setdefault(kind, {}).setdefault(outcome, 0)
                per_kind[kind][outcome] += 1
                if mode == "plain":
                    if res["maxrss_kb"] > max_rss[0]:
                        max_rss = (res["maxrss_kb"], path.name)
                    if res["maxrss_kb"] > 262144:
                        big_rss += 1
                if outcome in ("crash", "hang", "memory-error", "abnormal-exit"):
                    kept = keep / f"{mode}-{lib}-{path.name}"
                    shutil.copyfile(path, kept)
                    entry = {"variant": str(kept), "source": rel, "kind": kind, "detail": detail}
                    (crashes if outcome != "hang" else hangs).append(entry)
                if mode == "asan":
                    for f in asan_findings(res["stderr"]):
                        findings.setdefault(f, []).append(path.name)
                        kept = keep / f"asan-{lib}-{path.name}"
                        if not kept.exists():
                            shutil.copyfile(path, kept)
        entry = {"counts": counts, "by_kind": per_kind, "crashes": crashes, "hangs": hangs,
                 "seconds": round(time.monotonic() - t0, 1)}
        if mode == "plain":
            entry["max_rss_kb"] = {"max": max_rss[0], "variant": max_rss[1], "variants_over_256MiB": big_rss}
        if mode == "asan":
            entry["reports"] = {k: {"count": len(v), "examples": v[:3]} for k, v in sorted(findings.items(), key=lambda kv: -len(kv[1]))}
            entry["variants_with_reports"] = len({p for v in findings.values() for p in v})
        result[mode][lib] = entry
        log(f"hostile {mode} {lib}: {counts} in {entry['seconds']} s")
    if use_valgrind:
        for lib in LIBS:
            result["valgrind"][lib] = valgrind_batches(bins[lib], variants, jobs, keep, lib)
            log(f"hostile valgrind {lib}: {result['valgrind'][lib]['summary']}")
    return result


VG_ERROR = re.compile(r"==\d+== (Invalid (?:read|write) of size \d+|Conditional jump or move depends on uninitialised value\(s\)|"
                      r"Use of uninitialised value of size \d+|Syscall param .*? uninitialised byte\(s\)|Invalid free\(\).*|"
                      r"Mismatched free\(\).*|Source and destination overlap.*|Argument 'size' of function \w+ has a fishy.*|"
                      r"Process terminating with default action of signal \d+ \(\w+\))")
VG_AT = re.compile(r"==\d+==    (?:at|by) 0x[0-9A-Fa-f]+: (.+?) \((.*)\)$")


def valgrind_batches(binary, variants, jobs, keep, lib):
    """memcheck over all variants of one source file per process; '@@FILE' marks attribute reports."""
    by_source = {}
    for path, rel, kind in variants:
        by_source.setdefault(rel, []).append(path)
    t0 = time.monotonic()
    reports, affected = {}, set()

    def job(paths):
        pending, outputs = list(paths), []
        while pending:
            cmd = ["valgrind", "-q", "--log-fd=2", "--num-callers=20", "--error-limit=no", str(binary), "--mark", *map(str, pending)]
            res = run_one(cmd, 60 + 5 * len(pending))
            outputs.append(res["stderr"])
            seen = [line[7:] for line in res["stderr"].splitlines() if line.startswith("@@FILE ")]
            done = len(seen)
            if res["rc"] == 0 and done == len(pending):
                break
            # crashed or was killed while on seen[-1]: go on after it
            pending = pending[max(done, 1):]
        return outputs
    with futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for outputs in pool.map(job, by_source.values()):
            for stderr in outputs:
                current = None
                lines = stderr.splitlines()
                for i, line in enumerate(lines):
                    if line.startswith("@@FILE "):
                        current = line[7:]
                        continue
                    m = VG_ERROR.match(line)
                    if not m or current is None:
                        continue
                    where = "?"
                    for nxt in lines[i + 1:i + 25]:
                        a = VG_AT.match(nxt)
                        if not a:
                            break
                        if "libexif" in a.group(2) or "libexiv2" in a.group(2):
                            where = a.group(1) + (" (libexif)" if "libexif" in a.group(2) else " (libexiv2)")
                            break
                        if where == "?":
                            where = a.group(1)
                    kind = re.sub(r"size \d+", "size N", m.group(1))
                    key = f"{kind} at {where}"
                    reports.setdefault(key, []).append(Path(current).name)
                    affected.add(current)
                    kept = keep / f"valgrind-{lib}-{Path(current).name}"
                    if not kept.exists() and Path(current).exists():
                        shutil.copyfile(current, kept)
    return {"seconds": round(time.monotonic() - t0, 1),
            "summary": {"variants_with_reports": len(affected), "reports": sum(len(v) for v in reports.values()),
                        "distinct": len(reports)},
            "reports": {k: {"count": len(v), "variants": len(set(v)), "examples": sorted(set(v))[:3]}
                        for k, v in sorted(reports.items(), key=lambda kv: -len(kv[1]))}}


# ---------------------------------------------------------------- link cost
def link_cost():
    rows = {}
    for lib, soname in (("libexif", "libexif.so.12"), ("exiv2", "libexiv2.so.27")):
        path = Path(sh(["sh", "-c", f"ldconfig -p | awk '/{soname} .*x86-64/ {{print $NF; exit}}'"]).strip())
        real = path.resolve()
        deps = {}
        for line in sh(["ldd", str(real)]).splitlines():
            m = re.match(r"\s*(\S+) => (\S+)", line)
            if m:
                dep = Path(m.group(2)).resolve()
                deps[m.group(1)] = {"path": str(dep), "bytes": dep.stat().st_size}
        rows[lib] = {"library": str(real), "bytes": real.stat().st_size, "ldd": deps,
                     "package_version": sh(["dpkg-query", "-W", "-f=${Version}", "libexif12" if lib == "libexif" else "libexiv2-27"])}
    return rows


# ---------------------------------------------------------------- report
def markdown(res):
    md = []
    a = res["agreement"]
    md.append("## Agreement with exiftool\n")
    md.append("| corpus | libexif agreed/compared | exiv2 agreed/compared |\n|---|---|---|")
    for group, libs in a.items():
        cells = [f"{libs[l]['agreed']}/{libs[l]['compared']}" + (f" ({100 * libs[l]['agreed'] / libs[l]['compared']:.1f} %)" if libs[l]['compared'] else "") for l in LIBS]
        md.append(f"| {group} | {cells[0]} | {cells[1]} |")
    per_file = res["agreement_details"].get("per_file", {})
    if per_file:
        md.append("\n**Per file, formats corpus (agreed/compared):**\n")
        md.append("| file | libexif | exiv2 |\n|---|---|---|")
        for path, libs in per_file.items():
            md.append(f"| {path} | {libs['libexif']} | {libs['exiv2']} |")
    for group, libs in a.items():
        for lib in LIBS:
            if libs[lib]["misses"]:
                md.append(f"\n**{lib} misses, {group}:**\n")
                md += [f"- {m}" for m in libs[lib]["misses"]]
    iso = res["agreement_details"]["exiv2_iso_not_from_exif"]
    if iso:
        md.append("\n**exiv2 ISO not from Exif.Photo.ISOSpeedRatings:**\n")
        md += [f"- {p}: {v['value']} from {v['key']} (Exiv2::isoSpeed(): {v['easyaccess_isoSpeed']})" for p, v in iso.items()]
    xmp = res["agreement_details"]["exiv2_fields_from_xmp"]
    if xmp:
        md.append("\n**exiv2 fields taken from XMP (Exif lacked them):**\n")
        md += [f"- {p}: {', '.join(f'{k} <- {v}' for k, v in d.items())}" for p, d in xmp.items()]
    if "speed" in res:
        md.append("\n## Speed (in-process, files already in memory, median of runs)\n")
        md.append(f"Load average when speed ran: {res.get('load_during_speed')}. CPU time (CLOCK_PROCESS_CPUTIME_ID) is the primary figure; wall time in brackets.\n")
        md.append("| set | libexif files/CPU-s (µs/file; wall files/s) | exiv2 files/CPU-s (µs/file; wall files/s) | libexif faster by | parse only, CPU µs/file: libexif / exiv2 |\n|---|---|---|---|---|")
        for name, libs in res["speed"].items():
            l, e = libs["libexif"], libs["exiv2"]
            md.append(f"| {name} | {l['median_files_per_cpu_second']:.0f} ({l['median_cpu_us_per_file']}; {l['median_files_per_second']:.0f}) | "
                      f"{e['median_files_per_cpu_second']:.0f} ({e['median_cpu_us_per_file']}; {e['median_files_per_second']:.0f}) | "
                      f"{l['median_files_per_cpu_second'] / e['median_files_per_cpu_second']:.1f}× | "
                      f"{l['parse_only_median_cpu_us_per_file']} / {e['parse_only_median_cpu_us_per_file']} |")
    if "memory" in res:
        md.append("\n## Peak RSS (/usr/bin/time -v, kB)\n")
        rows = res["memory"]["max_rss_kb"]
        keys = list(dict.fromkeys(k for lib in rows.values() for k in lib))
        md.append("| case | libexif | exiv2 |\n|---|---|---|")
        for k in keys:
            md.append(f"| {k} | {rows['libexif'].get(k, '—')} | {rows['exiv2'].get(k, '—')} |")
    if "hostile" in res:
        h = res["hostile"]
        md.append(f"\n## Hostile variants: {h['variants']} variants of {h['files']} files "
                  f"({h['kinds']}), seed {h['seed']}, {h['timeout_seconds']} s timeout, one process each\n")
        md.append("| mode | library | clean | error (exception / no EXIF) | crash (signal) | hang | ASan memory error | abnormal exit | seconds |\n|---|---|---|---|---|---|---|---|---|")
        for mode in ("plain", "asan"):
            for lib, e in h.get(mode, {}).items():
                c = e["counts"]
                sigs = {}
                for cr in e["crashes"]:
                    sigs[cr["detail"]] = sigs.get(cr["detail"], 0) + 1
                md.append(f"| {mode} | {lib} | {c['clean']} | {c['error']} | {c['crash']}" + (f" {sigs}" if sigs else "")
                          + f" | {c['hang']} | {c['memory-error']} | {c['abnormal-exit']} | {e['seconds']} |")
        for lib, e in h.get("plain", {}).items():
            md.append(f"\n{lib} plain: largest peak RSS {e['max_rss_kb']['max']} kB ({e['max_rss_kb']['variant']}), "
                      f"{e['max_rss_kb']['variants_over_256MiB']} variants over 256 MiB.")
            for cr in e["crashes"][:20] + e["hangs"][:20]:
                md.append(f"- {cr['detail']}: {cr['variant']}")
        for lib, e in h.get("asan", {}).items():
            md.append(f"\n**ASan/LSan reports, {lib}** ({e['variants_with_reports']} variants with a report):\n")
            md += [f"- {k}: {v['count']}× (e.g. {', '.join(v['examples'])})" for k, v in e["reports"].items()] or ["- none"]
        for lib, e in h.get("valgrind", {}).items():
            md.append(f"\n**valgrind memcheck, {lib}** ({e['summary']['variants_with_reports']} variants with a report, "
                      f"{e['summary']['reports']} reports, {e['summary']['distinct']} distinct, {e['seconds']} s):\n")
            md += [f"- {k}: {v['count']}× in {v['variants']} variants (e.g. {', '.join(v['examples'])})" for k, v in e["reports"].items()] or ["- none"]
    if "link" in res:
        md.append("\n## Link cost\n")
        md.append("| library | file | bytes | dependencies (bytes) |\n|---|---|---|---|")
        for lib, r in res["link"].items():
            deps = ", ".join(f"{Path(d['path']).name} {d['bytes']}" for n, d in r["ldd"].items())
            md.append(f"| {lib} {r['package_version']} | {r['library']} | {r['bytes']} | {deps} |")
    b = res["build"]
    md.append(f"\nProbe compile time (s): {b['compile_seconds']}; probe binary bytes: {b['binary_bytes']}")
    return "\n".join(md) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--corpus", type=Path, default=Path(os.environ.get("CORPUS", HERE.parents[2] / "shared/corpus")))
    ap.add_argument("--out", type=Path, default=Path("/tmp/metadata-libraries"))
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--variants", type=int, default=100, help="hostile variants per file")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--runs", type=int, default=5, help="speed runs (median)")
    ap.add_argument("--speed-seconds", type=float, default=1.0, help="target length of one speed run")
    ap.add_argument("--skip", default="", help="comma list of: speed,memory,hostile,asan,valgrind")
    args = ap.parse_args()
    if not (args.corpus / "manifest.json").exists():
        for guess in (Path("/work/shared/corpus"), HERE.parents[2] / "shared/corpus"):
            if (guess / "manifest.json").exists():
                args.corpus = guess
    skip = set(filter(None, args.skip.split(",")))
    args.out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    res = {"versions": {"libexif": sh(["pkg-config", "--modversion", "libexif"]).strip(),
                        "exiv2": sh(["pkg-config", "--modversion", "exiv2"]).strip(),
                        "exiftool_reference": "manifest.json / manifest-formats.json"},
           "args": {k: str(v) for k, v in vars(args).items()}}
    bins, res["build"] = build(args.out)
    res["agreement"], details = agreement(bins, args.corpus)
    (args.out / "probe-outputs.json").write_text(json.dumps(details.pop("outputs"), indent=1, ensure_ascii=False))
    res["agreement_details"] = details
    if "speed" not in skip:
        load0 = os.getloadavg()[0]
        res["speed"] = speed(bins, args.corpus, args.runs, args.speed_seconds)
        res["load_during_speed"] = f"{load0:.2f} before, {os.getloadavg()[0]:.2f} after ({os.cpu_count()} CPUs)"
    if "memory" not in skip:
        res["memory"] = memory(bins, args.corpus, args.out)
    if "hostile" not in skip:
        res["hostile"] = hostile(bins, args.corpus, args.out, args.seed, args.variants, args.jobs, args.timeout,
                                 "asan" not in skip, "valgrind" not in skip)
    res["link"] = link_cost()
    res["total_seconds"] = round(time.monotonic() - t0, 1)
    (args.out / "results.json").write_text(json.dumps(res, indent=1, ensure_ascii=False))
    text = markdown(res) + f"\nTotal time: {res['total_seconds']} s. Full data: {args.out / 'results.json'}\n"
    (args.out / "results.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
