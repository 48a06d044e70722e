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

#ifndef PHOTOMILL_CLIBRAW_SHIM_H
#define PHOTOMILL_CLIBRAW_SHIM_H
// LibRaw's C API, thread-safe build (libraw_r): each worker slot thread owns its own
// libraw_data_t.
#include <libraw/libraw.h>

/// What LibRaw's data-error callback reported while one handle decoded: how many reports,
/// and the first one's byte offset (-1: the data ended early).
typedef struct {
    int count;
    int first_offset;
} pm_libraw_data_errors;

static inline void pm_libraw_record_data_error(void *context, const char *file, const int offset) {
    pm_libraw_data_errors *errors = (pm_libraw_data_errors *)context;
    if (errors->count++ == 0) errors->first_offset = offset;
}

static inline void pm_libraw_ignore_memory_error(void *context, const char *file, const char *where) {}

/// Replaces LibRaw's default callbacks, which print "data corrupted at …" and "out of
/// memory in …" to stderr (stderr belongs to the CLI), with ones that record the data
/// errors in `errors` and drop the memory reports (the failing call returns an error
/// code anyway). Function pointers to C functions, so Swift passes no closure.
static inline void pm_libraw_quiet(libraw_data_t *raw, pm_libraw_data_errors *errors) {
    libraw_set_dataerror_handler(raw, pm_libraw_record_data_error, errors);
    libraw_set_memerror_handler(raw, pm_libraw_ignore_memory_error, NULL);
}

/// The pixels of a processed image: `data` is a C flexible array member, which Swift
/// imports as a one-element tuple.
static inline const unsigned char *pm_libraw_image_data(const libraw_processed_image_t *image) {
    return image->data;
}
#endif
