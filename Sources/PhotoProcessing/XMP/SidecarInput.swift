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
        let path: String
        let bytes: Data
        switch sidecar {
        case .unreadable(_, let message):
            return failMetadata(ProcessingError(.unreadable, message))
        case .bytes(let sidecarPath, let data):
            (path, bytes) = (sidecarPath, data)
        case .file(let sidecarPath):
            path = sidecarPath
            switch XMPSidecar.read(at: path) {
            case .bytes(let data): bytes = data
            case .gone: return
            case .unreadable(let cause):
                return failMetadata(ProcessingError(.unreadable, "\(path): cannot read the XMP sidecar: \(cause)"))
            }
        }
        guard bytes.count <= XMPSidecar.maxBytes else {
            return failMetadata(
                ProcessingError(.corrupt, "\(path): the XMP sidecar is over \(XMPSidecar.maxBytes >> 20) MiB")
            )
        }
        do {
            metadata?.merge(try XMPReader.read(bytes), replacing: true)
        } catch {
            failMetadata(ProcessingError(.corrupt, "\(path): the XMP sidecar is damaged: \(error)"))
        }
    }

    private mutating func failMetadata(_ error: ProcessingError) {
        metadata = nil
        errors[.metadata] = error
    }
}
