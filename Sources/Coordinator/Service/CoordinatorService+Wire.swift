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
import SwiftProtobuf

// The protocol edge of the scheduler: wire messages in, scheduler events out, and back.

extension WorkerHello {
    init(_ ready: Photomill_V1_Ready) {
        self.init(
            workerId: ready.workerID,
            host: ready.host,
            softwareVersion: ready.softwareVersion,
            slots: Int(ready.slots),
            kinds: Set(ready.kinds.compactMap(Kind.init)),
            ocrLanguages: Set(ready.ocrLanguages),
            pathRoots: ready.pathRoots,
            protocolVersion: ready.protocolVersion,
            heartbeatInterval: ready.heartbeatInterval,
            prefetch: Int(min(ready.prefetch, max(ready.slots, 1) - 1))
        )
    }
}

extension WorkerMessage {
    /// What a message from a worker says, one entry per job (a RESULTS holds many).
    static func all(_ message: MillMessage) -> [WorkerMessage] {
        guard case .results(let batch, let blobs) = message, let slices = batch.blobsByResult(blobs) else {
            return [Self(message)]
        }
        return zip(batch.results, slices).map { result, slice in Self.result(result, blobs: Array(slice)) }
            + batch.fails.map(Self.fail)
    }

    private static func result(_ result: Photomill_V1_Result, blobs: [Data]) -> WorkerMessage {
        .result(
            jobID: result.jobID,
            token: result.leaseToken,
            reports: result.results.compactMap { KindReport($0, blobs: blobs) }
        )
    }

    private static func fail(_ fail: Photomill_V1_Fail) -> WorkerMessage {
        .fail(
            jobID: fail.jobID,
            token: fail.leaseToken,
            errorClass: ErrorClass(rawValue: fail.errorClass),
            message: fail.message,
            retryable: fail.retryable
        )
    }

    /// Any single command but READY (which is `WorkerHello`) and RESULTS (`all`).
    init(_ message: MillMessage) {
        switch message {
        case .result(let result, let blobs):
            self = Self.result(result, blobs: blobs)
        case .fail(let fail):
            self = Self.fail(fail)
        case .extend(let extend):
            self = .extend(jobID: extend.jobID, token: extend.leaseToken, extraSeconds: Double(extend.extraMs) / 1000)
        case .heartbeat:
            self = .heartbeat
        case .disconnect:
            self = .disconnect
        case .ready, .job, .jobs, .ack, .results:
            self = .unexpected(message.command)
        }
    }
}

extension KindReport {
    /// Nil for a kind this revision does not know.
    init?(_ entry: Photomill_V1_KindResult, blobs: [Data]) {
        guard let kind = Kind(entry.kind) else { return nil }
        self.init(kind: kind, outcome: TaskOutcome(entry, of: kind, blobs: blobs), recipe: entry.recipe)
    }
}

extension ControlMessage {
    var wire: MillMessage {
        switch self {
        case .heartbeat: .heartbeat()
        case .ack(let committed, let discarded):
            .ack(
                .with {
                    $0.committed = committed
                    $0.discarded = discarded
                }
            )
        case .disconnect(let reason): .disconnect(.with { $0.reason = reason.description })
        }
    }
}

/// JOB bodies. The fields every job of a run with the same kinds shares (the processing
/// parameters, the deadlines) are encoded once per set of kinds and appended to each job's
/// own fields: encoding them was a third of the cost of encoding a JOB.
struct JobEncoder {
    let configuration: CoordinatorConfiguration
    private var tails: [[Kind]: Data] = [:]

    init(configuration: CoordinatorConfiguration) {
        self.configuration = configuration
    }

    /// `blobs`: the file's frames then, when `sidecar` is `.sent`, the sidecar's
    /// (`BlobTransfer.payload`); none when the worker reads the files itself.
    mutating func frames(_ order: JobOrder, blobs: [Data], sidecar: BlobTransfer.SidecarPayload = .none) -> [Data] {
        var message = Photomill_V1_Job()
        message.jobID = order.jobID
        message.photoID = order.job.photoId
        message.path = order.job.path
        message.fileSize = UInt64(order.job.size)
        message.fileMtimeNs = order.job.mtimeNs
        message.kinds = order.job.kinds.map(Photomill_V1_Kind.init)
        message.leaseToken = order.token
        message.fileInBlobs = order.fileInBlobs
        if order.fileInBlobs {
            switch sidecar {
            case .none: break
            case .sent(let path):
                message.sidecarPath = path
                message.sidecarInBlobs = true
            case .unreadable(let path, let error):
                message.sidecarPath = path
                message.sidecarError = error.truncated(toUTF8Bytes: FieldBounds.errorMessageBytes.upperBound)
            }
        } else if let sidecar = order.job.metadataSidecar {
            // The worker reads it beside the file.
            message.sidecarPath = sidecar.path
        }
        return MillCodec.encodeJob(message, tail: tail(order.job.kinds), blobs: blobs)
    }

    private mutating func tail(_ kinds: [Kind]) -> Data {
        if let tail = tails[kinds] { return tail }
        var fields = Photomill_V1_Job()
        fields.deadlines = kinds.map { kind in
            var entry = Photomill_V1_KindDeadline()
            entry.kind = Photomill_V1_Kind(kind)
            entry.deadlineMs = UInt32(configuration.deadline(for: kind) * 1000)
            return entry
        }
        fields.parameters = Photomill_V1_ProcessingParameters(configuration.parameters)
        let tail = MillCodec.jobTail(fields)
        tails[kinds] = tail
        return tail
    }
}
