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

"""photomill's metadata against exiftool's, field by field, on a folder of files it has not seen.

Runs `photomill inspect --json --kinds metadata` over every file exiftool gives one of
photomill's file types, runs exiftool over the same files, and compares:

  field     photomill            exiftool (values with -n; strings as exiftool prints them)
  make      cameraMake           Make
  model     cameraModel          Model
  lens      lensModel            LensModel
  date      dateTaken            DateTimeOriginal; for videos, else CreationDate, else CreateDate
  size      pixelWidth × Height  ImageSize ("W H"; for X3F ImageWidth/ImageHeight, exiftool's
                                 ImageSize being the embedded JPEG's there)
  orientation orientation        Orientation (stills); Rotation 0/90/180/270 as 1/6/3/8 (videos)
  gps       gpsLatitude, -Longitude  GPSLatitude, GPSLongitude (signed degrees)
  exposure  shutterSpeed         ExposureTime
  aperture  aperture             FNumber
  iso       iso                  ISO (its first value)
  focal     focalLength          FocalLength
  duration  duration             Duration (videos, animated GIF and WebP)

Tolerance rules (written before any figure was taken):
  - a field is compared when exiftool has a valid value for it; "0000:00:00" dates, GPS 0,0
    and empty strings are not valid; a value photomill has and exiftool lacks is counted as
    `extra`, apart from the agreement;
  - strings agree when equal after trimming spaces; dates when their first 19 characters
    agree as YYYY-MM-DDTHH:MM:SS (the offset is not compared: exiftool prints it apart);
  - numbers agree within 0.5 % (ISO, exposure, aperture, focal length, duration; duration
    also within 0.05 s), GPS within 1e-5 degrees, sizes and orientation exactly; exiftool's
    Orientation 1 agrees with none (a file without the tag);
  - a file whose metadata photomill fails counts every field exiftool has as a disagreement.

The corpus split of docs/processing.md (fixed before any figure of the new readers was
taken): formats2's files grouped by source repository, the repositories sorted (ASCII);
those at even positions (0, 2, …) are the part readers were chosen on, beside photos/ and
formats/; those at odd positions are the part not looked at while choosing.
`--formats2 choose|held-out` adds that part's files.

Usage:
  scripts/metadata-agreement.py [--photomill BIN] [--json OUT] [--show N] [--formats2 PART] [FOLDER_OR_FILE...]
"""
import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict

# exiftool's FileType for each of photomill's formats (MediaFormat).
FILE_TYPES = {
    "JPEG", "PNG", "GIF", "TIFF", "WEBP", "Extended WEBP", "BMP", "HEIC", "HEIF", "AVIF", "JXL", "JXL Codestream",
    "CR2", "CR3", "CRW", "NEF", "NRW", "ARW", "SR2", "DNG", "RAF", "ORF", "RW2", "PEF", "SRW",
    "MRW", "X3F", "IIQ", "3FR", "RAW",
    "MOV", "MP4", "M4V", "3GP", "AVI", "MKV", "WEBM", "M2TS", "M2T",
}
VIDEO_TYPES = {"MOV", "MP4", "M4V", "3GP", "AVI", "MKV", "WEBM", "M2TS", "M2T"}
FIELDS = ["make", "model", "lens", "date", "size", "orientation", "gps", "exposure", "aperture", "iso", "focal", "duration"]
TAGS = ["FileType", "Make", "Model", "LensModel", "DateTimeOriginal", "CreationDate", "CreateDate", "ImageSize",
        "ImageWidth", "ImageHeight", "Orientation", "Rotation", "GPSLatitude", "GPSLongitude", "ExposureTime",
        "FNumber", "ISO", "FocalLength", "Duration"]


def files_of(arguments):
    for argument in arguments:
        if os.path.isdir(argument):
            for root, _, names in os.walk(argument):
                for name in sorted(names):
                    yield os.path.join(root, name)
        else:
            yield argument


