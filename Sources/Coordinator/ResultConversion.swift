import Catalog
import Foundation
import MillProtocol

extension TaskKind {
    init?(_ wire: Photomill_V1_Kind) { self.init(rawValue: wire.name) }
    var wire: Photomill_V1_Kind { Photomill_V1_Kind(name: rawValue)! }
}

extension MetadataValues {
    init(_ m: Photomill_V1_Metadata) {
        self.init()
        if m.hasDateTaken { dateTaken = m.dateTaken }
        if m.hasFileModificationDate { fileModificationDate = m.fileModificationDate }
        if m.hasPixelWidth { pixelWidth = Int(m.pixelWidth) }
        if m.hasPixelHeight { pixelHeight = Int(m.pixelHeight) }
        if m.hasCameraMake { cameraMake = m.cameraMake }
        if m.hasCameraModel { cameraModel = m.cameraModel }
        if m.hasOrientation { orientation = Int(m.orientation) }
        if m.hasGpsLatitude { gpsLatitude = m.gpsLatitude }
        if m.hasGpsLongitude { gpsLongitude = m.gpsLongitude }
        if m.hasAperture { aperture = m.aperture }
        if m.hasShutterSpeed { shutterSpeed = m.shutterSpeed }
        if m.hasIso { iso = Int(m.iso) }
        if m.hasFocalLength { focalLength = m.focalLength }
        if m.hasLensModel { lensModel = m.lensModel }
    }
}

enum ResultConversion {
    /// The task results of a RESULT for `lease`. A kind the lease names but the result
    /// lacks counts as a retryable failure, so no task is left leased forever.
    static func taskResults(_ result: Photomill_V1_Result, blobs: [Data], lease: Lease) -> [TaskResult] {
        var byKind: [TaskKind: TaskResult] = [:]
        for entry in result.results {
            guard let kind = TaskKind(entry.kind), lease.kinds.contains(kind) else { continue }
            let outcome: TaskOutcome
            switch entry.outcome {
            case .hashes(let h): outcome = .hash(md5: h.md5, sha256: h.sha256)
            case .metadata(let m): outcome = .metadata(MetadataValues(m))
            case .thumbnail(let t):
                let index = Int(t.blobIndex)
                guard blobs.indices.contains(index) else {
                    outcome = .failure(errorClass: "protocol", message: "thumbnail blob \(index) missing", retryable: true)
                    break
                }
                outcome = .thumbnail(width: Int(t.width), height: Int(t.height), jpeg: Data(blobs[index]))
            case .ocr(let o): outcome = .ocr(text: o.text, confidence: o.confidence, language: o.language)
            case .failure(let f): outcome = .failure(errorClass: f.errorClass, message: f.message, retryable: f.retryable)
            case nil: outcome = .failure(errorClass: "protocol", message: "empty result for \(kind.rawValue)", retryable: true)
            }
            byKind[kind] = TaskResult(photoId: lease.photoId, kind: kind, leaseToken: lease.token, outcome: outcome, recipe: entry.recipe)
        }
        return lease.kinds.map { kind in
            byKind[kind] ?? TaskResult(photoId: lease.photoId, kind: kind, leaseToken: lease.token,
                                       outcome: .failure(errorClass: "protocol", message: "the worker sent no result for \(kind.rawValue)", retryable: true),
                                       recipe: "")
        }
    }

    static func failures(_ fail: Photomill_V1_Fail, lease: Lease) -> [TaskResult] {
        lease.kinds.map {
            TaskResult(photoId: lease.photoId, kind: $0, leaseToken: lease.token,
                       outcome: .failure(errorClass: fail.errorClass, message: fail.message, retryable: fail.retryable), recipe: "")
        }
    }
}
