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

import CLibRaw
import Foundation

/// A LibRaw call that failed: its return code and what `libraw_strerror` says of it.
/// `RawDecoder` turns it into a classified `ProcessingError` that names the file.
struct LibRawError: Error {
    let code: Int32
    /// What LibRaw's data-error callback said before the call failed, if anything
    /// ("the data ends early": LibRaw reports the end of the data, then fails with an
    /// I/O error).
    var detail: String?

    init(code: Int32, detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    /// LibRaw's own codes are negative; a positive one is an errno (`ENOMEM`, or `EINVAL`
    /// for a thumbnail under 64 bytes).
    var reason: String {
        let text = code > 0 ? String(cString: strerror(code)) : String(cString: libraw_strerror(code))
        return detail.map { "\(text): \($0)" } ?? text
    }

    /// A fatal error (`LIBRAW_FATAL_ERROR`: memory, data, I/O, too big) makes LibRaw
    /// recycle the handle: everything opened is forgotten, and the next call on it
    /// returns "out of order call". The thumbnail of a RAW whose data is cut short
    /// fails this way, so the handle must be reopened before the raw image is tried.
    var isFatal: Bool { code < -100_000 }

    var isTooBig: Bool {
        code == LIBRAW_TOO_BIG.rawValue || code == LIBRAW_UNSUFFICIENT_MEMORY.rawValue || code == ENOMEM
    }
    var isUnsupported: Bool { code == LIBRAW_FILE_UNSUPPORTED.rawValue || code == LIBRAW_NOT_IMPLEMENTED.rawValue }

    /// Throws unless `code` is `LIBRAW_SUCCESS`.
    static func check(_ code: Int32) throws(LibRawError) {
        guard code == LIBRAW_SUCCESS.rawValue else { throw LibRawError(code: code) }
    }
}
