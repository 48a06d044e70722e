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

#ifndef PHOTOMILL_CVIPS_SHIM_H
#define PHOTOMILL_CVIPS_SHIM_H
#include <vips/vips.h>

// libvips' operations are variadic (NULL-terminated option lists), which Swift cannot
// call. Each shim fixes the options photomill uses.

static inline void pm_vips_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {}

/// Initialises libvips. Its warnings ("error in tile 0 x 16") go nowhere: a damaged file
/// already fails its task with the error libvips reports, and stderr belongs to the CLI.
static inline int pm_vips_init(const char *argv0) {
    int status = VIPS_INIT(argv0);
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, pm_vips_ignore_log, NULL);
    return status;
}

/// Opens an image lazily: only the header is read until pixels are asked for.
static inline VipsImage *pm_vips_header(const void *buf, size_t len) {
    return vips_image_new_from_buffer(buf, len, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

/// Opens an image to decode in full, failing on truncated or damaged data like
/// pm_vips_thumbnail: for a picture whose colours photomill converts itself.
static inline VipsImage *pm_vips_load(const void *buf, size_t len) {
    return vips_image_new_from_buffer(buf, len, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

/// Shrink-on-load thumbnail: never upscales, applies EXIF orientation, imports any
/// embedded profile and exports sRGB, and fails on truncated or corrupt data.
///
/// libvips 8.14.1 does not hand thumbnail_buffer's own `fail_on` to the loader (the
/// file variant does), so the truncated-data check travels in the loader's option string.
static inline int pm_vips_thumbnail(void *buf, size_t len, VipsImage **out, int size) {
    return vips_thumbnail_buffer(buf, len, out, size,
                                 "height", size,
                                 "size", VIPS_SIZE_DOWN,
                                 "option_string", "fail_on=error",
                                 NULL);
}

/// Like pm_vips_thumbnail, for an image whose orientation the caller applies itself (a
/// RAW's embedded preview, whose own EXIF may not be the RAW's).
static inline int pm_vips_thumbnail_norotate(void *buf, size_t len, VipsImage **out, int size) {
    return vips_thumbnail_buffer(buf, len, out, size,
                                 "height", size,
                                 "size", VIPS_SIZE_DOWN,
                                 "no_rotate", TRUE,
                                 "option_string", "fail_on=error",
                                 NULL);
}

/// Shrinks an image already in memory (decoded RAW or video pixels) to at most `size` on
/// its longest side; never upscales.
static inline int pm_vips_thumbnail_image(VipsImage *in, VipsImage **out, int size) {
    return vips_thumbnail_image(in, out, size, "height", size, "size", VIPS_SIZE_DOWN,
                                "no_rotate", TRUE, NULL);
}

/// Shrinks to exactly `width` × `height` with the same colour handling as
/// pm_vips_thumbnail: what a HEIF grid decoded tile by tile is finished with, so that it
/// comes out the size and colours libvips' own thumbnail of the whole file has.
static inline int pm_vips_thumbnail_image_exact(VipsImage *in, VipsImage **out, int width, int height) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE,
                                "no_rotate", TRUE, NULL);
}

/// Resizes by `hscale` × `vscale` (a reduction: block averaging, then lanczos3) with no
/// colour handling at all: for pixels whose colours photomill converts itself (HDR, wide
/// gamut), which vips_thumbnail_image would take for sRGB.
static inline int pm_vips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

/// `a` × each sample + `b`.
static inline int pm_vips_linear1(VipsImage *in, VipsImage **out, double a, double b) {
    return vips_linear1(in, out, a, b, NULL);
}

/// Joins `n` images edge to edge, `across` to a row.
static inline int pm_vips_arrayjoin(VipsImage **in, int n, VipsImage **out, int across) {
    return vips_arrayjoin(in, out, n, "across", across, NULL);
}

/// Averages each `factor` × `factor` block into one pixel.
static inline int pm_vips_shrink(VipsImage *in, VipsImage **out, int factor) {
    return vips_shrink(in, out, (double) factor, (double) factor, NULL);
}

/// The same pixels, read as `interpretation` (e.g. rgb16 for 16-bit RGB in C memory).
static inline int pm_vips_interpret(VipsImage *in, VipsImage **out, VipsInterpretation interpretation) {
    return vips_copy(in, out, "interpretation", interpretation, NULL);
}

static inline int pm_vips_extract_bands(VipsImage *in, VipsImage **out, int first, int n) {
    return vips_extract_band(in, out, first, "n", n, NULL);
}

static inline int pm_vips_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_crop(in, out, left, top, width, height, NULL);
}

/// Applies EXIF orientation `orientation` (1…8) to the pixels: the result is upright.
static inline int pm_vips_orient(VipsImage *in, VipsImage **out, int orientation) {
    VipsImage *copy = NULL;
    if (vips_copy(in, &copy, NULL)) return -1;
    vips_image_set_int(copy, VIPS_META_ORIENTATION, orientation);
    int status = vips_autorot(copy, out, NULL);
    g_object_unref(copy);
    return status;
}

static inline int pm_vips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space) {
    return vips_colourspace(in, out, space, NULL);
}

static inline int pm_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[1] = {255.0};
    VipsArrayDouble *background = vips_array_double_new(white, 1);
    int status = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return status;
}

static inline int pm_vips_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

static inline int pm_vips_cast_ushort(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_USHORT, NULL);
}

static inline int pm_vips_jpegsave(VipsImage *in, void **buf, size_t *len, int quality, int strip) {
    return vips_jpegsave_buffer(in, buf, len, "Q", quality, "strip", strip, NULL);
}

static inline int pm_vips_pngsave(VipsImage *in, void **buf, size_t *len) {
    return vips_pngsave_buffer(in, buf, len, NULL);
}

static inline int pm_vips_tiffsave(VipsImage *in, void **buf, size_t *len) {
    return vips_tiffsave_buffer(in, buf, len, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE, NULL);
}

/// Renders text as a one-band antialiased mask (255 = ink).
static inline int pm_vips_text(VipsImage **out, const char *text, const char *font, int width, int dpi) {
    return vips_text(out, text, "font", font, "width", width, "dpi", dpi, NULL);
}

static inline int pm_vips_gaussblur(VipsImage *in, VipsImage **out, double sigma) {
    return vips_gaussblur(in, out, sigma, NULL);
}

static inline void pm_g_object_unref(void *object) { g_object_unref(object); }
static inline void pm_g_free(void *p) { g_free(p); }
#endif
