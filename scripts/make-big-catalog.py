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

"""Makes a large photomill catalog for measuring the operator commands.

    scripts/make-big-catalog.py PHOTOMILL CATALOG [--photos 250000] [--failed-ocr 10000] [--similarity]

PHOTOMILL is the built binary: it creates the schema (so the catalog has exactly the
migrations that build knows) by running over an empty folder; this script then fills
the tables the way a long run leaves them: 4 tasks per photo (1,000,000 for 250,000
photos), most done, some pending and leased, FAILED_OCR failed OCR tasks plus a few
failures of the other kinds; one attempt per finished task spread over the last two
hours (about 14 tasks/s over the last minute); metadata and OCR text for done tasks;
a duplicate every 50 photos; 8 workers, 6 connected.

With --similarity, every photo has a fifth task, `similarity`, in the thumbnail's state, and
each done one a perceptual hash: 64 bits of which 32 are set (as a median-thresholded DCT
hash has), random, but for a near-duplicate every 20th photo (an earlier photo's hash with 1
to 5 pairs of bits swapped: 2 to 10 bits apart) and the exact duplicates' equal hashes; and a
detail hash, 256 random bits (a near-duplicate's 2 to 40 bits from its source's). Rows
are written 50,000 photos at a time, so 1,000,000 photos fit in a few hundred MB.
"""
import argparse, collections, hashlib, os, random, sqlite3, subprocess, sys, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("photomill")
parser.add_argument("catalog")
parser.add_argument("--photos", type=int, default=250_000)
parser.add_argument("--failed-ocr", type=int, default=10_000)
parser.add_argument("--similarity", action="store_true", help="similarity tasks and perceptual hashes too")
args = parser.parse_args()
if os.path.exists(args.catalog):
    sys.exit(f"{args.catalog} exists: give a new file")

with tempfile.TemporaryDirectory() as empty:
    subprocess.run([args.photomill, "run", empty, "--catalog", args.catalog, "--no-exports", "--workers", "1"],
                   check=True, stdout=subprocess.DEVNULL)

rng = random.Random(7)
now = time.time()
con = sqlite3.connect(args.catalog)
con.execute("PRAGMA journal_mode = WAL")
con.execute("PRAGMA synchronous = OFF")
cameras = [("Canon", "Canon EOS 5D Mark IV"), ("NIKON CORPORATION", "NIKON D750"), ("Apple", "iPhone 13 Pro"),
           ("FUJIFILM", "X-T4"), ("SONY", "ILCE-7M3")]
words = ("invoice receipt total amount paid museum ticket entrance platform train departure menu coffee "
         "harbour bridge opera street avenue station library archive letter page chapter").split()
