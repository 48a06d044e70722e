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
import Foundation

/// Process-wide FFmpeg state and the words for its failures.
enum FFmpeg {
    private static let logCaptured: Void = { pm_ffmpeg_capture_log() }()

    /// Routes FFmpeg's log away from stderr (which belongs to the CLI) into the per-thread
    /// slot `takeLoggedError()` reads. Idempotent; call before any other FFmpeg call.
    static func setUp() { _ = logCaptured }

    /// The last error FFmpeg logged on this thread since the previous call ("moov atom not
    /// found"), or nil. Call it before an operation to forget older lines, and after a
    /// failed one for its cause: FFmpeg often logs a better reason than it returns.
    static func takeLoggedError() -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        pm_ffmpeg_take_logged_error(&buffer, buffer.count)
        let text = string(buffer).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// av_strerror's text for a negative FFmpeg return code.
    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return string(buffer)
    }

    /// The NUL-terminated text a C function wrote into `buffer`.
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The cause of failure `code`: what FFmpeg logged and what the code says, e.g.
    /// "moov atom not found (Invalid data found when processing input)".
    static func cause(of code: Int32) -> String {
        let described = describe(code)
        guard let logged = takeLoggedError(), logged != described else { return described }
        return "\(logged) (\(described))"
    }

    static let endOfFile = pm_averror_eof()
    /// What the interrupt and read callbacks return once the deadline has passed.
    static let exit = pm_averror_exit()
    static let tryAgain = pm_averror_eagain()
    static let invalidArgument = pm_averror_einval()
    static let invalidData = pm_averror_invaliddata()
    static let noTimestamp = pm_av_nopts_value()
}
