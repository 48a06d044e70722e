#ifndef PHOTOMILL_CFFMPEG_SHIM_H
#define PHOTOMILL_CFFMPEG_SHIM_H
// FFmpeg 5.1's demuxers, decoders and scaler.
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#endif
