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

/*
 * libexif-probe: reads the fields photomill reads, the way photomill reads them today
 * (Sources/CExif/shim.h pm_exif_load + PhotoProcessing/Metadata/{ExifReader,MetadataReader}.swift),
 * and prints one JSON object per file.
 *
 * Containers, as photomill's MetadataReader does:
 *   - JPEG (FF D8 FF): the whole file goes to libexif, which finds APP1 itself.
 *   - TIFF magic (II*\0 / MM\0*): "Exif\0\0" + file, as ExifReader does (TIFF, CR2, NEF, DNG).
 *   - HEIF/ftyp and PNG: photomill takes libvips' "exif-data" blob. This probe does not link
 *     libvips; it extracts the same blob itself (ISOBMFF Exif item minus its 4-byte offset
 *     prefix, as libvips' heifload hands it over; PNG eXIf chunk) with bounds-checked code
 *     below, then treats the blob as ExifReader does.
 *   - anything else (RW2 "IIU", RAF, ...): photomill's sniffer gives no format, so no EXIF.
 *
 * Usage: libexif-probe [--repeat N] [--mark] FILE...
 *   --repeat N  load every file into memory first, then parse all of them N times, timing
 *               only the parsing + field extraction; prints the JSON of the last round and a
 *               {"timing":...} line on stderr.
 *   --mark      print "@@FILE <path>" on stderr before each file (to attribute valgrind reports).
 *   --parse-only  load the EXIF and free it, no field extraction (speed breakdown).
 */
