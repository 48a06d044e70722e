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

import Catalog
import Foundation
import PhotomillCore

/// How a coordinator listens, what it scans and how it schedules.
public struct CoordinatorConfiguration: Sendable {
    /// Endpoints the ROUTER binds, e.g. tcp://*:5555 or ipc:///run/photomill.sock.
    public var bind: [String]
    /// Folders scanned recursively for photos.
    public var roots: [String]
    /// Paths the scan never records: the catalog's own files, the exports folder.
    public var excludedPaths: Set<String> = []
    /// Watching, settling, rescans and exclusions.
    public var library = LibraryConfiguration()
    public var kinds: Set<Kind>
    public var parameters = ProcessingParameters()
    public var heartbeatInterval: Double = 1
    public var liveness = 3
    /// Per-kind deadline of a lease (`KindDescriptor.deadline` unless set); a worker renews
    /// it with EXTEND.
    public var deadlines: [Kind: Double] = Kind.defaultDeadlines
    /// The lease deadline of `kind` (its descriptor's for a kind left out of `deadlines`).
    public func deadline(for kind: Kind) -> Double { deadlines[kind] ?? kind.descriptor.deadline }
    /// The lease deadline of a job of `kinds` (`Kind.jobDeadline`).
    func deadline(for kinds: [Kind]) -> Double { Kind.jobDeadline(kinds.map(deadline(for:))) }
    /// EXTENDs never move a lease beyond this many times its deadline from its grant, so
    /// a job hung in a worker whose socket thread still answers is taken back in the end.
    public var leaseCapFactor: Double = 4
    public var retry = RetryPolicy()
    /// One commit transaction per this many results, or per `commitInterval`.
    public var commitBatchSize = 512
    public var commitInterval = 0.05
    /// A lease is written together with its job's result when that comes within this many
    /// seconds (one write instead of two: `Catalog.commit`); the lease of a job still
    /// running after it is written alone. Until then the task reads `pending`.
    public var leaseWriteDelay = 0.5
    /// Jobs of each tier paged from the catalog into memory at most (bounds memory whatever
    /// the catalog's size); more when the connected workers have more slots together
    /// (`Scheduler.readyQueueLimit`).
    public var readyQueueLimit = 1024
    /// Bytes of files read for workers fed bytes and not yet handed to libzmq (`FileReaders`).
    public var readBudget: Int64 = 1 << 30
    /// Return from `run()` once every task is done or failed (the `photomill run` mode).
    public var exitWhenDone = false

    /// The largest file the coordinator sends as bytes to a worker that cannot read its
    /// path (PROTOCOL.md, "File transfer"); a larger one waits for a worker that can.
    public static let maxFileBytesAsBlobs = BlobTransfer.maxFileBytes
    /// How long leases found in the catalog at start wait for their worker to come back.
    public var orphanGrace: Double = 15

    /// CURVE on the ROUTER (every endpoint it binds): the coordinator's secret key and the
    /// workers it admits. Nil: plaintext (ipc://, or tcp:// with `--insecure`).
    public var security: Security?

    public struct Security: Sendable {
        /// Z85; never logged.
        public var secretKey: String
        public var admission: Admission
        public init(secretKey: String, admission: Admission) {
            self.secretKey = secretKey
            self.admission = admission
        }
    }

    public init(bind: [String], roots: [String], kinds: Set<Kind>) {
        self.bind = bind
        self.roots = roots
        self.kinds = kinds
    }
}