def run_exiftool(paths, printed):
    """exiftool's values per file: -n numbers, or printed strings."""
    result = {}
    for start in range(0, len(paths), 200):
        chunk = paths[start:start + 200]
        # -ee: GoPro's GPMF and AVCHD's MDPM live in the media data; -api LargeFileSupport for big videos.
        command = ["exiftool", "-j", "-ee", "-api", "LargeFileSupport=1", "-charset", "filename=utf8"]
        command += [] if printed else ["-n"]
        command += ["-" + tag for tag in TAGS] + chunk
        output = subprocess.run(command, capture_output=True).stdout
        for entry in json.loads(output or b"[]"):
            result[entry["SourceFile"]] = entry
        if not printed:
            # X3F: the sensor image's size is SigmaRaw's (exiftool's ImageSize is the embedded JPEG's).
            x3f = [path for path in chunk if result.get(path, {}).get("FileType") == "X3F"]
            if x3f:
                output = subprocess.run(["exiftool", "-j", "-n", "-G1", "-SigmaRaw:ImageWidth", "-SigmaRaw:ImageHeight"] + x3f,
                                        capture_output=True).stdout
                for entry in json.loads(output or b"[]"):
                    result[entry["SourceFile"]].update({k: v for k, v in entry.items() if k.startswith("SigmaRaw:")})
    return result


def run_photomill(binary, paths):
    result = {}
    for start in range(0, len(paths), 200):
        chunk = paths[start:start + 200]
        output = subprocess.run([binary, "inspect", "--json", "--kinds", "metadata"] + chunk, capture_output=True).stdout
        for line in output.decode("utf-8", "replace").splitlines():
            if line.startswith("{"):
                entry = json.loads(line)
                result[entry["path"]] = entry
    return result


def first(value):
    if isinstance(value, list):
        return value[0] if value else None
    if isinstance(value, str) and " " in value and value.replace(" ", "").replace(".", "").isdigit():
        return float(value.split()[0])
    return value


def valid_date(text):
    return isinstance(text, str) and len(text) >= 19 and not text.startswith("0000") and text[:4].isdigit()


def expected_values(numbers, printed):
    """What exiftool says for each field, or None when it has no valid value."""
    file_type = numbers.get("FileType")
    video = file_type in VIDEO_TYPES
    values = {}
    for field, tag in [("make", "Make"), ("model", "Model"), ("lens", "LensModel")]:
        text = printed.get(tag)
        if isinstance(text, (str, int, float)) and str(text).strip():
            values[field] = str(text).strip()
    for tag in (["DateTimeOriginal", "CreationDate", "CreateDate"] if video else ["DateTimeOriginal"]):
        if valid_date(numbers.get(tag)):
            values["date"] = numbers[tag]
            break
    if file_type == "X3F" and numbers.get("SigmaRaw:ImageWidth") and numbers.get("SigmaRaw:ImageHeight"):
        values["size"] = (int(numbers["SigmaRaw:ImageWidth"]), int(numbers["SigmaRaw:ImageHeight"]))
    elif isinstance(numbers.get("ImageSize"), str) and len(numbers["ImageSize"].split()) == 2:
        width, height = numbers["ImageSize"].split()
        values["size"] = (int(float(width)), int(float(height)))
    if video:
        rotation = {0: 1, 90: 6, 180: 3, 270: 8}.get(first(numbers.get("Rotation")))
        if rotation:
            values["orientation"] = rotation
    elif isinstance(first(numbers.get("Orientation")), (int, float)):
        values["orientation"] = int(first(numbers["Orientation"]))
    latitude, longitude = first(numbers.get("GPSLatitude")), first(numbers.get("GPSLongitude"))
    if isinstance(latitude, (int, float)) and isinstance(longitude, (int, float)) and (latitude, longitude) != (0, 0):
        values["gps"] = (latitude, longitude)
    timed = video or file_type in ("GIF", "WEBP", "Extended WEBP")
    for field, tag in [("exposure", "ExposureTime"), ("aperture", "FNumber"), ("iso", "ISO"), ("focal", "FocalLength")] + \
            ([("duration", "Duration")] if timed else []):
        value = first(numbers.get(tag))
        if isinstance(value, (int, float)) and value > 0:
            values[field] = float(value)
    return values


def our_values(metadata):
    values = {}
    for field, key in [("make", "cameraMake"), ("model", "cameraModel"), ("lens", "lensModel"), ("date", "dateTaken"),
                       ("orientation", "orientation"), ("exposure", "shutterSpeed"), ("aperture", "aperture"),
                       ("iso", "iso"), ("focal", "focalLength"), ("duration", "duration")]:
        if metadata.get(key) is not None:
            values[field] = metadata[key]
    if metadata.get("pixelWidth") and metadata.get("pixelHeight"):
        values["size"] = (metadata["pixelWidth"], metadata["pixelHeight"])
    if metadata.get("gpsLatitude") is not None and metadata.get("gpsLongitude") is not None:
        values["gps"] = (metadata["gpsLatitude"], metadata["gpsLongitude"])
    return values