kinds = ["hash", "metadata", "thumbnail", "ocr"] + (["similarity"] if args.similarity else [])
n = args.photos
pending = set(range(n - n // 20 + 1, n + 1))                  # the last 5 % not processed yet
leased = set(range(n - n // 20 - 15, n - n // 20 + 1))        # 16 photos out now
processed = range(1, n - n // 20 - 15)
failed_ocr = set(rng.sample(processed, args.failed_ocr))
other_failed = set(rng.sample(processed, n // 200))           # 0.5 % of photos: a failed thumbnail too
workers = [f"host{w % 3}-{1000 + w}-{w:04x}" for w in range(8)]

def state_of(photo, kind):
    if photo in pending: return "pending"
    if photo in leased: return "leased"
    if kind == "ocr" and photo in failed_ocr: return "failed"
    if kind in ("thumbnail", "similarity") and photo in other_failed: return "failed"
    return "done"

recipes = {"hash": "hash/1", "metadata": "metadata/1", "thumbnail": "thumbnail/1 size=256 q=80", "ocr": "ocr/1 lang=eng side=4096",
           "similarity": "similarity/3 side=256"}
classes = ["corrupt", "ocr-failed", "lease-expired", "worker-lost"]
# Finished tasks end over the last two hours, the last minute at about 14 per second.
count = sum(1 for p in range(1, n + 1) for k in kinds if state_of(p, k) in ("done", "failed"))
recent = min(840, count)
finished = 0

def end_time():
    """When the next finished task (in photo, then kind order) ended."""
    global finished
    i, finished = finished, finished + 1
    if i >= count - recent:
        return now - 60 + 60 * (i - (count - recent)) / recent
    return now - 7200 + 7140 * i / max(1, count - recent)

def balanced_hash():
    """64 random bits, 32 of them set."""
    value = 0
    for bit in rng.sample(range(64), 32):
        value |= 1 << bit
    return value

def near(value):
    """`value` with 1 to 5 pairs of bits swapped (a set one cleared, a clear one set)."""
    ones = [b for b in range(64) if value >> b & 1]
    zeros = [b for b in range(64) if not value >> b & 1]
    for one, zero in zip(rng.sample(ones, k := rng.randint(1, 5)), rng.sample(zeros, k)):
        value ^= (1 << one) | (1 << zero)
    return value

def near_detail(detail):
    """A detail hash (32 bytes) with 2 to 40 of its 256 bits flipped: a copy's, within 65."""
    value = int.from_bytes(detail, "big")
    for bit in rng.sample(range(256), rng.randint(2, 40)):
        value ^= 1 << bit
    return value.to_bytes(32, "big")

def signed(value):
    return value - (1 << 64) if value >= 1 << 63 else value

hashes = {}                                      # photo: (its hash, its detail hash)
latest = collections.deque(maxlen=1000)          # the photos a near-duplicate copies from
photos, tasks, attempts, metadata, ocr, similarity = [], [], [], [], [], []

def flush():
    con.executemany("""INSERT INTO photos (id, path, size, mtimeNs, md5, sha256, scannedAt, changedAt, format, mediaType, stem)
        VALUES (?,?,?,?,?,?,?,?,?,?,?)""", photos)
    con.executemany("""INSERT INTO tasks (photoId, kind, state, attempts, maxAttempts, notBefore, leaseToken, leasedTo, leasedAt,
                       leaseExpires, recipe, errorClass, errorMessage, updatedAt) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)""", tasks)
    con.executemany("""INSERT INTO attempts (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome, errorClass, errorMessage)
                       VALUES (?,?,?,?,?,?,?,?,?)""", attempts)
    con.executemany("""INSERT INTO metadata (photoId, dateTaken, fileModificationDate, pixelWidth, pixelHeight, cameraMake, cameraModel,
                       orientation, gpsLatitude, gpsLongitude, aperture, shutterSpeed, iso, focalLength, lensModel, recipe)
                       VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""", metadata)
    con.executemany("INSERT INTO ocr (photoId, text, confidence, language, recipe) VALUES (?,?,?,?,?)", ocr)
    con.executemany("INSERT INTO similarity (photoId, hash, detail, recipe) VALUES (?,?,?,?)", similarity)
    for rows in (photos, tasks, attempts, metadata, ocr, similarity):
        rows.clear()

for p in range(1, n + 1):
    if p % 50_000 == 0:
        flush()
    content = p - 1 if p % 50 == 0 else p   # every 50th photo duplicates the one before
    md5 = hashlib.md5(str(content).encode()).hexdigest() if p not in pending else None
    sha = hashlib.sha256(str(content).encode()).hexdigest() if md5 else None
    photos.append((p, f"/photos/{p // 1000:03d}/IMG_{p:06d}.jpg", 2_000_000 + content % 1000, 1_700_000_000_000_000_000 + p,
                   md5, sha, now - 7300, now - 7300, "jpeg", "photo", f"/photos/{p // 1000:03d}/img_{p:06d}"))
    for k in kinds:
        s = state_of(p, k)
        w = workers[p % len(workers)]
        if s == "leased":
            tasks.append((p, k, s, 1, 3, 0, f"tok{p}", w, now - 5, now + 55, None, None, None, now - 5))
        elif s == "pending":
            tasks.append((p, k, s, 0, 3, 0, None, None, None, None, None, None, None, now - 7300))
        else:
            ended = end_time()
            if s == "failed":
                c = "corrupt" if k == "thumbnail" else classes[p % len(classes)]
                msg = f"/photos/{p // 1000:03d}/IMG_{p:06d}.jpg: {c}: made by make-big-catalog.py"
                tasks.append((p, k, s, 1 if c == "corrupt" else 3, 3, 0, None, None, None, None, recipes[k], c, msg, ended))
                attempts.append((p, k, w, f"tok{p}{k}", ended - 1.5, ended, "failed", c, msg))
            else:
                tasks.append((p, k, s, 1, 3, 0, None, None, None, None, recipes[k], None, None, ended))
                attempts.append((p, k, w, f"tok{p}{k}", ended - 0.8, ended, "done", None, None))
                if k == "metadata":
                    make, model = cameras[p % len(cameras)]
                    day = 1 + p % 28
                    metadata.append((p, f"20{10 + p % 15}-{1 + p % 12:02d}-{day:02d}T{p % 24:02d}:{p % 60:02d}:00", None, 4000, 3000,
                                     make, model, 1 + p % 8, rng.uniform(-60, 60), rng.uniform(-180, 180), 2.8, 0.004, 200,
                                     35.0, None, recipes[k]))
                elif k == "ocr":
                    text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))
                    ocr.append((p, text, rng.uniform(50, 95), "eng", recipes[k]))
                elif k == "similarity":
                    if content != p and content in hashes:
                        value, detail = hashes[content]
                    elif p % 20 == 0 and hashes:
                        source, source_detail = hashes[rng.choice(latest)]
                        value, detail = near(source), near_detail(source_detail)
                    else:
                        value, detail = balanced_hash(), rng.randbytes(32)
                    hashes[p] = value, detail
                    latest.append(p)
                    similarity.append((p, signed(value), detail, recipes[k]))

flush()
con.executemany("""INSERT INTO workers (id, host, slots, kinds, ocrLanguages, state, connectedAt, lastSeen, inFlight, done, failed)
                   VALUES (?,?,?,?,?,?,?,?,?,?,?)""",
                [(w, w.split("-")[0], 2, ",".join(kinds), "eng", "connected" if i < 6 else "gone",
                  now - 7300, now - (0.3 if i < 6 else 3000), 2 if i < 6 else 0, 30000, 400) for i, w in enumerate(workers)])
con.commit()
con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
totals = dict(con.execute("SELECT state, COUNT(*) FROM tasks GROUP BY state").fetchall())
print(f"{args.catalog}: {n} photos, {sum(totals.values())} tasks {totals}, "
      f"{con.execute('SELECT COUNT(*) FROM attempts').fetchone()[0]} attempts")
