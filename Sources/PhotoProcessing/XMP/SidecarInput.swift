import Foundation
import PhotomillCore

/// A photo's XMP sidecar, as its metadata kind receives it.
public enum SidecarInput: Sendable, Hashable {
    /// To be read here (a worker that reads the photo beside it, `inspect`).
    case file(path: String)
    /// Sent with the job (a worker that takes files as bytes).
    case bytes(path: String, Data)
    /// The coordinator could not read it: the metadata fails with this message.
    case unreadable(path: String, message: String)
}

extension PhotoResult {
    /// Merges the sidecar into the metadata just computed (its edits win: `merge`). A
    /// sidecar that is gone since the scan counts as none (the next scan re-queues the
    /// metadata); one that cannot be read or parsed fails the metadata, naming the sidecar.
    mutating func mergeSidecar(_ sidecar: SidecarInput?) {
        guard let sidecar, metadata != nil else { return }
        let path: String, bytes: Data
        switch sidecar {
        case .unreadable(let sidecarPath, let message):
            return failMetadata(ProcessingError(.unreadable, message), sidecar: sidecarPath)
        case .bytes(let sidecarPath, let data):
            (path, bytes) = (sidecarPath, data)
        case .file(let sidecarPath):
            path = sidecarPath
            do {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                bytes = try handle.read(upToCount: XMPSidecar.maxBytes + 1) ?? Data()
            } catch {
                let cocoa = error as NSError
                if cocoa.domain == NSCocoaErrorDomain && cocoa.code == NSFileReadNoSuchFileError { return }
                let cause = cocoa.localizedFailureReason ?? error.fileSystemReason
                return failMetadata(ProcessingError(.unreadable, "\(path): cannot read the XMP sidecar: \(cause)"), sidecar: path)
            }
        }
        guard bytes.count <= XMPSidecar.maxBytes else {
            return failMetadata(ProcessingError(.corrupt, "\(path): the XMP sidecar is over \(XMPSidecar.maxBytes >> 20) MiB"), sidecar: path)
        }
        do {
            metadata?.merge(try XMPReader.read(bytes), replacing: true)
        } catch {
            failMetadata(ProcessingError(.corrupt, "\(path): the XMP sidecar is damaged: \(error)"), sidecar: path)
        }
    }

    private mutating func failMetadata(_ error: ProcessingError, sidecar: String) {
        metadata = nil
        errors[.metadata] = error
    }
}
