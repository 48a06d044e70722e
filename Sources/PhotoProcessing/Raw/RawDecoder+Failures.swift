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

import PhotomillCore

extension RawDecoder {
    /// Why LibRaw could not open the file.
    ///
    /// LibRaw answers "unsupported file format" both for a camera it does not know and
    /// for a file whose headers are too damaged to find the raw image in, so what it read
    /// decides:
    /// - no make or no model: the header itself is damaged (`corrupt`) — photomill only
    ///   hands LibRaw files whose signature is a RAW format LibRaw knows;
    /// - a DNG: LibRaw reads DNGs whatever the camera, so most likely the DNG is encoded
    ///   in a way this LibRaw cannot decode (`unsupported-format`: JPEG XL, DNG 1.7's
    ///   compression 52546, is one) — though a damaged header gets the same answer;
    /// - a camera on LibRaw's own list: the file is damaged (`corrupt`);
    /// - one it does not list: `unsupported-format` (a newer LibRaw may read it).
    static func openFailure(_ error: LibRawError, handle: LibRawHandle?, path: String) -> ProcessingError {
        if error.isTooBig {
            return ProcessingError(.tooLarge, "\(path): LibRaw refuses the RAW as too large (\(error.reason))")
        }
        guard error.isUnsupported else {
            return ProcessingError(.corrupt, "\(path): the RAW's header is damaged (LibRaw: \(error.reason))")
        }
        guard let handle, case let camera = handle.camera, !camera.make.isEmpty, !camera.model.isEmpty else {
            return ProcessingError(.corrupt, "\(path): LibRaw finds no camera in the RAW's header (\(error.reason))")
        }
        if let version = handle.dngVersion {
            return ProcessingError(
                .unsupportedFormat,
                "\(path): LibRaw \(LibRawCameras.version) cannot decode this DNG \(version): an encoding it lacks, or a damaged header (\(error.reason))"
            )
        }
        let name = "\(camera.make) \(camera.model)"
        if LibRawCameras.lists(make: camera.make, model: camera.model) {
            return ProcessingError(
                .corrupt,
                "\(path): the RAW holds no usable image data (LibRaw supports the \(name) but finds no raw image in the file: \(error.reason))"
            )
        }
        return ProcessingError(
            .unsupportedFormat,
            "\(path): LibRaw \(LibRawCameras.version) does not support the \(name) (\(error.reason))"
        )
    }

    /// Why the samples could not be unpacked or rendered.
    static func dataFailure(_ error: LibRawError, path: String, previewProblem: String) -> ProcessingError {
        if error.isTooBig {
            return ProcessingError(
                .tooLarge,
                "\(path): LibRaw cannot render the RAW in the memory it allows (\(error.reason))"
            )
        }
        if error.isUnsupported {
            return ProcessingError(
                .unsupportedFormat,
                "\(path): LibRaw \(LibRawCameras.version) cannot decode this RAW's image data (\(error.reason); preview: \(previewProblem))"
            )
        }
        return ProcessingError(
            .corrupt,
            "\(path): the RAW's image data is damaged (LibRaw: \(error.reason); preview: \(previewProblem))"
        )
    }
}
