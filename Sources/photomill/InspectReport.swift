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

/// The shape of `inspect --json`: one object per file, absent values omitted.
struct InspectReport: Encodable {
    struct ThumbnailInfo: Encodable {
        let width: Int
        let height: Int
        let bytes: Int
        let path: String?
    }
    struct TextInfo: Encodable {
        /// Absent when there is no text (none found, or under the confidence floor).
        let text: String?
        let confidence: Double
        let language: String
    }
    struct Failure: Encodable {
        let `class`: String
        let message: String
    }

    let path: String
    let fileSize: Int?
    let md5: String?
    let sha256: String?
    let metadata: PhotoMetadata?
    let thumbnail: ThumbnailInfo?
    let ocr: TextInfo?
    /// The similarity kind's hash, 16 lowercase hex digits.
    let perceptualHash: String?
    /// Its detail hash, 64 lowercase hex digits.
    let detailHash: String?
    let errors: [String: Failure]?

    init(_ result: PhotoResult, thumbnailPath: String?) {
        path = result.path
        fileSize = result.fileSize
        md5 = result.hashes?.md5
        sha256 = result.hashes?.sha256
        metadata = result.metadata
        thumbnail = result.thumbnail.map {
            ThumbnailInfo(width: $0.width, height: $0.height, bytes: $0.jpeg.count, path: thumbnailPath)
        }
        perceptualHash = result.perceptualHash?.hex
        detailHash = result.detailHash?.hex
        ocr = result.text.map {
            TextInfo(text: $0.text.isEmpty ? nil : $0.text, confidence: $0.confidence, language: $0.language)
        }
        errors =
            result.errors.isEmpty
            ? nil
            : Dictionary(
                uniqueKeysWithValues: result.errors.map {
                    ($0.key.rawValue, Failure(class: $0.value.errorClass.rawValue, message: $0.value.message))
                }
            )
    }

    func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return PathBytes.displayJSON(String(decoding: data, as: UTF8.self))
    }

    /// A readable block: the file, then one line per kind.
    func text() -> String {
        var lines = ["\(path)" + (fileSize.map { "  \($0) bytes" } ?? "")]
        if let md5, let sha256 { lines.append("  hash       md5 \(md5)  sha256 \(sha256)") }
        if let m = metadata {
            var parts: [String] = []
            if let w = m.pixelWidth, let h = m.pixelHeight { parts.append("\(w)×\(h)") }
            if let date = m.dateTaken { parts.append(date) }
            let camera = [m.cameraMake, m.cameraModel].compactMap { $0 }.joined(separator: " ")
            if !camera.isEmpty { parts.append(camera) }
            if let lens = m.lensModel { parts.append(lens) }
            if let f = m.aperture { parts.append(String(format: "f/%.1f", f)) }
            if let t = m.shutterSpeed {
                parts.append(t < 1 ? String(format: "1/%.0fs", 1 / t) : String(format: "%.1fs", t))
            }
            if let iso = m.iso { parts.append("ISO \(iso)") }
            if let mm = m.focalLength { parts.append(String(format: "%.1fmm", mm)) }
            if let o = m.orientation { parts.append("orientation \(o)") }
            if let lat = m.gpsLatitude, let lon = m.gpsLongitude {
                parts.append(String(format: "GPS %.6f, %.6f", lat, lon))
            }
            lines.append("  metadata   " + (parts.isEmpty ? "(none)" : parts.joined(separator: "  ")))
        }
        if let t = thumbnail {
            lines.append("  thumbnail  \(t.width)×\(t.height), \(t.bytes) bytes" + (t.path.map { " → \($0)" } ?? ""))
        }
        if let ocr {
            let firstLine = ocr.text?.split(separator: "\n").first.map(String.init) ?? ""
            lines.append(
                ocr.text == nil
                    ? String(format: "  ocr        (no text; confidence %.0f%%)", ocr.confidence)
                    : "  ocr        \(String(format: "%.0f%%", ocr.confidence))  \"\(firstLine.prefix(60))\"…"
            )
        }
        if let perceptualHash { lines.append("  similarity \(perceptualHash)") }
        for (kind, failure) in (errors ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append(
                "  \(kind.padding(toLength: 10, withPad: " ", startingAt: 0)) FAILED \(failure.class): \(failure.message)"
            )
        }
        return terminalText(lines)
    }
}
