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

import Foundation
import PhotomillCore

/// Everything computed for one photo; each kind succeeded (its value is set) or failed
/// (an entry in `errors`), independently of the others.
public struct PhotoResult: Sendable {
    public let path: String
    public var fileSize: Int?
    public var hashes: ContentHashes?
    public var metadata: PhotoMetadata?
    public var thumbnail: Thumbnail?
    public var text: RecognizedText?
    public var perceptualHash: PerceptualHash?
    /// The similarity kind's second hash, with `perceptualHash`.
    public var detailHash: DetailHash?
    public var errors: [Kind: ProcessingError] = [:]
    /// Seconds spent on each kind (its share of a decode another kind also uses goes to
    /// the first that needs it), for the RESULT's `processing_us`.
    public var seconds: [Kind: Double] = [:]

    public init(path: String) { self.path = path }

    public var succeeded: Bool { errors.isEmpty }
}
