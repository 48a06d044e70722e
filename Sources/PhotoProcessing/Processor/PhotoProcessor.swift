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

import CVips
import Foundation
import PhotomillCore

/// Computes the requested kinds for one file from a single read of it.
///
/// What the file is decides who reads it (`MediaFormat`, by content). The metadata comes
/// from the file's metadata containers alone (`MetadataReader`: exiv2 and the readers of
/// what it does not cover; FFmpeg's for videos), never from decoded pixels, so damaged
/// image data fails the thumbnail and OCR but not the metadata. The pictures come from
/// libvips for stills (PhotoProcessor+Still.swift), LibRaw for camera RAW
/// (PhotoProcessor+Raw.swift), FFmpeg for video (PhotoProcessor+Video.swift): each gives a
/// way to get an upright picture of a given size; the thumbnail and OCR are made from that
/// picture here, the same way for all three.
///
/// Not thread-safe: it keeps a tesseract engine for reuse, so give each thread its own
/// processor (see `ProcessingPool`).
public final class PhotoProcessor {
    public var parameters: ProcessingParameters
    /// Whether OCR asked of a video fails (`unsupported-format`: a worker given a job the
    /// scan would not have queued) or is left out of the result (`inspect` on a folder:
    /// a video has no text to read, which is no failure).
    public var videosFailOCR = true
    private var recognizer: TextRecognizer?

    public init(parameters: ProcessingParameters = ProcessingParameters()) {
        self.parameters = parameters
    }

    /// `sidecar`: the photo's XMP sidecar, merged into its metadata (`mergeSidecar`).
    ///
    /// A job that wants only pictures of a RAW whose previews photomill finds itself reads
    /// only the file's head and the preview it needs (`openPreviews`); everything else
    /// reads the whole file once.
    public func process(path: String, kinds: Set<Kind>, sidecar: SidecarInput? = nil) -> PhotoResult {
        var result = PhotoResult(path: path)
        let file: RegularFile
        let bytes: Data
        do {
            file = try RegularFile(path: path)
            if !kinds.isEmpty, kinds.isDisjoint(with: [.hash, .metadata]),
                let source = openPreviews(FileRegions(file), path: path)
            {
                result.fileSize = file.size
                _ = makePictures(from: source, path: path, kinds: kinds, since: MonotonicInstant.now(), into: &result)
                return result
            }
            bytes = try file.read()
        } catch {
            for kind in kinds {
                result.errors[kind] = ProcessingError(.unreadable, "\(path): cannot read: \(error.cause)")
            }
            return result
        }
        result.fileSize = bytes.count
        bytes.withUnsafeBytes { buffer in
            process(buffer, path: path, kinds: kinds, sidecar: sidecar, into: &result)
        }
        if kinds.contains(.metadata), result.metadata != nil {
            result.metadata?.fileModificationDate = Self.modificationDate(file.stamp)
        }
        return result
    }

