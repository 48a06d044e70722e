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

#ifndef PHOTOMILL_CEXIF_SHIM_H
#define PHOTOMILL_CEXIF_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <libexif/exif-data.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-content.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-format.h>

/// Loads EXIF from a JPEG file or an "Exif\0\0"-prefixed blob, keeping what the file
/// says: FOLLOW_SPECIFICATION would invent default entries (an Orientation the file never
/// had), and IGNORE_UNKNOWN_TAGS would drop tags libexif's table lacks (OffsetTime*).
static inline ExifData *pm_exif_load(const unsigned char *data, unsigned int size) {
    ExifData *d = exif_data_new();
    if (!d) return NULL;
    exif_data_unset_option(d, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(d, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_set_option(d, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE);
    exif_data_load_data(d, data, size);
    return d;
}

static inline ExifEntry *pm_exif_get(ExifData *d, ExifIfd ifd, unsigned int tag) {
    if (!d || ifd >= EXIF_IFD_COUNT) return NULL;
    return exif_content_get_entry(d->ifd[ifd], (ExifTag)tag);
}

/// Adds an entry of the given format with zeroed storage and returns it (owned by `d`).
/// exif_entry_new allocates with libexif's default allocator (calloc/free), so the data
/// buffer is allocated with calloc to match.
static inline ExifEntry *pm_exif_add(ExifData *d, ExifIfd ifd, unsigned int tag,
                                     ExifFormat format, unsigned long components) {
    ExifEntry *e = exif_entry_new();
    if (!e) return NULL;
    size_t size = (size_t)exif_format_get_size(format) * components;
    e->data = calloc(size ? size : 1, 1);
    if (!e->data) { exif_entry_unref(e); return NULL; }
    e->tag = (ExifTag)tag;
    e->format = format;
    e->components = components;
    e->size = (unsigned int)size;
    exif_content_add_entry(d->ifd[ifd], e);
    exif_entry_unref(e);
    return e;
}

/// Serialises to an "Exif\0\0"-prefixed APP1 payload; free the result with free().
static inline unsigned char *pm_exif_save(ExifData *d, unsigned int *size) {
    unsigned char *out = NULL;
    *size = 0;
    exif_data_save_data(d, &out, size);
    return out;
}
#endif
