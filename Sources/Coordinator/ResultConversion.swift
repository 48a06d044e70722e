import Catalog
import Foundation
import MillProtocol
import PhotomillCore

enum ResultConversion {
    /// The task results of a RESULT for `lease`. A kind the lease names but the result
    /// lacks counts as a retryable failure, so no task is left leased forever.
    static func taskResults(_ result: Photomill_V1_Result, blobs: [Data], lease: Lease) -> [TaskResult] {
        var byKind: [Kind: TaskResult] = [:]
        for entry in result.results {
            guard let kind = Kind(entry.kind), lease.kinds.contains(kind) else { continue }
            let outcome: TaskOutcome
            switch entry.outcome {
            case .hashes(let h): outcome = .hash(md5: h.md5, sha256: h.sha256)
            case .metadata(let m): outcome = .metadata(PhotoMetadata(m))
            case .thumbnail(let t):
                let index = Int(t.blobIndex)
                guard blobs.indices.contains(index) else {
                    outcome = .failure(errorClass: .protocol, message: "thumbnail blob \(index) missing", retryable: true)
                    break
                }
                outcome = .thumbnail(width: Int(t.width), height: Int(t.height), jpeg: Data(blobs[index]))
            case .ocr(let o): outcome = .ocr(text: o.text, confidence: o.confidence, language: o.language)
            case .failure(let f): outcome = .failure(errorClass: ErrorClass(rawValue: f.errorClass), message: f.message, retryable: f.retryable)
            case nil: outcome = .failure(errorClass: .protocol, message: "empty result for \(kind.rawValue)", retryable: true)
            }
            byKind[kind] = TaskResult(photoId: lease.photoId, kind: kind, leaseToken: lease.token, outcome: outcome, recipe: entry.recipe)
        }
        return lease.kinds.map { kind in
            byKind[kind] ?? TaskResult(photoId: lease.photoId, kind: kind, leaseToken: lease.token,
                                       outcome: .failure(errorClass: .protocol, message: "the worker sent no result for \(kind.rawValue)", retryable: true),
                                       recipe: "")
        }
    }

    static func failures(_ fail: Photomill_V1_Fail, lease: Lease) -> [TaskResult] {
        lease.kinds.map {
            TaskResult(photoId: lease.photoId, kind: $0, leaseToken: lease.token,
                       outcome: .failure(errorClass: ErrorClass(rawValue: fail.errorClass), message: fail.message, retryable: fail.retryable), recipe: "")
        }
    }
}
