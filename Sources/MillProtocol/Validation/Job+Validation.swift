import Foundation

extension Photomill_V1_Job {
    func validate(_ check: FieldChecker, blobs: [Data]) throws(ProtocolViolation) {
        try check.id(jobID, "job_id")
        guard photoID > 0 else { throw check.violation("photo_id", "\(photoID) is not positive") }
        try check.path(path, "path")
        let kinds = try check.kinds(self.kinds, "kinds")
        try check.id(leaseToken, "lease_token")
        try validateDeadlines(check, kinds: kinds)
        guard hasParameters else { throw check.violation("parameters", "is missing") }
        try parameters.validate(check, ocr: kinds.contains(.ocr))
        try validateFileBlobs(check, blobs: blobs)
    }

    /// Exactly one deadline per kind of the job: a kind without one could never expire.
    private func validateDeadlines(_ check: FieldChecker, kinds: Set<Photomill_V1_Kind>) throws(ProtocolViolation) {
        var covered: Set<Photomill_V1_Kind> = []
        for (index, deadline) in deadlines.enumerated() {
            let field = "deadlines[\(index)]"
            try check.kind(deadline.kind, "\(field).kind")
            guard kinds.contains(deadline.kind) else {
                throw check.violation("\(field).kind", "\(deadline.kind.name) is not a kind of the job")
            }
            guard covered.insert(deadline.kind).inserted else {
                throw check.violation("\(field).kind", "\(deadline.kind.name) has two deadlines")
            }
            try check.range(deadline.deadlineMs, FieldBounds.deadlineMs, "\(field).deadline_ms")
        }
        if let missing = Photomill_V1_Kind.known.first(where: { kinds.contains($0) && !covered.contains($0) }) {
            throw check.violation("deadlines", "has no deadline for \(missing.name)")
        }
    }

    /// The blob frames are the file, whole, or absent.
    private func validateFileBlobs(_ check: FieldChecker, blobs: [Data]) throws(ProtocolViolation) {
        let total = blobs.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        if !fileInBlobs {
            if !blobs.isEmpty {
                throw check.violation("file_in_blobs", "is false but \(blobs.count) blob frame(s) follow",
                                      reason: .unexpectedBlob)
            }
        } else if total < fileSize {
            throw check.violation("file_size", "is \(fileSize) but the blob frames hold \(total) bytes",
                                  reason: .missingBlob)
        } else if total > fileSize {
            throw check.violation("file_size", "is \(fileSize) but the blob frames hold \(total) bytes",
                                  reason: .unexpectedBlob)
        }
    }
}

extension Photomill_V1_ProcessingParameters {
    func validate(_ check: FieldChecker, ocr: Bool) throws(ProtocolViolation) {
        try check.range(thumbnailSize, FieldBounds.thumbnailSize, "parameters.thumbnail_size")
        try check.range(thumbnailQuality, FieldBounds.thumbnailQuality, "parameters.thumbnail_quality")
        try check.range(ocrMaxSide, FieldBounds.ocrMaxSide, "parameters.ocr_max_side")
        try check.range(pixelLimit, FieldBounds.pixelLimit, "parameters.pixel_limit")
        // The language matters only to OCR, but a set value is checked all the same.
        if ocr || !ocrLanguage.isEmpty { try check.ocrLanguageSpec(ocrLanguage, "parameters.ocr_language") }
    }
}
