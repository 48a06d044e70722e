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

// The protocol edge of `TaskOutcome`: a RESULT's entry for one kind, as the coordinator
// commits it.

extension TaskOutcome {
    /// The outcome an entry of a RESULT reports for `kind` (the entry's kind, known), with
    /// the thumbnail's bytes from the result's `blobs`. An entry without an outcome, or whose
    /// thumbnail frame is missing, is a retryable `protocol` failure.
    public init(_ entry: Photomill_V1_KindResult, of kind: Kind, blobs: [Data]) {
        switch entry.outcome {
        case .hashes(let h):
            self = .hash(md5: h.md5, sha256: h.sha256)
        case .metadata(let m):
            self = .metadata(PhotoMetadata(m))
        case .thumbnail(let t):
            let index = Int(t.blobIndex)
            guard blobs.indices.contains(index) else {
                self = .failure(errorClass: .protocol, message: "thumbnail blob \(index) missing", retryable: true)
                return
            }
            self = .thumbnail(width: Int(t.width), height: Int(t.height), jpeg: Data(blobs[index]))
        case .ocr(let o):
            self = .ocr(text: o.text, confidence: o.confidence, language: o.language)
        case .similarity(let s):
            // No detail hash (a worker of before it) is nil; one of another length, too.
            self = .similarity(PerceptualHash(s.perceptualHash), detail: DetailHash(bytes: s.detailHash))
        case .failure(let f):
            self = .failure(errorClass: ErrorClass(rawValue: f.errorClass), message: f.message, retryable: f.retryable)
        case nil:
            self = .failure(errorClass: .protocol, message: "empty result for \(kind.rawValue)", retryable: true)
        }
    }
}
