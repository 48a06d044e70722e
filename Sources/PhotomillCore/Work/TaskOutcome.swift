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

/// What a worker reported for one kind of one photo, ready to be committed.
public enum TaskOutcome: Sendable, Hashable {
    case hash(md5: String, sha256: String)
    case metadata(PhotoMetadata)
    case thumbnail(width: Int, height: Int, jpeg: Data)
    case ocr(text: String, confidence: Double, language: String)
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
