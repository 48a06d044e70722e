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

#ifndef PHOTOMILL_CFFMPEG_SHIM_H
#define PHOTOMILL_CFFMPEG_SHIM_H
// FFmpeg 5.1's demuxers, decoders and scaler.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>

// FFmpeg's error codes and "no timestamp" are macros built from other macros (FFERRTAG,
// AVERROR(e), UINT64_C), which Swift does not import.
static inline int pm_averror_eof(void) { return AVERROR_EOF; }
static inline int pm_averror_exit(void) { return AVERROR_EXIT; }
static inline int pm_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int pm_averror_einval(void) { return AVERROR(EINVAL); }
static inline int pm_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t pm_av_nopts_value(void) { return AV_NOPTS_VALUE; }

// FFmpeg logs to stderr from any thread, and the most useful part of a failure is often
// only logged: avformat_open_input returns "Invalid data found when processing input" and
// logs "moov atom not found". This callback replaces the default one, so nothing reaches
// stderr, and keeps the last error-level line of each thread (photomill decodes one file
// per thread, with one decoding thread), where the failed call's caller takes it.
//
// The slot is a static inside an inline function (Swift emits a header's functions, not
// its variables): each object file that emits them has its own copy, so install the
// callback and take the message from the same Swift file (Video/FFmpeg.swift).
enum { PM_FFMPEG_ERROR_SIZE = 512 };

static inline char *pm_ffmpeg_error_slot(void) {
    static _Thread_local char slot[PM_FFMPEG_ERROR_SIZE];
    return slot;
}

static inline void pm_ffmpeg_log(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    if (level > AV_LOG_ERROR) return;
    vsnprintf(pm_ffmpeg_error_slot(), PM_FFMPEG_ERROR_SIZE, format, arguments);
}

static inline void pm_ffmpeg_capture_log(void) {
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(pm_ffmpeg_log);
}

/// Copies this thread's last logged error into `out` (empty when there was none) and
/// forgets it.
static inline void pm_ffmpeg_take_logged_error(char *out, size_t size) {
    if (size == 0) return;
    char *slot = pm_ffmpeg_error_slot();
    strncpy(out, slot, size - 1);
    out[size - 1] = 0;
    slot[0] = 0;
}

/// Scales (and converts) a decoded frame into one packed plane, e.g. RGB24. sws_scale takes
/// the planes as arrays, which AVFrame holds in fixed-size arrays Swift sees as tuples.
static inline int pm_sws_scale_to_packed(struct SwsContext *context, const AVFrame *frame,
                                         uint8_t *destination, int stride) {
    uint8_t *planes[4] = {destination, NULL, NULL, NULL};
    int strides[4] = {stride, 0, 0, 0};
    return sws_scale(context, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height,
                     planes, strides);
}
#endif
