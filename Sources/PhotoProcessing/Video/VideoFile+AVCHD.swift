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

import CFFmpeg

extension VideoFile {
    /// The MDPM of an AVCHD stream (`AVCHDMetadata`): the first SEI that carries it, in the
    /// first packets of the H.264 stream (Panasonic cameras put it in the second frame, so
    /// up to 16 packets are read). The demuxer is put back at the start afterwards, for
    /// the poster frame. Nil for other codecs, and when none of those packets has one.
    func avchdMetadata() -> AVCHDMetadata? {
        guard stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_H264, let packet = av_packet_alloc() else {
            return nil
        }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer {
            av_packet_free(&packetPointer)
            _ = av_seek_frame(format, -1, 0, AVSEEK_FLAG_BYTE)
            avformat_flush(format)
        }
        var read = 0
        while read < 64, !input.isPastDeadline, av_read_frame(format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index, let data = packet.pointee.data else { continue }
            read += 1
            if let found = AVCHDMetadata(annexB: UnsafeRawBufferPointer(start: data, count: Int(packet.pointee.size))) {
                return found
            }
            if read >= 16 { break }
        }
        return nil
    }
}
