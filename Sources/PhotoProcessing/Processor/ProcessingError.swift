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

import PhotomillCore

/// Why a kind of work failed for one photo: the class (stable, machine-readable; stored in
/// the catalog, it drives retries) and a message that names the file and the cause.
public struct ProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    public let errorClass: ErrorClass
    public let message: String

    public init(_ errorClass: ErrorClass, _ message: String) {
        self.errorClass = errorClass
        self.message = message
    }

    public var description: String { "\(errorClass): \(message)" }

    /// `too-large` when a picture of `width` × `height` has more than `limit` pixels: how
    /// every reader refuses one before decoding anything.
    static func checkPixels(width: Int, height: Int, limit: Int, path: String) throws(ProcessingError) {
        guard width * height > limit else { return }
        throw ProcessingError(
            .tooLarge,
            "\(path): \(width)×\(height) is \(width * height / 1_000_000) megapixels, over the limit of \(limit / 1_000_000)"
        )
    }
}
