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
import MillProtocol
import PhotomillCore

/// A file sent as the JOB's blob frames to a worker that cannot read its path
/// (PROTOCOL.md, "File transfer"). Memory is bounded by credits: at most `slots` JOBs are
/// out to a worker, so at most that many files per worker are held (by libzmq, zero
/// copy, until written to the socket), each at most `maxFileBytes`.
enum BlobTransfer {
    /// The largest file that fits one JOB: the blob frames left after the three fixed ones,
    /// each of the protocol's largest size (64 MiB; `MillCodec.fileBlobs` splits).
    static let maxFileBytes = Int64(Limits.default.maxFileBytes)

    static func canSend(size: Int64) -> Bool { size <= maxFileBytes }

    enum Failure: Error {
        /// The file cannot be read (class `unreadable`, retryable).
        case unreadable(String)
        /// It no longer has the scanned size or mtime (class `file-changed`).
        case changed(String)
    }

    /// What goes with the file for its metadata: the sidecar's bytes (one more frame), or
    /// why they could not be read (the worker fails the metadata with it).
    enum SidecarPayload: Equatable {
        /// No sidecar (none scanned, the job has no metadata, or it vanished since the scan:
        /// the next scan re-queues the metadata).
        case none
        case sent(path: String)
        case unreadable(path: String, message: String)
    }

    /// The file's frames and, for a job with metadata, its sidecar's (see `frames(of:)`).
    static func payload(of job: PendingJob) -> Result<(frames: [Data], sidecar: SidecarPayload), Failure> {
        frames(of: job).map { frames in
            guard let sidecar = job.metadataSidecar else { return (frames, .none) }
            switch XMPSidecar.read(at: sidecar.path) {
            case .bytes(let bytes) where bytes.count > XMPSidecar.maxBytes:
                return (
                    frames,
                    .unreadable(
                        path: sidecar.path,
                        message: "\(sidecar.path): the XMP sidecar is over \(XMPSidecar.maxBytes >> 20) MiB"
                    )
                )
            case .bytes(let bytes): return (frames + [bytes], .sent(path: sidecar.path))
            case .gone: return (frames, .none)
            case .unreadable(let cause):
                return (
                    frames,
                    .unreadable(
                        path: sidecar.path,
                        message: "\(sidecar.path): the coordinator cannot read the XMP sidecar: \(cause)"
                    )
                )
            }
        }
    }

    /// The file's bytes in frames of at most 64 MiB, checked against the size and
    /// mtime the catalog holds (a file changed since the scan would give results for
    /// content the catalog does not describe).
    static func frames(of job: PendingJob) -> Result<[Data], Failure> {
        let bytes: Data
        do {
            let file = try RegularFile(path: job.path)
            let scanned = FileStamp(size: job.size, mtimeNs: job.mtimeNs)
            guard file.stamp == scanned else {
                return .failure(.changed(scanned.changedMessage(path: job.path, now: file.stamp)))
            }
            bytes = try file.read()
        } catch {
            return .failure(.unreadable("\(job.path): the coordinator cannot read it to send it: \(error.cause)"))
        }
        guard Int64(bytes.count) == job.size, let frames = MillCodec.fileBlobs(bytes) else {
            return .failure(.changed("\(job.path): read \(bytes.count) bytes, scanned \(job.size)"))
        }
        return .success(frames)
    }
}
