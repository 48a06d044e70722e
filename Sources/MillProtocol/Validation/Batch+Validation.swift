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

// JOBS and RESULTS (revision 3): each entry is checked as the command it stands for, its
// fields named `jobs[i].…`, `results[i].…`, `fails[i].…`.

extension Photomill_V1_Jobs {
    func validate(_ check: FieldChecker) throws(ProtocolViolation) {
        try check.count(jobs.count, FieldBounds.batchJobs, "jobs")
        for (index, job) in jobs.enumerated() {
            let entry = check.entry("jobs[\(index)]")
            // A file's bytes need frames of their own: such a job travels alone, as JOB.
            if job.fileInBlobs { throw entry.violation("file_in_blobs", "is true in a JOBS") }
            try job.validate(entry, blobs: [])
        }
        try check.unique(jobs.map(\.jobID), "jobs.job_id")
    }
}

extension Photomill_V1_Results {
    /// The blob frames of each result, in order: each result owns as many consecutive
    /// frames as it references thumbnails. Nil when the frames run out.
    public func blobsByResult(_ blobs: [Data]) -> [ArraySlice<Data>]? {
        var start = blobs.startIndex
        var slices: [ArraySlice<Data>] = []
        slices.reserveCapacity(results.count)
        for result in results {
            let count = result.referencedBlobs
            guard blobs.endIndex - start >= count else { return nil }
            slices.append(blobs[start..<start + count])
            start += count
        }
        return slices
    }

    func validate(_ check: FieldChecker, blobs: [Data]) throws(ProtocolViolation) {
        try check.count(results.count + fails.count, FieldBounds.batchResults, "results+fails")
        guard let slices = blobsByResult(blobs) else {
            throw check.violation(
                "results",
                "reference more thumbnails than the \(blobs.count) blob frame(s) that follow",
                reason: .missingBlob
            )
        }
        for (index, result) in results.enumerated() {
            try result.validate(check.entry("results[\(index)]"), blobs: Array(slices[index]))
        }
        let used = slices.reduce(0) { $0 + $1.count }
        if used < blobs.count {
            throw check.violation("results", "blob frame \(used) is referenced by no result", reason: .unexpectedBlob)
        }
        for (index, fail) in fails.enumerated() { try fail.validate(check.entry("fails[\(index)]")) }
        // One outcome per job and message.
        try check.unique(results.map(\.jobID) + fails.map(\.jobID), "job_id")
    }
}

extension Photomill_V1_Result {
    /// How many thumbnails this result carries, each in a blob frame of its own.
    var referencedBlobs: Int {
        results.reduce(0) { count, entry in
            if case .thumbnail? = entry.outcome { count + 1 } else { count }
        }
    }
}
