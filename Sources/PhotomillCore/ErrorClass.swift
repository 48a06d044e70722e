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

/// Why a task failed: a stable, machine-readable name, stored in the catalog
/// (`tasks.errorClass`, `attempts.errorClass`) as its raw value and sent on the wire as
/// `error_class`. The wire's set is open (PROTOCOL.md, "Error classes"): a class this code
/// does not know, reported by another worker, is kept as `.other` with its name.
public enum ErrorClass: Hashable, Sendable {
    /// The file could not be opened or read (permissions, vanished, I/O error).
    case unreadable
    /// The file is empty (0 bytes), though its name says photo, RAW or video.
    case empty
    /// The bytes are not an image of any format (text, …).
    case notAnImage
    /// An image, but of a format this build of libvips cannot decode.
    case unsupportedFormat
    /// More pixels than the configured limit: refused before decoding.
    case tooLarge
    /// The image header is readable but the data is truncated or damaged.
    case corrupt
    /// The OCR engine could not be started or failed on the image.
    case ocrFailed
    /// The file's size or modification time differs from what the scan recorded: the
    /// coordinator re-scans it (PROTOCOL.md, "file-changed").
    case fileChanged
    /// A worker's own time limit for one stage of the work ran out (a video's demuxing).
    case timeout
    /// The last attempt's lease ran past its deadline (a hung job, or a frozen worker).
    case leaseExpired
    /// The last attempt's worker disconnected or stopped answering.
    case workerLost
    /// The coordinator stopped during the last attempt.
    case interrupted
    /// The worker's answer broke the protocol (a kind missing from its RESULT, a blob
    /// frame missing).
    case `protocol`
    /// A draining worker handed the job back (PROTOCOL.md, "Shutdown").
    case shuttingDown
    /// A class reported by a worker that this code does not name.
    case other(String)

    /// Every class photomill itself records, in the order docs/processing.md and
    /// docs/catalog.md list them.
    public static let known: [ErrorClass] = [
        .unreadable, .empty, .notAnImage, .unsupportedFormat, .tooLarge, .corrupt, .ocrFailed, .fileChanged,
        .timeout, .leaseExpired, .workerLost, .interrupted, .protocol, .shuttingDown,
    ]

    /// Whether trying again may succeed, for the classes the processors report
    /// (PROTOCOL.md, "Error classes"). Only I/O trouble and a file that changed under the
    /// worker are transient; the others are facts about the file's bytes.
    public var isRetryable: Bool { self == .unreadable || self == .ocrFailed || self == .fileChanged }
}

extension ErrorClass: RawRepresentable, CustomStringConvertible {
    /// Never fails: a name this code does not know is `.other(name)`. The names of the
    /// first round (`changed-since-scan`, `worker-crashed`), which contradicted PROTOCOL.md,
    /// still read as the classes that replaced them (migration v5-protocol renamed them in
    /// the catalog; a `--class` filter may still use them).
    public init(rawValue: String) {
        self = Self.byName[rawValue] ?? Self.formerNames[rawValue] ?? .other(rawValue)
    }

    public var rawValue: String {
        switch self {
        case .unreadable: "unreadable"
        case .empty: "empty"
        case .notAnImage: "not-an-image"
        case .unsupportedFormat: "unsupported-format"
        case .tooLarge: "too-large"
        case .corrupt: "corrupt"
        case .ocrFailed: "ocr-failed"
        case .fileChanged: "file-changed"
        case .timeout: "timeout"
        case .leaseExpired: "lease-expired"
        case .workerLost: "worker-lost"
        case .interrupted: "interrupted"
        case .protocol: "protocol"
        case .shuttingDown: "shutting-down"
        case .other(let name): name
        }
    }

    public var description: String { rawValue }

    private static let byName: [String: ErrorClass] = Dictionary(uniqueKeysWithValues: known.map { ($0.rawValue, $0) })
    private static let formerNames: [String: ErrorClass] = [
        "changed-since-scan": .fileChanged, "worker-crashed": .workerLost,
    ]
}

extension ErrorClass: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