    /// Processes bytes already in memory (a file read once, or bytes sent over the wire).
    public func process(
        _ bytes: UnsafeRawBufferPointer,
        path: String,
        kinds: Set<Kind>,
        sidecar: SidecarInput? = nil,
        into result: inout PhotoResult
    ) {
        var lapStart = MonotonicInstant.now()
        /// What passed since the last lap goes to `kind`.
        func lap(_ kind: Kind) {
            let now = MonotonicInstant.now()
            result.seconds[kind, default: 0] += now - lapStart
            lapStart = now
        }
        if kinds.contains(.hash) {
            result.hashes = ContentHashes(of: bytes)
            lap(.hash)
        }
        let decoding = kinds.subtracting([.hash])
        guard !decoding.isEmpty else { return }
        defer { if let last = decoding.max() { lap(last) } }

        let format: MediaFormat
        do {
            format = try Self.format(of: bytes, path: path)
        } catch {
            for kind in decoding { result.errors[kind] = error }
            return
        }
        // The metadata never waits for, nor depends on, the pixels: it is read from the
        // file's metadata containers alone (a video's container is opened once for both).
        var video: (source: PictureSource, metadata: PhotoMetadata?)?
        if format.mediaType == .video {
            do {
                video = try openVideo(bytes, format: format, path: path, wantsMetadata: decoding.contains(.metadata))
            } catch {
                for kind in decoding { result.errors[kind] = error }
                return
            }
        }
        if decoding.contains(.metadata) {
            do {
                if let described = video?.metadata {
                    result.metadata = described
                } else {
                    result.metadata = try MetadataReader.read(fileBytes: bytes, format: format, path: path)
                }
                result.mergeSidecar(sidecar)
            } catch {
                result.errors[.metadata] = error
            }
            lap(.metadata)
        }
        let pictures = decoding.subtracting([.metadata])
        guard !pictures.isEmpty else { return }
        let source: PictureSource
        do {
            switch format.mediaType {
            case .photo:
                source = try openStill(
                    bytes,
                    format: format,
                    path: path,
                    exifOrientation: result.metadata?.orientation
                        ?? Self.heifOrientation(bytes, format: format, path: path)
                )
            case .raw: source = openRaw(.memory(bytes), format: format, path: path)
            case .video: source = video!.source
            }
        } catch {
            for kind in pictures { result.errors[kind] = error }
            return
        }
        lapStart = makePictures(from: source, path: path, kinds: pictures, since: lapStart, into: &result)
    }

    /// What `bytes` are, or why they are none of photomill's formats.
    static func format(of bytes: UnsafeRawBufferPointer, path: String) throws(ProcessingError) -> MediaFormat {
        guard bytes.count > 0 else { throw ProcessingError(.notAnImage, "\(path): the file is empty") }
        guard
            let format = MediaFormat(
                sniffing: Array(bytes.prefix(MediaFormat.headLength)),
                fileExtension: (path as NSString).pathExtension
            )
        else {
            throw ProcessingError(
                .notAnImage,
                "\(path): not a photo, camera RAW or video (no known signature in the first bytes)"
            )
        }
        return format
    }

    /// A HEIF's EXIF orientation, for a job that wants its pictures but not its metadata
    /// (`openStill` turns HEIF pixels by it); nil for other formats.
    private static func heifOrientation(_ bytes: UnsafeRawBufferPointer, format: MediaFormat, path: String) -> Int? {
        guard [.heic, .heif, .avif].contains(format) else { return nil }
        return (try? MetadataReader.read(fileBytes: bytes, format: format, path: path))?.orientation
    }

    /// The thumbnail, the perceptual hash and the OCR text, as `kinds` asks, from `source`'s
    /// pictures. Each kind's time is recorded, from `start` on (a decode counts for the
    /// first kind that needs it); returns when the last of them ended.
    private func makePictures(
        from source: PictureSource,
        path: String,
        kinds decoding: Set<Kind>,
        since start: MonotonicInstant,
        into result: inout PhotoResult
    ) -> MonotonicInstant {
        var lapStart = start
        /// What passed since the last lap goes to `kind`.
        func lap(_ kind: Kind) {
            let now = MonotonicInstant.now()
            result.seconds[kind, default: 0] += now - lapStart
            lapStart = now
        }
        // Thumbnail and OCR from one decode when both are asked: the OCR picture (the
        // larger), computed once into memory, shrunk for the thumbnail.
        var shared: Result<VipsImageRef, ProcessingError>?
        if decoding.isSuperset(of: [.thumbnail, .ocr]), source.noOCR == nil {
            shared = Result { () throws(ProcessingError) in
                let picture = try source.picture(max(parameters.ocrMaxSide, parameters.thumbnailSize))
                return try Self.damaged(path) { () throws(VipsError) in try picture.inMemory() }
            }
        }
        let wantsThumbnail = decoding.contains(.thumbnail)
        let wantsHash = decoding.contains(.similarity)
        if wantsThumbnail || wantsHash {
            // The thumbnail's picture, upright, 8-bit sRGB: the JPEG's pixels and the
            // perceptual hash's, from one decode (computed into memory when both use it).
            let upright = Result { () throws(ProcessingError) in
                let picture: VipsImageRef
                if let shared {
                    picture = try shared.get()
                } else {
                    picture = try source.picture(parameters.thumbnailSize)
                }
                return try Self.damaged(path) { () throws(VipsError) in
                    let image = try (shared == nil ? picture : picture.shrunk(toLongestSide: parameters.thumbnailSize))
                        .flattenedSRGB()
                    return wantsThumbnail && wantsHash ? try image.inMemory() : image
                }
            }
            if wantsThumbnail {
                do {
                    let image = try upright.get()
                    result.thumbnail = try Self.damaged(path) { () throws(VipsError) in
                        let jpeg = try image.encode {
                            pm_vips_jpegsave($0, $1, $2, Int32(parameters.thumbnailQuality), 1)
                        }
                        Vips.clearError()
                        return Thumbnail(width: image.width, height: image.height, jpeg: jpeg)
                    }
                } catch {
                    result.errors[.thumbnail] = error
                }
                lap(.thumbnail)
            }
            if wantsHash {
                do {
                    let image = try upright.get()
                    let hashes = try Self.damaged(path) { () throws(VipsError) in
                        defer { Vips.clearError() }
                        return try image.perceptualHashes()
                    }
                    result.perceptualHash = hashes.hash
                    result.detailHash = hashes.detail
                } catch {
                    result.errors[.similarity] = error
                }
                lap(.similarity)
            }
        }
        if decoding.contains(.ocr), source.noOCR == nil || videosFailOCR {
            do {
                let decoded: VipsImageRef?
                if let shared { decoded = try shared.get() } else { decoded = nil }
                result.text = try recognizeText(in: source, picture: decoded, path: path)
            } catch {
                result.errors[.ocr] = error
            }
            lap(.ocr)
        }
        return lapStart
    }

