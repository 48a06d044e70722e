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

/// Processes many files in parallel on threads it owns, one `PhotoProcessor` (and so one
/// tesseract engine) per thread. libvips and tesseract block for a long time, so they
/// never run on Swift's cooperative pool.
public enum ProcessingPool {
    /// Calls `deliver` with each result, in the order of `paths`, on the calling thread;
    /// returns when every file is done. Each file's XMP sidecar, when one lies beside it
    /// (`XMPSidecar.find`), is merged into its metadata as a scan would; videos, which a
    /// scan gives no OCR task, get no OCR result and no OCR failure.
    public static func process(
        paths: [String],
        kinds: Set<Kind>,
        parameters: ProcessingParameters,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        deliver: (PhotoResult) -> Void
    ) {
        let pool = BlockingExecutor(name: "pm-process", threads: max(1, min(threads, paths.count)), stackSize: 8 << 20)
        { _ in
            let processor = PhotoProcessor(parameters: parameters)
            processor.videosFailOCR = false
            return processor
        }
        var results: [Completion<PhotoResult>?] = paths.map { path in
            pool.completion { processor in
                let sidecar =
                    kinds.contains(.metadata)
                    ? XMPSidecar.find(besidePhotoAt: path).map { SidecarInput.file(path: $0) } : nil
                return processor.process(path: path, kinds: kinds, sidecar: sidecar)
            }
        }
        pool.close()
        // Each result let go once delivered: a long list never holds every thumbnail at once.
        for index in results.indices {
            if let result = results[index] { deliver(result.join()) }
            results[index] = nil
        }
        pool.join()
    }
}
