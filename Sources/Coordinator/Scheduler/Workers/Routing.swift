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

/// Which worker may take which part of a job (PROTOCOL.md, JOB and "File transfer").
extension WorkerSession {
    /// Whether this worker offers `kind`; a kind that needs a language (OCR) counts only
    /// with the coordinator's.
    func offers(_ kind: Kind, ocrLanguage: String) -> Bool {
        kinds.contains(kind) && (!kind.needsLanguage || ocrLanguages.contains(ocrLanguage))
    }

    /// The kinds of `job` this worker can do: those it offers, provided it can get the
    /// file (it reads the path itself, or the file is small enough to travel as bytes).
    /// A worker limited to some kinds takes its part and leaves the rest for others.
    func share(of job: PendingJob, ocrLanguage: String) -> [Kind] {
        guard reads(job.path) || BlobTransfer.canSend(size: job.size) else { return [] }
        return job.kinds.filter { offers($0, ocrLanguage: ocrLanguage) }
    }

    /// Whether `path` lies under one of the worker's roots, component-wise.
    func reads(_ path: String) -> Bool {
        pathRoots.contains(where: path.isPath(under:))
    }
}

enum Routing {
    /// The kinds at least one connected worker offers: the only ones worth paging in.
    static func available(_ sessions: some Collection<WorkerSession>, ocrLanguage: String) -> Set<Kind> {
        Set(Kind.allCases.filter { kind in sessions.contains { $0.offers(kind, ocrLanguage: ocrLanguage) } })
    }

    /// Why the tasks of each kind no connected worker offers wait (for `photomill status`),
    /// and those of the kinds this coordinator was not asked for (a changed file queues
    /// all of its kinds again, whatever `--kinds` said).
    static func waiting(
        kinds: Set<Kind>,
        sessions: some Collection<WorkerSession>,
        ocrLanguage: String
    ) -> [Kind: WaitReason] {
        var reasons: [Kind: WaitReason] = [:]
        for kind in Kind.allCases where !kinds.contains(kind) { reasons[kind] = .notAskedFor(asked: kinds) }
        let offered = available(sessions, ocrLanguage: ocrLanguage)
        for kind in kinds where !offered.contains(kind) {
            if sessions.isEmpty {
                reasons[kind] = .noWorkerConnected
            } else if kind.needsLanguage, sessions.contains(where: { $0.kinds.contains(kind) }) {
                reasons[kind] = .languageNotOffered(
                    language: ocrLanguage,
                    offered: Set(sessions.flatMap(\.ocrLanguages)).sorted()
                )
            } else {
                reasons[kind] = .kindNotOffered
            }
        }
        return reasons
    }
}
