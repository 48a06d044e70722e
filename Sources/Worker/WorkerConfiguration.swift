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
import PhotoProcessing
import PhotomillCore

/// How a worker connects and what it offers.
public struct WorkerConfiguration: Sendable {
    public var endpoint: String
    /// Stable across reconnects: the coordinator's catalog names attempts by it.
    public var workerId: String
    public var host: String
    /// Jobs processed at once (the credit the coordinator may use); default: the cores.
    public var slots: Int
    public var kinds: Set<Kind>
    public var ocrLanguages: [String]
    /// Folders (this host's paths) the worker may read photos under; empty: it reads no
    /// path, and every photo comes as bytes in the JOB.
    public var pathRoots: [String]
    /// Prefix rewrites from the coordinator's paths to this host's, e.g. /volume1/photos → /mnt/photos.
    public var pathMap: [(from: String, to: String)]
    public var heartbeatInterval: Double = 1
    /// READY's `software_version`; the CLI adds the commit it was built from.
    public var softwareVersion = PhotomillVersion.software
    /// Heartbeat intervals of silence after which the coordinator counts as gone.
    public var liveness: Int = 3
    public var reconnectInitial: Double = 1
    public var reconnectMax: Double = 32
    /// CURVE: the coordinator's public key (pinned: a server without its secret key
    /// cannot complete the handshake) and this worker's key pair. Nil: plaintext.
    public var security: Security?

    public struct Security: Sendable {
        public var serverKey: String
        public var publicKey: String
        /// Never logged.
        public var secretKey: String
        public init(serverKey: String, publicKey: String, secretKey: String) {
            self.serverKey = serverKey
            self.publicKey = publicKey
            self.secretKey = secretKey
        }
    }

    /// Jobs taken on beyond the slots: for a worker fed bytes, one, so that the next file
    /// travels while the slots work and a slot does not wait for its next file's transfer
    /// (with one slot per worker, 12-megapixel photos fed as bytes came to 0.88-0.92 of
    /// paths without it, docs/benchmarks.md); none for a worker that reads paths, whose
    /// jobs arrive in microseconds. READY offers `slots + prefetch`.
    public var prefetch: Int { pathRoots.isEmpty ? 1 : 0 }

    /// The roots in the coordinator's namespace (READY.path_roots): each root with the
    /// prefix map undone, so that the coordinator sends paths only for files under them.
    public var advertisedRoots: [String] {
        pathRoots.map { root in
            pathMap.lazy.compactMap { root.replacingPathPrefix($0.to, with: $0.from) }.first ?? root
        }
    }

    public init(
        endpoint: String,
        slots: Int = ProcessInfo.processInfo.activeProcessorCount,
        kinds: Set<Kind> = Set(Kind.allCases),
        ocrLanguages: [String] = ["eng"],
        pathRoots: [String] = [],
        pathMap: [(from: String, to: String)] = []
    ) {
        self.endpoint = endpoint
        self.slots = slots
        self.kinds = kinds
        self.ocrLanguages = ocrLanguages
        self.pathRoots = pathRoots
        self.pathMap = pathMap
        host = ProcessInfo.processInfo.hostName
        workerId = "\(host)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }
}
