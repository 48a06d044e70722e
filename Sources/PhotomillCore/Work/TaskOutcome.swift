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

/// What a worker reported for one kind of one photo: built by the worker's processor
/// (`PhotoResult.outcome(for:)`), sent and received through `MillProtocol`'s
/// `TaskOutcome+Wire.swift`, committed by the catalog.
public enum TaskOutcome: Sendable, Hashable {
    /// `fileSize`: the bytes hashed (the catalog keeps the scanned size).
    case hash(md5: String, sha256: String, fileSize: Int64 = 0)
    case metadata(PhotoMetadata)
    case thumbnail(width: Int, height: Int, jpeg: Data)
    /// `rotation`: the turn (0, 90, 180 or 270 degrees) under which the text was read.
    case ocr(text: String, confidence: Double, language: String, rotation: Int = 0)
    /// The 64-bit hash and the detail hash (nil from a worker of before it).
    case similarity(PerceptualHash, detail: DetailHash? = nil)
    case failure(errorClass: ErrorClass, message: String, retryable: Bool)
}

/// One kind's result under a lease.
public struct TaskResult: Sendable, Hashable {
    public var photoId: Int64
    public var kind: Kind
    public var leaseToken: String
    public var outcome: TaskOutcome
    /// Code version and parameters that shaped the result.
    public var recipe: String

    public init(photoId: Int64, kind: Kind, leaseToken: String, outcome: TaskOutcome, recipe: String) {
        self.photoId = photoId
        self.kind = kind
        self.leaseToken = leaseToken
        self.outcome = outcome
        self.recipe = recipe
    }
}
