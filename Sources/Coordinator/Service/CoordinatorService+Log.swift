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
import Logging
import PhotomillCore

// The scheduler's log actions in the coordinator's log: each at its level, in words, with
// structured metadata (docs/operations.md, "Logs").
extension SchedulerLog {
    func write(to logger: Logger) {
        switch self {
        case .workerReady(let id, let host, let slots, let kinds, let pathRoots):
            logger.info(
                "worker ready",
                metadata: [
                    "worker.id": "\(id)", "worker.host": "\(host)", "worker.slots": "\(slots)",
                    "worker.kinds": "\(Kind.list(kinds))",
                    "worker.files": "\(pathRoots.isEmpty ? "as bytes" : pathRoots.joined(separator: ","))",
                ]
            )
        case .workerDisconnected(let id):
            logger.info("worker disconnected", metadata: ["worker.id": "\(id)"])
        case .workerSilent(let id, let host, let seconds, let jobs):
            logger.warning(
                "worker stopped answering: releasing its jobs",
                metadata: [
                    "worker.id": "\(id)", "worker.host": "\(host)",
                    "silence.seconds": "\(String(format: "%.1f", seconds))",
                    "jobs": "\(jobs)",
                ]
            )
        case .workerKeyRemoved(let id, let host):
            logger.warning(
                "a worker's key was removed from the allow-list: disconnecting it",
                metadata: ["worker.id": "\(id)", "worker.host": "\(host)"]
            )
        case .leaseExpired(let jobID, let worker, let photoId, let kinds):
            logger.notice(
                "a lease expired: the job is taken back",
                metadata: [
                    "job.id": "\(jobID)", "worker.id": "\(worker)", "photo.id": "\(photoId)",
                    "kind": "\(Kind.list(kinds))",
                ]
            )
        case .previousLeasesFound(let count, let grace):
            logger.info(
                "found leases of a previous run; waiting for their workers",
                metadata: [
                    "leases": "\(count)", "grace.seconds": "\(Int(grace))",
                ]
            )
        case .fileNotSent(let path, let worker, let jobID, let errorClass, let message):
            logger.warning(
                "cannot send a file to a worker",
                metadata: [
                    "photo.path": "\(path)", "worker.id": "\(worker)", "job.id": "\(jobID)",
                    "error.class": "\(errorClass)",
                    "error": "\(message)",
                ]
            )
        case .pausedKindsChanged(let paused, let changed):
            logger.notice(
                "paused kinds changed",
                metadata: [
                    "kinds.paused": "\(Kind.list(paused))", "kinds.changed": "\(Kind.list(changed))",
                ]
            )
        case .forgottenResultsDiscarded(let count):
            logger.info(
                "late results of photos forgotten since their job went out: discarded",
                metadata: ["results": "\(count)"]
            )
        case .notRegistered(let peer, let command):
            logger.debug(
                "a message from a connection with no registered worker: answered not-registered",
                metadata: ["peer": "\(peer.printable)", "command": "\(command)"]
            )
        case .messageDropped(let peer, let reason, let detail):
            logger.warning(
                "dropped a message",
                metadata: ["peer": "\(peer.printable)", "reason": "\(reason)", "detail": "\(detail)"]
            )
        }
    }
}

extension Data {
    /// A routing id for logs: printable ASCII as is, anything else in hex.
    var printable: String {
        if allSatisfy({ (0x21...0x7e).contains($0) }) { return String(decoding: self, as: UTF8.self) }
        return "0x" + map { String(format: "%02x", $0) }.joined()
    }
}
