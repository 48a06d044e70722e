//===----------------------------------------------------------------------===//
//
// This source file is part of the photomill open source project
//
// Copyright (c) 2026 the photomill authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// exiv2 0.27 (C++) behind a C interface, for PhotoProcessing's `Exiv2Metadata` alone.
//
// Why a compiled C++ target: exiv2's API is C++ (classes, exceptions, std::auto_ptr), which
// Swift cannot import from a C module map; this shim turns it into plain C calls. Every
// entry point catches every exception: a hostile file yields NULL or -1, never an unwinding
// through Swift frames. The bytes are read in place (exiv2's MemIo), never copied, never
// through a path: they must outlive the handle.
#ifndef PM_CEXIV2_H
#define PM_CEXIV2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The metadata exiv2 read from one image (EXIF, XMP) and the image's pixel size.
typedef struct pm_exiv2_metadata pm_exiv2_metadata;

/// Reads the metadata of a whole file held in memory: every container exiv2 knows (JPEG,
/// TIFF and the TIFF-based RAWs, CRW, MRW, RAF, RW2, ORF, PNG, WebP, GIF, HEIF/AVIF/CR3/JPEG
/// XL through BMFF, …). NULL when exiv2 does not recognise the bytes or cannot read them;
/// `error` (when not NULL) then holds exiv2's reason, cut to `error_size` bytes.
pm_exiv2_metadata *pm_exiv2_read(const uint8_t *bytes, size_t count, char *error, size_t error_size);

/// Reads an EXIF block on its own: a TIFF structure ("II*\0"/"MM\0*"), with or without an
/// "Exif\0\0" header in front (the EXIF of containers exiv2 0.27 does not open itself).
pm_exiv2_metadata *pm_exiv2_read_exif(const uint8_t *bytes, size_t count, char *error, size_t error_size);

/// Parses an XMP packet on its own (JPEG XL's Brotli-compressed `xml ` box): the result
/// holds no EXIF, and its `pm_exiv2_xmp_packet` is the packet written out again.
pm_exiv2_metadata *pm_exiv2_read_xmp(const uint8_t *bytes, size_t count, char *error, size_t error_size);

void pm_exiv2_free(pm_exiv2_metadata *metadata);

/// The pixel size exiv2 found in the image's own header (0 when it has none).
void pm_exiv2_pixel_size(const pm_exiv2_metadata *metadata, int64_t *width, int64_t *height);

/// How many EXIF entries exiv2 read.
int64_t pm_exiv2_exif_count(const pm_exiv2_metadata *metadata);

/// The MIME type exiv2 gave the container ("image/jpeg", "image/x-canon-crw"; "" for a bare
/// EXIF block), as a C string that lives as long as `metadata`.
const char *pm_exiv2_mime_type(const pm_exiv2_metadata *metadata);

/// An ASCII or UNDEFINED EXIF value (`key` as exiv2 names it: "Exif.Image.Make") as stored,
/// up to its first NUL. Returns its length (copying at most `size` - 1 bytes and a NUL),
/// or -1 when the key is absent or of another type.
int64_t pm_exiv2_exif_text(const pm_exiv2_metadata *metadata, const char *key, char *out, size_t size);

/// An EXIF value's bytes as stored (an undecoded maker note, say), at most `size`. Returns
/// its full size, or -1 when the key is absent.
int64_t pm_exiv2_exif_bytes(const pm_exiv2_metadata *metadata, const char *key, uint8_t *out, size_t size);

/// The numeric components of an EXIF value (integers, rationals, floats), at most `max`.
/// Returns how many there are, or -1 when the key is absent, not numeric, or a rational
/// has a zero denominator.
int64_t pm_exiv2_exif_numbers(const pm_exiv2_metadata *metadata, const char *key, double *out, int64_t max);

/// An EXIF value as exiv2 interprets it for people (its print conversion: a maker note's
/// ISO index as "400"). Length as `pm_exiv2_exif_text`.
int64_t pm_exiv2_exif_interpreted(const pm_exiv2_metadata *metadata, const char *key, char *out, size_t size);

/// Which of exiv2's "easy access" look-ups (easyaccess.hpp): each knows the tags, maker
/// notes' included, where cameras keep one value, in exiv2's order of preference.
typedef enum {
    PM_EXIV2_ISO_SPEED = 0,
    PM_EXIV2_DATE_TIME_ORIGINAL,
    PM_EXIV2_EXPOSURE_TIME,
    PM_EXIV2_F_NUMBER,
    PM_EXIV2_FOCAL_LENGTH,
    PM_EXIV2_LENS_NAME,
    PM_EXIV2_ORIENTATION,
    PM_EXIV2_MAKE,
    PM_EXIV2_MODEL,
} pm_exiv2_easy;

/// The key of the value an easy-access look-up chose ("Exif.CanonCs.ISOSpeed"), length as
/// `pm_exiv2_exif_text`; -1 when it found none.
int64_t pm_exiv2_easy_key(const pm_exiv2_metadata *metadata, pm_exiv2_easy which, char *out, size_t size);

/// The file's XMP as exiv2's XMP toolkit parsed it, serialized again (well-formed UTF-8),
/// or NULL when the file has none or the toolkit could not parse it; `length` gets its
/// size. Lives as long as `metadata`.
const char *pm_exiv2_xmp_packet(const pm_exiv2_metadata *metadata, size_t *length);

/// exiv2's run-time version ("0.27.6").
const char *pm_exiv2_version(void);

#ifdef __cplusplus
}
#endif

#endif