    /// A file opened for its metadata and pictures: what each reader gives the steps above.
    struct PictureSource {
        /// An upright picture whose longest side is at most the argument; each call decodes
        /// again, shrinking on load where the format allows.
        var picture: (Int) throws(ProcessingError) -> VipsImageRef
        /// Why there is no text to read (a video), or nil.
        var noOCR: ProcessingError?
    }

    /// A RAW whose previews `EmbeddedPreviews` finds, opened for its pictures without
    /// reading it whole; nil for any other file.
    private func openPreviews(_ file: FileRegions, path: String) -> PictureSource? {
        guard let head = file.read(0..<min(file.count, MediaFormat.headLength)),
            let format = MediaFormat(sniffing: head, fileExtension: (path as NSString).pathExtension),
            EmbeddedPreviews.formats.contains(format)
        else { return nil }
        return openRaw(.file(file), format: format, path: path)
    }

    /// `picture`: the OCR picture already decoded (with the thumbnail's), or nil to decode it.
    private func recognizeText(
        in source: PictureSource,
        picture decoded: VipsImageRef?,
        path: String
    ) throws(ProcessingError) -> RecognizedText {
        if let reason = source.noOCR { throw reason }
        let picture: VipsImageRef
        if let decoded { picture = decoded } else { picture = try source.picture(parameters.ocrMaxSide) }
        let page = try Self.damaged(path) { () throws(VipsError) in
            let grey = try picture.flattenedSRGB(grey: true)
            defer { Vips.clearError() }
            return GreyImage(width: grey.width, height: grey.height, pixels: try grey.pixels())
        }
        if recognizer == nil || recognizer?.language != parameters.ocrLanguage {
            recognizer = try TextRecognizer(language: parameters.ocrLanguage)
        }
        return recognizer!.recognize(page).floored(at: Double(parameters.ocrMinConfidence))
    }

    /// `work`, its libvips failure classified as damaged image data of `path`.
    static func damaged<T>(_ path: String, _ work: () throws(VipsError) -> T) throws(ProcessingError) -> T {
        do {
            return try work()
        } catch {
            throw ProcessingError(.corrupt, "\(path): image data is damaged: \(error.message)")
        }
    }

    static func modificationDate(_ stamp: FileStamp) -> String {
        ISO8601Format.utc(Date(timeIntervalSince1970: Double(stamp.mtimeNs) / 1e9))
    }
}

enum ISO8601Format {
    static func utc(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
    }
}
