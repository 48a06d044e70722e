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

/// What the coordinator knows of a connected (or departed) worker: a row of the catalog's
/// `workers` (its database side is `Catalog/Records/WorkerRow+Database.swift`).
public struct WorkerRow: Sendable, Hashable, Codable {
    public var id: String
    public var host: String
    /// READY's `software_version` ("photomill/0.2.0+0a5e650c1d2e"); nil in rows written
    /// before migration v8-worker-version.
    public var softwareVersion: String?
    public var slots: Int
    /// Comma-separated kinds the worker accepts.
    public var kinds: String
    /// Comma-separated OCR languages.
    public var ocrLanguages: String
    public var state: State
    public var connectedAt: Double
    public var lastSeen: Double
    public var inFlight: Int
    public var done: Int
    public var failed: Int

    public init(
        id: String,
        host: String,
        softwareVersion: String?,
        slots: Int,
        kinds: String,
        ocrLanguages: String,
        state: State,
        connectedAt: Double,
        lastSeen: Double,
        inFlight: Int,
        done: Int,
        failed: Int
    ) {
        self.id = id
        self.host = host
        self.softwareVersion = softwareVersion
        self.slots = slots
        self.kinds = kinds
        self.ocrLanguages = ocrLanguages
        self.state = state
        self.connectedAt = connectedAt
        self.lastSeen = lastSeen
        self.inFlight = inFlight
        self.done = done
        self.failed = failed
    }

    /// `workers.state`.
    public enum State: String, Sendable, Hashable, Codable {
        case connected, gone
    }
}