#define _POSIX_C_SOURCE 200809L
#include <libexif/exif-data.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-content.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-format.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- copied from Sources/CExif/shim.h (pm_exif_load, pm_exif_get) ---- */
static ExifData *pm_exif_load(const unsigned char *data, unsigned int size) {
    ExifData *d = exif_data_new();
    if (!d) return NULL;
    exif_data_unset_option(d, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(d, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_set_option(d, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE);
    exif_data_load_data(d, data, size);
    return d;
}
static ExifEntry *pm_exif_get(ExifData *d, ExifIfd ifd, unsigned int tag) {
    if (!d || ifd >= EXIF_IFD_COUNT) return NULL;
    return exif_content_get_entry(d->ifd[ifd], (ExifTag)tag);
}

/* ---- result ---- */
#define STR_MAX 256
typedef struct {
    const char *status;    /* "ok", "no-exif", "error" */
    const char *container; /* jpeg, tiff, heif, png, none */
    char error[128];
    int has_make, has_model, has_lens, has_date, has_orientation, has_gps;
    int has_fnumber, has_exposure, has_iso, has_focal;
    char make[STR_MAX], model[STR_MAX], lens[STR_MAX], date[64];
    int orientation;
    double lat, lon, fnumber, exposure, focal;
    long iso;
} Result;

/* ---- ExifReader.swift ---- */
static ExifEntry *entry_checked(ExifData *d, ExifIfd ifd, unsigned tag) {
    ExifEntry *e = pm_exif_get(d, ifd, tag);
    if (!e || !e->data) return NULL;
    size_t needed = (size_t)exif_format_get_size(e->format) * e->components;
    if (needed == 0 || e->size < needed) return NULL;
    return e;
}

static int is_trim_char(unsigned char c) { return c <= 0x20 || c == 0x7f; }

/* ASCII or UNDEFINED, up to the first NUL, trimmed of whitespace/newlines/control chars. */
static int read_string(ExifData *d, ExifIfd ifd, unsigned tag, char *out, size_t cap) {
    ExifEntry *e = entry_checked(d, ifd, tag);
    if (!e || (e->format != EXIF_FORMAT_ASCII && e->format != EXIF_FORMAT_UNDEFINED)) return 0;
    size_t n = 0;
    while (n < e->size && e->data[n] != 0) n++;
    size_t a = 0, b = n;
    while (a < b && is_trim_char(e->data[a])) a++;
    while (b > a && is_trim_char(e->data[b - 1])) b--;
    if (b == a) return 0;
    size_t len = b - a < cap - 1 ? b - a : cap - 1;
    memcpy(out, e->data + a, len);
    out[len] = 0;
    return 1;
}

/* Numeric components as doubles; a zero denominator voids the entry. Returns count (max cap). */
static int read_numbers(ExifData *d, ExifIfd ifd, unsigned tag, double *out, int cap) {
    ExifEntry *e = entry_checked(d, ifd, tag);
    if (!e) return 0;
    ExifByteOrder order = exif_data_get_byte_order(d);
    int size = exif_format_get_size(e->format), count = 0;
    for (unsigned long i = 0; i < e->components; i++) {
        const unsigned char *p = e->data + i * size;
        double v;
        switch (e->format) {
        case EXIF_FORMAT_BYTE: v = p[0]; break;
        case EXIF_FORMAT_SHORT: v = exif_get_short(p, order); break;
        case EXIF_FORMAT_SSHORT: v = exif_get_sshort(p, order); break;
        case EXIF_FORMAT_LONG: v = exif_get_long(p, order); break;
        case EXIF_FORMAT_SLONG: v = exif_get_slong(p, order); break;
        case EXIF_FORMAT_RATIONAL: {
            ExifRational r = exif_get_rational(p, order);
            if (r.denominator == 0) return 0;
            v = (double)r.numerator / r.denominator;
            break;
        }
        case EXIF_FORMAT_SRATIONAL: {
            ExifSRational r = exif_get_srational(p, order);
            if (r.denominator == 0) return 0;
            v = (double)r.numerator / r.denominator;
            break;
        }
        default: return 0;
        }
        if (count < cap) out[count++] = v;
    }
    return count;
}

static int read_number(ExifData *d, ExifIfd ifd, unsigned tag, double *out) {
    double v[1];
    if (read_numbers(d, ifd, tag, v, 1) < 1) return 0;
    *out = v[0];
    return 1;
}

static int positive(double v) { return isfinite(v) && v > 0; }

/* ExifDate.iso8601(fromExif:) */
static int exif_date(const char *raw, char *out) {
    int dg[14], n = 0;
    for (const char *p = raw; *p && n < 14; p++)
        if (*p >= '0' && *p <= '9') dg[n++] = *p - '0';
    if (n < 14) return 0;
#define NUM(a, b) ({ int _v = 0; for (int _i = (a); _i < (b); _i++) _v = _v * 10 + dg[_i]; _v; })
    int y = NUM(0, 4), mo = NUM(4, 6), d = NUM(6, 8), h = NUM(8, 10), mi = NUM(10, 12), s = NUM(12, 14);
#undef NUM
    if (y < 1800 || y > 2999 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return 0;
    snprintf(out, 48, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s);
    return 1;
}

/* ExifDate.offset(fromExif:) : "+hh:mm" */
static int exif_offset(const char *raw, char *out) {
    size_t a = 0, b = strlen(raw);
    while (a < b && (raw[a] == ' ' || raw[a] == '\t')) a++;
    while (b > a && (raw[b - 1] == ' ' || raw[b - 1] == '\t')) b--;
    const char *t = raw + a;
    if (b - a != 6 || (t[0] != '+' && t[0] != '-') || t[3] != ':') return 0;
    for (int i = 1; i < 6; i++) if (i != 3 && (t[i] < '0' || t[i] > '9')) return 0;
    int hh = (t[1] - '0') * 10 + t[2] - '0', mm = (t[4] - '0') * 10 + t[5] - '0';
    if (hh > 14 || mm > 59) return 0;
    memcpy(out, t, 6);
    out[6] = 0;
    return 1;
}

static int coordinate(ExifData *d, unsigned tag, unsigned reftag, char negative, double limit, double *out) {
    double parts[3];
    ExifEntry *e = entry_checked(d, EXIF_IFD_GPS, tag);
    int n = read_numbers(d, EXIF_IFD_GPS, tag, parts, 3);
    if (n < 1 || !e) return 0;
    /* all components must be >= 0 (Swift checks every component, not just the first three) */
    double all[64];
    int m = read_numbers(d, EXIF_IFD_GPS, tag, all, 64);
    for (int i = 0; i < m; i++) if (!(all[i] >= 0)) return 0;
    double deg = parts[0] + (n > 1 ? parts[1] : 0) / 60 + (n > 2 ? parts[2] : 0) / 3600;
    if (!(deg <= limit)) return 0;
    char ref[STR_MAX];
    if (read_string(d, EXIF_IFD_GPS, reftag, ref, sizeof ref) && ref[1] == 0 &&
        (ref[0] == negative || ref[0] == negative + 32))
        deg = -deg;
    *out = deg;
    return 1;
}

static void fill(ExifData *d, Result *r) {
    r->has_make = read_string(d, EXIF_IFD_0, 0x010F, r->make, STR_MAX);
    r->has_model = read_string(d, EXIF_IFD_0, 0x0110, r->model, STR_MAX);
    r->has_lens = read_string(d, EXIF_IFD_EXIF, 0xA434, r->lens, STR_MAX);
    double v;
    if (read_number(d, EXIF_IFD_0, 0x0112, &v) && v == floor(v) && v >= 1 && v <= 8) {
        r->has_orientation = 1;
        r->orientation = (int)v;
    }
    static const unsigned dates[3][3] = {
        {EXIF_IFD_EXIF, 0x9003, 0x9011}, {EXIF_IFD_EXIF, 0x9004, 0x9012}, {EXIF_IFD_0, 0x0132, 0x9010}};
    for (int i = 0; i < 3 && !r->has_date; i++) {
        char raw[STR_MAX], iso[48], off[8], offraw[STR_MAX];
        if (!read_string(d, (ExifIfd)dates[i][0], dates[i][1], raw, sizeof raw) || !exif_date(raw, iso)) continue;
        snprintf(r->date, sizeof r->date, "%s", iso);
        if (read_string(d, EXIF_IFD_EXIF, dates[i][2], offraw, sizeof offraw) && exif_offset(offraw, off))
            strcat(r->date, off);
        r->has_date = 1;
    }
    if (read_number(d, EXIF_IFD_EXIF, 0x829D, &v) && positive(v)) { r->has_fnumber = 1; r->fnumber = v; }
    else if (read_number(d, EXIF_IFD_EXIF, 0x9202, &v) && positive(pow(2, v / 2))) { r->has_fnumber = 1; r->fnumber = pow(2, v / 2); }
    if (read_number(d, EXIF_IFD_EXIF, 0x829A, &v) && positive(v)) { r->has_exposure = 1; r->exposure = v; }
    else if (read_number(d, EXIF_IFD_EXIF, 0x9201, &v) && positive(pow(2, -v))) { r->has_exposure = 1; r->exposure = pow(2, -v); }
    if (read_number(d, EXIF_IFD_EXIF, 0x8827, &v) && positive(v) && v >= 1 && v < 9.2e18) { r->has_iso = 1; r->iso = (long)v; }
    if (read_number(d, EXIF_IFD_EXIF, 0x920A, &v) && positive(v)) { r->has_focal = 1; r->focal = v; }
    double lat, lon;
    if (coordinate(d, 0x0002, 0x0001, 'S', 90, &lat) && coordinate(d, 0x0004, 0x0003, 'W', 180, &lon)) {
        r->has_gps = 1; r->lat = lat; r->lon = lon;
    }
}

/* ExifReader.init?(bytes:) + fill; returns 1 when EXIF was found. */
static int parse_only = 0; /* --parse-only: load + unref, no field extraction */

static void read_exif(const unsigned char *bytes, size_t size, Result *r) {
    if (size <= 6 || size > UINT32_MAX - 6) { r->status = "no-exif"; return; }
    int tiff = (bytes[0] == 0x49 && bytes[1] == 0x49 && bytes[2] == 0x2A && bytes[3] == 0) ||
               (bytes[0] == 0x4D && bytes[1] == 0x4D && bytes[2] == 0 && bytes[3] == 0x2A);
    ExifData *d;
    if (tiff) {
        unsigned char *prefixed = malloc(size + 6);
        if (!prefixed) { r->status = "error"; snprintf(r->error, sizeof r->error, "out of memory"); return; }
        memcpy(prefixed, "Exif\0\0", 6);
        memcpy(prefixed + 6, bytes, size);
        d = pm_exif_load(prefixed, (unsigned)(size + 6));
        free(prefixed);
    } else {
        d = pm_exif_load(bytes, (unsigned)size);
    }
    if (!d) { r->status = "error"; snprintf(r->error, sizeof r->error, "exif_data_new failed"); return; }
    int empty = 1;
    for (int i = 0; i < EXIF_IFD_COUNT; i++) if (d->ifd[i] && d->ifd[i]->count) empty = 0;
    if (empty) { r->status = "no-exif"; exif_data_unref(d); return; }
    r->status = "ok";
    if (!parse_only) fill(d, r);
    exif_data_unref(d);
}

/* ---- stand-ins for libvips' "exif-data" (HEIF Exif item, PNG eXIf) ---- */
static uint32_t be32(const unsigned char *p) { return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }
static uint16_t be16(const unsigned char *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint64_t beN(const unsigned char *p, int n) { uint64_t v = 0; for (int i = 0; i < n; i++) v = v << 8 | p[i]; return v; }

/* Finds a child box of [start,end); returns its payload range. */
static int find_box(const unsigned char *b, size_t start, size_t end, const char *type, size_t *ps, size_t *pe) {
    size_t off = start;
    while (off + 8 <= end) {
        uint64_t len = be32(b + off);
        size_t hdr = 8;
        if (len == 1) { if (off + 16 > end) return 0; len = beN(b + off + 8, 8); hdr = 16; }
        else if (len == 0) len = end - off;
        if (len < hdr || len > end - off) return 0;
        if (memcmp(b + off + 4, type, 4) == 0) { *ps = off + hdr; *pe = off + len; return 1; }
        off += len;
    }
    return 0;
}

static int heif_exif(const unsigned char *b, size_t size, const unsigned char **out, size_t *outlen) {
    size_t ms, me, is, ie, ls, le;
    if (!find_box(b, 0, size, "meta", &ms, &me) || me - ms < 4) return 0;
    ms += 4; /* FullBox version/flags */
    if (!find_box(b, ms, me, "iinf", &is, &ie) || ie - is < 6) return 0;
    int iv = b[is];
    size_t p = is + 4;
    uint32_t count = iv == 0 ? be16(b + p) : (ie - p >= 4 ? be32(b + p) : 0);
    p += iv == 0 ? 2 : 4;
    uint32_t exif_id = 0;
    int found = 0;
    for (uint32_t i = 0; i < count && p + 8 <= ie; i++) {
        size_t es, ee;
        if (!find_box(b, p, ie, "infe", &es, &ee)) break;
        if (ee - es >= 4) {
            int v = b[es];
            size_t q = es + 4;
            if (v >= 2 && ee - q >= (v == 2 ? 8u : 10u)) {
                uint32_t id = v == 2 ? be16(b + q) : be32(b + q);
                q += v == 2 ? 2 : 4;
                q += 2; /* protection index */
                if (memcmp(b + q, "Exif", 4) == 0) { exif_id = id; found = 1; break; }
            }
        }
        p = ee;
    }
    if (!found || !find_box(b, ms, me, "iloc", &ls, &le) || le - ls < 8) return 0;
    int v = b[ls];
    size_t q = ls + 4;
    int off_size = b[q] >> 4, len_size = b[q] & 15, base_size = b[q + 1] >> 4, idx_size = v >= 1 ? b[q + 1] & 15 : 0;
    q += 2;
    uint32_t items;
    if (v < 2) { if (le - q < 2) return 0; items = be16(b + q); q += 2; }
    else { if (le - q < 4) return 0; items = be32(b + q); q += 4; }
    for (uint32_t i = 0; i < items; i++) {
        uint32_t id;
        if (v < 2) { if (le - q < 2) return 0; id = be16(b + q); q += 2; }
        else { if (le - q < 4) return 0; id = be32(b + q); q += 4; }
        int method = 0;
        if (v >= 1) { if (le - q < 2) return 0; method = be16(b + q) & 15; q += 2; }
        if (le - q < 2u + base_size + 2) return 0;
        q += 2; /* data reference index */
        uint64_t base = beN(b + q, base_size); q += base_size;
        uint16_t extents = be16(b + q); q += 2;
        for (uint16_t e = 0; e < extents; e++) {
            if (le - q < (size_t)idx_size + off_size + len_size) return 0;
            q += idx_size;
            uint64_t eo = beN(b + q, off_size); q += off_size;
            uint64_t el = beN(b + q, len_size); q += len_size;
            if (id == exif_id && e == 0) {
                if (method != 0) return 0;
                uint64_t start = base + eo;
                if (el == 0) el = size > start ? size - start : 0;
                if (start > size || el > size - start || el <= 4) return 0;
                /* libvips' heifload drops the 4-byte TIFF-header offset, nothing more */
                *out = b + start + 4;
                *outlen = el - 4;
                return 1;
            }
        }
    }
    return 0;
}

static int png_exif(const unsigned char *b, size_t size, const unsigned char **out, size_t *outlen) {
    size_t off = 8;
    while (off + 12 <= size) {
        uint32_t len = be32(b + off);
        if (len > size - off - 12) return 0;
        if (memcmp(b + off + 4, "eXIf", 4) == 0) { *out = b + off + 8; *outlen = len; return 1; }
        if (memcmp(b + off + 4, "IEND", 4) == 0) return 0;
        off += 12 + (size_t)len;
    }
    return 0;
}

static void probe(const unsigned char *b, size_t size, Result *r) {
    memset(r, 0, sizeof *r);
    r->status = "no-exif";
    r->container = "none";
    if (size >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) { r->container = "jpeg"; read_exif(b, size, r); }
    else if (size >= 4 && ((b[0] == 0x49 && b[1] == 0x49 && b[2] == 0x2A && b[3] == 0) ||
                           (b[0] == 0x4D && b[1] == 0x4D && b[2] == 0 && b[3] == 0x2A))) {
        r->container = "tiff"; read_exif(b, size, r);
    } else if (size >= 8 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0) {
        const unsigned char *blob; size_t n;
        r->container = "png";
        if (png_exif(b, size, &blob, &n)) read_exif(blob, n, r);
    } else if (size >= 8 && memcmp(b + 4, "ftyp", 4) == 0) {
        const unsigned char *blob; size_t n;
        r->container = "heif";
        if (heif_exif(b, size, &blob, &n)) read_exif(blob, n, r);
    }
}

/* ---- output ---- */
static void json_str(FILE *f, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (*p) {
        unsigned c = *p;
        int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        int ok = n > 0;
        for (int i = 1; ok && i < n; i++) ok = (p[i] & 0xC0) == 0x80;
        if (!ok) { fputs("\\ufffd", f); p++; continue; }
        if (n > 1) { fwrite(p, 1, n, f); p += n; continue; }
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
        p++;
    }
    fputc('"', f);
}

static void print_result(const char *path, const Result *r) {
    FILE *f = stdout;
    fputs("{\"file\":", f); json_str(f, path);
    fprintf(f, ",\"library\":\"libexif\",\"status\":\"%s\",\"container\":\"%s\"", r->status, r->container);
    if (r->error[0]) { fputs(",\"error\":", f); json_str(f, r->error); }
    fputs(",\"fields\":{", f);
    int first = 1;
#define SEP() do { if (!first) fputc(',', f); first = 0; } while (0)
    if (r->has_date) { SEP(); fputs("\"DateTimeOriginal\":", f); json_str(f, r->date); }
    if (r->has_make) { SEP(); fputs("\"Make\":", f); json_str(f, r->make); }
    if (r->has_model) { SEP(); fputs("\"Model\":", f); json_str(f, r->model); }
    if (r->has_lens) { SEP(); fputs("\"LensModel\":", f); json_str(f, r->lens); }
    if (r->has_orientation) { SEP(); fprintf(f, "\"Orientation\":%d", r->orientation); }
    if (r->has_gps) { SEP(); fprintf(f, "\"GPSLatitude\":%.10g,\"GPSLongitude\":%.10g", r->lat, r->lon); }
    if (r->has_fnumber) { SEP(); fprintf(f, "\"FNumber\":%.10g", r->fnumber); }
    if (r->has_exposure) { SEP(); fprintf(f, "\"ExposureTime\":%.10g", r->exposure); }
    if (r->has_iso) { SEP(); fprintf(f, "\"ISO\":%ld", r->iso); }
    if (r->has_focal) { SEP(); fprintf(f, "\"FocalLength\":%.10g", r->focal); }
#undef SEP
    fputs("},\"sources\":{}}\n", f);
}

static unsigned char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (n == cap) { cap *= 2; unsigned char *nb = realloc(buf, cap); if (!nb) { free(buf); fclose(f); return NULL; } buf = nb; }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    fclose(f);
    *size = n;
    return buf;
}

static double clock_s(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
static double now(void) { return clock_s(CLOCK_MONOTONIC); }
static double cpu_now(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

int main(int argc, char **argv) {
    long repeat = 0;
    int mark = 0, first = 1;
    while (first < argc && strncmp(argv[first], "--", 2) == 0) {
        if (strcmp(argv[first], "--repeat") == 0 && first + 1 < argc) { repeat = atol(argv[first + 1]); first += 2; }
        else if (strcmp(argv[first], "--mark") == 0) { mark = 1; first++; }
        else if (strcmp(argv[first], "--parse-only") == 0) { parse_only = 1; first++; }
        else if (strcmp(argv[first], "--") == 0) { first++; break; }
        else { fprintf(stderr, "unknown option %s\n", argv[first]); return 2; }
    }
    int nfiles = argc - first;
    if (repeat <= 0) {
        /* one file at a time: read, parse, print, free (what a worker does) */
        for (int i = first; i < argc; i++) {
            Result r;
            size_t size = 0;
            if (mark) { fprintf(stderr, "@@FILE %s\n", argv[i]); fflush(stderr); }
            unsigned char *b = slurp(argv[i], &size);
            if (!b) { memset(&r, 0, sizeof r); r.status = "error"; r.container = "none"; snprintf(r.error, sizeof r.error, "cannot read file"); }
            else probe(b, size, &r);
            print_result(argv[i], &r);
            fflush(stdout);
            free(b);
        }
        return 0;
    }
    unsigned char **bufs = calloc(nfiles, sizeof *bufs);
    size_t *sizes = calloc(nfiles, sizeof *sizes);
    Result *results = calloc(nfiles, sizeof *results);
    size_t bytes = 0;
    for (int i = 0; i < nfiles; i++) { bufs[i] = slurp(argv[first + i], &sizes[i]); bytes += sizes[i]; }
    double t0 = now(), c0 = cpu_now();
    for (long k = 0; k < repeat; k++)
        for (int i = 0; i < nfiles; i++)
            if (bufs[i]) probe(bufs[i], sizes[i], &results[i]);
    double t = now() - t0, c = cpu_now() - c0;
    for (int i = 0; i < nfiles; i++) print_result(argv[first + i], &results[i]);
    fprintf(stderr, "{\"timing\":{\"library\":\"libexif\",\"files\":%d,\"repeat\":%ld,\"bytes\":%zu,\"seconds\":%.6f,\"files_per_second\":%.1f,\"cpu_seconds\":%.6f,\"files_per_cpu_second\":%.1f}}\n",
            nfiles, repeat, bytes, t, nfiles * (double)repeat / t, c, nfiles * (double)repeat / c);
    return 0;
}