def agrees(field, expected, ours):
    if field == "orientation" and expected == 1 and ours is None:
        return True
    if ours is None:
        return False
    if field in ("make", "model", "lens"):
        return str(ours).strip() == expected
    if field == "date":
        iso = expected[:10].replace(":", "-") + "T" + expected[11:19]
        return str(ours)[:19] == iso
    if field == "size":
        return tuple(ours) == tuple(expected)
    if field == "orientation":
        return ours == expected
    if field == "gps":
        return abs(ours[0] - expected[0]) <= 1e-5 and abs(ours[1] - expected[1]) <= 1e-5
    if field == "duration" and abs(ours - expected) <= 0.05:
        return True
    return abs(float(ours) - expected) <= abs(expected) * 0.005


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--formats2", choices=["choose", "held-out"], help="add this part of ../shared/corpus/formats2")
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "corpus"))
    parser.add_argument("--photomill", default=os.environ.get("PHOTOMILL", ".build/release/photomill"))
    parser.add_argument("--json", help="write the per-file comparison here")
    parser.add_argument("--show", type=int, default=40, help="disagreements to print")
    arguments = parser.parse_args()

    paths_given = list(arguments.paths)
    if arguments.formats2:
        with open(os.path.join(arguments.corpus, "manifest-formats2.json")) as manifest:
            files = json.load(manifest)["files"]
        repositories = sorted({entry["source"]["repo"] for entry in files})
        wanted = set(repositories[0 if arguments.formats2 == "choose" else 1::2])
        paths_given += [os.path.join(arguments.corpus, entry["path"]) for entry in files if entry["source"]["repo"] in wanted]
    candidates = [os.path.abspath(path) for path in files_of(paths_given) if not path.lower().endswith(".xmp")]
    numbers = run_exiftool(candidates, printed=False)
    printed = run_exiftool(candidates, printed=True)
    paths = [path for path in candidates if numbers.get(path, {}).get("FileType") in FILE_TYPES]
    ours = run_photomill(arguments.photomill, paths)

    tally = defaultdict(lambda: [0, 0])
    extra = defaultdict(int)
    differing, failed, files = [], [], []
    for path in paths:
        expected = expected_values(numbers[path], printed.get(path, {}))
        entry = ours.get(path, {})
        metadata = entry.get("metadata")
        error = (entry.get("errors") or {}).get("metadata")
        if metadata is None:
            failed.append((path, error or "no result"))
        mine = our_values(metadata or {})
        record = {"path": path, "fileType": numbers[path].get("FileType"), "fields": {}}
        for field in FIELDS:
            if field not in expected:
                if field in mine:
                    extra[field] += 1
                continue
            ok = agrees(field, expected[field], mine.get(field))
            tally[field][0] += ok
            tally[field][1] += 1
            record["fields"][field] = {"exiftool": expected[field], "photomill": mine.get(field), "agree": ok}
            if not ok:
                differing.append(f"{os.path.relpath(path)} {field}: exiftool {expected[field]!r}, photomill {mine.get(field)!r}")
        files.append(record)

    agreed = sum(value[0] for value in tally.values())
    compared = sum(value[1] for value in tally.values())
    print(f"{len(paths)} files of photomill's types ({len(candidates) - len(paths)} others left out), "
          f"{len(failed)} without metadata")
    for field in FIELDS:
        if tally[field][1]:
            print(f"  {field:12s} {tally[field][0]:5d}/{tally[field][1]:<5d} {100 * tally[field][0] / tally[field][1]:6.1f} %"
                  f"   (+{extra[field]} only photomill has)")
    print(f"  {'overall':12s} {agreed:5d}/{compared:<5d} {100 * agreed / max(compared, 1):6.1f} %")
    for path, error in failed:
        print(f"failed: {os.path.relpath(path)}: {error}")
    for line in differing[:arguments.show]:
        print("differs: " + line)
    if len(differing) > arguments.show:
        print(f"… and {len(differing) - arguments.show} more")
    if arguments.json:
        with open(arguments.json, "w") as out:
            json.dump({"agreed": agreed, "compared": compared, "fields": dict(tally), "files": files,
                       "failed": failed}, out, indent=1, default=str)


if __name__ == "__main__":
    sys.exit(main())
