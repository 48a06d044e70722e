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
import MillProtocol
import PhotoProcessing
import PhotomillCore
import SwiftProtobuf

/// Runs one JOB on a slot thread and builds its RESULT. Owns the thread's
/// `PhotoProcessor` (and so its tesseract engine).
final class JobRunner {
    private let processor = PhotoProcessor()
    private let configuration: WorkerConfiguration
    /// The roots with symlinks resolved, as the paths they are compared with.
    private let roots: [String]

    init(configuration: WorkerConfiguration) {
        self.configuration = configuration
        roots = configuration.pathRoots.map {
            URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path
        }
    }

    func run(_ job: Photomill_V1_Job, blobs: [Data]) -> (Photomill_V1_Result, blobs: [Data]) {
        #if PHOTOMILL_FAULT_INJECTION
        FaultInjection.beforeJob(path: job.path)
        #endif
        let kinds = Set(job.kinds.compactMap(Kind.init))
        processor.parameters = ProcessingParameters(job.parameters)
        var outcome = PhotoResult(path: job.path)

        if job.fileInBlobs {
            let fileBlobs = job.sidecarInBlobs ? blobs.dropLast() : blobs[...]
            // A file of one frame (up to 64 MiB) is processed where libzmq received it;
            // only a larger one is put together.
            let bytes =
                fileBlobs.count == 1
                ? fileBlobs[fileBlobs.startIndex] : fileBlobs.reduce(into: Data()) { $0.append($1) }
            outcome.fileSize = bytes.count
            let sidecar: SidecarInput? =
                job.sidecarPath.isEmpty
                ? nil
                : job.sidecarInBlobs
                    ? .bytes(path: job.sidecarPath, blobs.last ?? Data())
                    : .unreadable(
                        path: job.sidecarPath,
                        message: job.sidecarError.isEmpty
                            ? "\(job.sidecarPath): the XMP sidecar was not sent" : job.sidecarError
                    )
            bytes.withUnsafeBytes {
                processor.process($0, path: job.path, kinds: kinds, sidecar: sidecar, into: &outcome)
            }
        } else {
            switch localPath(for: job) {
            case .success(let path):
                outcome = processor.process(path: path, kinds: kinds, sidecar: localSidecar(for: job))
            case .failure(let error):
                for kind in kinds { outcome.errors[kind] = error }
            }
        }
        return Self.message(for: job, outcome: outcome, parameters: processor.parameters)
    }

    /// The job's sidecar on this host: mapped like the photo's path, and opened only
    /// under the worker's roots.
    private func localSidecar(for job: Photomill_V1_Job) -> SidecarInput? {
        guard !job.sidecarPath.isEmpty else { return nil }
        guard let path = local(job.sidecarPath) else {
            return .unreadable(
                path: job.sidecarPath,
                message: "\(job.sidecarPath): the XMP sidecar is outside this worker's roots"
            )
        }
        return .file(path: path)
    }

    /// A path of the coordinator's as this host names it, or nil when it lies outside the
    /// worker's roots: whatever a JOB says, nothing outside them is opened (symlinks
    /// resolved first). Prefixes map component-wise: /volume1/photos maps
    /// /volume1/photos/a.jpg, not /volume1/photos2/a.jpg.
    private func local(_ coordinatorPath: String) -> String? {
        let path =
            configuration.pathMap.lazy.compactMap { coordinatorPath.replacingPathPrefix($0.from, with: $0.to) }.first
            ?? coordinatorPath
        let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        return roots.contains(where: resolved.isPath(under:)) ? path : nil
    }

    /// The job's path on this host, checked against the worker's roots and against the
    /// size and mtime the coordinator scanned (a file changed since then would give
    /// results for content the catalog does not describe).
    private func localPath(for job: Photomill_V1_Job) -> Result<String, ProcessingError> {
        guard let path = local(job.path) else {
            let roots =
                configuration.pathRoots.isEmpty
                ? "none: it takes files as bytes only" : configuration.pathRoots.joined(separator: ", ")
            return .failure(ProcessingError(.unreadable, "\(job.path): outside this worker's roots (\(roots))"))
        }
        let current: FileStamp
        do {
            current = try FileStamp.of(path)
        } catch {
            return .failure(ProcessingError(.unreadable, "\(job.path): cannot read: \(error)"))
        }
        let scanned = FileStamp(size: Int64(clamping: job.fileSize), mtimeNs: job.fileMtimeNs)
        if current != scanned {
            return .failure(ProcessingError(.fileChanged, scanned.changedMessage(path: job.path, now: current)))
        }
        return .success(path)
    }

    static func message(
        for job: Photomill_V1_Job,
        outcome: PhotoResult,
        parameters: ProcessingParameters
    ) -> (Photomill_V1_Result, blobs: [Data]) {
        var result = Photomill_V1_Result()
        result.jobID = job.jobID
        result.leaseToken = job.leaseToken
        var blobs: [Data] = []
        for wireKind in job.kinds {
            guard let kind = Kind(wireKind), let reported = outcome.outcome(for: kind) else { continue }
            result.results.append(
                Photomill_V1_KindResult(
                    reported,
                    of: kind,
                    recipe: parameters.recipe(for: kind),
                    seconds: outcome.seconds[kind] ?? 0,
                    blobs: &blobs
                )
            )
        }
        return (result, blobs)
    }
}
