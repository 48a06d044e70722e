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
import PhotoProcessing
import PhotomillCore

extension SampleGenerator {
    /// The bytes of one sample file; a function of `spec` alone.
    public func render(_ spec: SampleSpec) throws -> [UInt8] {
        switch spec.broken {
        case nil:
            break
        case "truncated":
            var whole = spec
            whole.broken = nil
            let bytes = try render(whole)
            return Array(bytes.prefix(bytes.count * 4 / 10))
        case "text":
            return Array(SampleCatalogue.notAnImage.utf8)
        case "garbled":
            // A JPEG's first marker, then no JPEG: known by its signature, decodable by nothing.
            return [0xFF, 0xD8, 0xFF, 0xE0] + Array(SampleCatalogue.notAnImage.utf8)
        case "empty":
            return []
        case let kind?:
            throw SampleError(file: spec.file, message: "unknown kind of breakage '\(kind)'")
        }

        guard spec.width > 0, spec.height > 0, (1...8).contains(spec.orientation) else {
            throw SampleError(
                file: spec.file,
                message: "\(spec.width)×\(spec.height), orientation \(spec.orientation) is not an image"
            )
        }
        guard spec.format != .heic || spec.orientation == 1 else {
            // The file would claim a turn that HEIF readers (libheif, hence libvips) never apply.
            throw SampleError(
                file: spec.file,
                message: "HEIC samples are stored upright; orientation \(spec.orientation) would be ignored by readers"
            )
        }
        let upright: RGBImage
        let size = spec.uprightSize
        do {
            if let text = spec.text {
                upright = try SampleScene.textPage(text, width: size.width, height: size.height)
            } else {
                upright = SampleScene(seed: spec.scene).render(width: size.width, height: size.height)
            }
        } catch {
            throw SampleError(file: spec.file, message: error.message)
        }
        let stored = SampleScene.stored(upright, orientation: spec.orientation)
        do {
            return try encode(stored, format: spec.format, exif: spec.exif)
        } catch {
            throw SampleError(file: spec.file, message: "cannot encode \(spec.format.rawValue): \(error.message)")
        }
    }

    func encode(_ image: RGBImage, format: SampleFormat, exif: ExifFields) throws(VipsError) -> [UInt8] {
        let embedded =
            exif.isEmpty
            ? nil : ImageEncoder.Exif(payload: ExifWriter.payload(exif), orientation: exif.orientation ?? 1)
        switch format {
        case .tiff:
            return ExifWriter.tiff(image, fields: exif)
        case .jpeg:
            // Stripped, so the only EXIF is ours and it comes first.
            let jpeg = try ImageEncoder.jpeg(image, quality: 90)
            return embedded.map { ExifWriter.insert($0.payload, intoJPEG: jpeg) } ?? jpeg
        case .png:
            return PNGChunks.withOneExifBeforeImageData(try ImageEncoder.png(image, exif: embedded))
        case .heic:
            return try ImageEncoder.heic(image, quality: 60, exif: embedded)
        }
    }

    /// Writes the planned files and `samples.json` into `directory` (created if
    /// missing), each atomically, using all cores. `progress` is called with (files
    /// done, total), one call at a time, from any thread.
    /// - Returns: the specs, as also listed in `samples.json`.
    @discardableResult
    public func write(count: Int, to directory: URL, progress: ((Int, Int) -> Void)? = nil) throws -> [SampleSpec] {
        let specs = plan(count: count)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw SampleError(file: directory.path, message: "cannot create the folder: \(error.fileSystemReason)")
        }

        let state = WriteState(total: specs.count, progress: progress)
        // Threads of our own (Dispatch's), not the cooperative pool: libvips blocks.
        let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, specs.count))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var index = thread
            while index < specs.count, !state.failed {
                let spec = specs[index]
                do {
                    let bytes = try render(spec)
                    try Self.write(Data(bytes), to: directory.appendingPathComponent(spec.file))
                    state.finished()
                } catch {
                    state.fail(index: index, error as? SampleError ?? SampleError(file: spec.file, message: "\(error)"))
                }
                index += threads
            }
        }
        if let error = state.firstError { throw error }

        let manifest = SampleManifest(seed: seed, files: specs)
        do {
            try Self.write(try manifest.encoded(), to: directory.appendingPathComponent(SampleManifest.fileName))
        } catch {
            throw error as? SampleError ?? SampleError(file: SampleManifest.fileName, message: "\(error)")
        }
        return specs
    }

    private static func write(_ data: Data, to url: URL) throws(SampleError) {
        do {
            try AtomicFile.write(data, to: url)
        } catch {
            throw SampleError(file: error.path, message: error.message)
        }
    }
}

/// Shared by the writing threads; every access holds `lock`.
private final class WriteState: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let progress: ((Int, Int) -> Void)?
    private var done = 0
    private var errors: [(index: Int, error: SampleError)] = []

    init(total: Int, progress: ((Int, Int) -> Void)?) {
        self.total = total
        self.progress = progress
    }

    var failed: Bool { lock.withLock { !errors.isEmpty } }

    /// The failure of the earliest file, so the report does not depend on thread timing.
    var firstError: SampleError? { lock.withLock { errors.min { $0.index < $1.index }?.error } }

    func finished() {
        lock.withLock {
            done += 1
            progress?(done, total)
        }
    }

    func fail(index: Int, _ error: SampleError) {
        lock.withLock { errors.append((index, error)) }
    }
}
