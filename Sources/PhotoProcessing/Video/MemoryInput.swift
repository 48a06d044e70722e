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
import PhotomillCore

/// A video's bytes as FFmpeg's input: an `AVIOContext` whose read and seek callbacks walk
/// a buffer in memory (the file is mapped or came over the wire; FFmpeg never opens it),
/// and the deadline that both the callbacks and FFmpeg's interrupt callback check, so a
/// demuxer or a decoding loop that would run on forever stops instead.
///
/// The bytes must outlive it. One per `VideoFile`; not thread-safe.
final class MemoryInput {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    /// When every FFmpeg call reading through this input gives up (`AVERROR_EXIT`).
    var deadline: MonotonicInstant
    private(set) var context: UnsafeMutablePointer<AVIOContext>!

    /// FFmpeg's own read buffer; 64 KiB is avio's default size.
    private static let bufferSize = 64 * 1024

    init?(bytes: UnsafeRawBufferPointer, deadline: MonotonicInstant) {
        self.bytes = bytes
        self.deadline = deadline
        guard let buffer = av_malloc(Self.bufferSize)?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        guard
            let context = avio_alloc_context(
                buffer,
                Int32(Self.bufferSize),
                0,
                opaque,
                Self.readCallback,
                nil,
                Self.seekCallback
            )
        else {
            av_free(buffer)
            return nil
        }
        self.context = context
    }

    deinit {
        // avio may have replaced the buffer it was given; the current one is freed.
        av_freep(&context.pointee.buffer)
        var context: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&context)
    }

    var isPastDeadline: Bool { MonotonicInstant.now() >= deadline }

    /// The callback for `AVFormatContext.interrupt_callback`: FFmpeg's own loops
    /// (`avformat_find_stream_info`, some demuxers) poll it and stop when it says 1.
    var interruptCallback: AVIOInterruptCB {
        AVIOInterruptCB(callback: Self.interrupt, opaque: Unmanaged.passUnretained(self).toOpaque())
    }

    private func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        if isPastDeadline { return FFmpeg.exit }
        guard position < bytes.count else { return FFmpeg.endOfFile }
        let available = bytes.count - position
        let length = min(count, available)
        UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + position, byteCount: length)
        position += length
        return Int32(length)
    }

    /// `whence` is SEEK_SET, SEEK_CUR, SEEK_END or AVSEEK_SIZE (the size is asked, nothing
    /// moves), possibly with AVSEEK_FORCE, which means nothing for memory.
    ///
    /// A position past the end is allowed, as `lseek` allows it to FFmpeg's own file
    /// protocol, which is what `ffmpeg -i FILE` reads through: reading there gives the end
    /// of the file. Demuxers skip over elements whose sizes reach past the end of a file
    /// cut short (an MP4's `mdat`, a Matroska cluster or the Cues its SeekHead names);
    /// with the file protocol such a skip succeeds and the next read ends the data, and
    /// so it does here.
    private func seek(to offset: Int64, whence: Int32) -> Int64 {
        let whence = whence & ~Int32(AVSEEK_FORCE)
        if whence == AVSEEK_SIZE { return Int64(bytes.count) }
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = bytes.count
        default: return Int64(FFmpeg.invalidArgument)
        }
        let (target, overflow) = Int64(base).addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return Int64(FFmpeg.invalidArgument) }
        position = Int(target)
        return target
    }

    private static func input(_ opaque: UnsafeMutableRawPointer?) -> MemoryInput {
        Unmanaged<MemoryInput>.fromOpaque(opaque!).takeUnretainedValue()
    }

    private static let readCallback:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
            opaque,
            buffer,
            size in
            guard let buffer, size > 0 else { return FFmpeg.invalidArgument }
            return input(opaque).read(into: buffer, count: Int(size))
        }

    private static let seekCallback: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = {
        opaque,
        offset,
        whence in
        input(opaque).seek(to: offset, whence: whence)
    }

    private static let interrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
        input(opaque).isPastDeadline ? 1 : 0
    }
}
