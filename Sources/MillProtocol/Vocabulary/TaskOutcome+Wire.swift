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
import SwiftProtobuf

// The protocol edge of `TaskOutcome`: a RESULT's entry for one kind, as the worker sends
// it and as the coordinator commits it. A kind's payload crosses the wire here and nowhere
// else.

extension TaskOutcome {
    /// The outcome an entry of a RESULT reports for `kind` (the entry's kind, known), with
    /// the thumbnail's bytes from the result's `blobs`. An entry without an outcome, or whose
    /// thumbnail frame is missing, is a retryable `protocol` failure.
    public init(_ entry: Photomill_V1_KindResult, of kind: Kind, blobs: [Data]) {
        switch entry.outcome {
        case .hashes(let h):
            self = .hash(md5: h.md5, sha256: h.sha256, fileSize: Int64(clamping: h.fileSize))
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
            self = .ocr(text: o.text, confidence: o.confidence, language: o.language, rotation: Int(o.rotation))
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

extension Photomill_V1_KindResult {
    /// The entry of a RESULT that reports `outcome` for `kind` (the worker's side of
    /// `TaskOutcome.init(_:of:blobs:)`): a thumbnail's JPEG is appended to `blobs` and named
    /// by its index; text and messages are cut to their bounds (`FieldBounds`).
    public init(_ outcome: TaskOutcome, of kind: Kind, recipe: String, seconds: Double, blobs: inout [Data]) {
        self.init()
        self.kind = Photomill_V1_Kind(kind)
        self.recipe = recipe
        processingUs = UInt32(clamping: Int((seconds * 1e6).rounded()))
        switch outcome {
        case .hash(let md5, let sha256, let fileSize):
            hashes = .with {
                $0.md5 = md5
                $0.sha256 = sha256
                $0.fileSize = UInt64(clamping: fileSize)
            }
        case .metadata(let values):
            metadata = Photomill_V1_Metadata(values)
        case .thumbnail(let width, let height, let jpeg):
            thumbnail = .with {
                $0.width = UInt32(clamping: width)
                $0.height = UInt32(clamping: height)
                $0.blobIndex = UInt32(blobs.count)
            }
            blobs.append(jpeg)
        case .ocr(let text, let confidence, let language, let rotation):
            ocr = .with {
                $0.text = text.truncated(toUTF8Bytes: FieldBounds.ocrTextBytes.upperBound)
                $0.confidence = confidence
                $0.language = language
                $0.rotation = UInt32(clamping: rotation)
            }
        case .similarity(let hash, let detail):
            similarity = .with {
                $0.perceptualHash = hash.value
                if let detail { $0.detailHash = detail.bytes }
            }
        case .failure(let errorClass, let message, let retryable):
            failure = .with {
                $0.errorClass = errorClass.rawValue
                $0.message = message.truncated(toUTF8Bytes: FieldBounds.errorMessageBytes.upperBound)
                $0.retryable = retryable
            }
        }
    }
}
