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

/// Plans and writes a folder of realistic sample photos: the same seed gives the same
/// files, byte for byte.
///
/// A plan of `count` files is mostly JPEG photos (some PNG, TIFF and HEIC) of 0.3 to
/// 12 megapixels from five invented cameras, with dates over many years, GPS in all four
/// hemispheres or none, and all eight EXIF orientations in turn; about one file in six
/// is a page of printed English for OCR; and from ten files on, a few are broken: a
/// truncated JPEG and a garbled one (photos that fail, with a reason), and a text file
/// and an empty file named .jpg (named as photos but not: the scan fails them by name).
public struct SampleGenerator: Sendable {
    public let seed: UInt64
    /// Caps the long side of every image, so tests can write a whole folder quickly.
    var maxSide: Int?

    /// Makes every photo (not text pages, not broken files) a JPEG of this upright
    /// size: the uniform sets benchmarks want.
    public var photoSize: (width: Int, height: Int)?

    public init(seed: UInt64, photoSize: (width: Int, height: Int)? = nil) {
        self.seed = seed
        self.photoSize = photoSize
    }

    init(seed: UInt64, maxSide: Int?) {
        self.seed = seed
        self.maxSide = maxSide
    }

    public func plan(count: Int) -> [SampleSpec] {
        let breakages = Self.breakages(count: count)
        var counters = Counters()
        var specs: [SampleSpec] = []
        specs.reserveCapacity(max(0, count))
        for index in 0..<max(0, count) {
            var rng = SplitMix64(seed: seed, stream: UInt64(index))
            let number = index + 1
            var spec: SampleSpec
            if let broken = breakages[index] {
                spec = brokenSpec(broken, number: number, rng: &rng)
            } else {
                let isText = counters.good % 6 == 2
                counters.good += 1
                if isText {
                    spec = textSpec(number: number, counters: &counters, rng: &rng)
                } else {
                    spec = photoSpec(number: number, counters: &counters, rng: &rng)
                }
            }
            if let photoSize, spec.text == nil, spec.broken == nil {
                let turned = (5...8).contains(spec.orientation)
                spec.format = .jpeg
                spec.file = (spec.file as NSString).deletingPathExtension + ".jpg"
                spec.width = turned ? photoSize.height : photoSize.width
                spec.height = turned ? photoSize.width : photoSize.height
            }
            if let maxSide, spec.width > maxSide || spec.height > maxSide {
                let scale = Double(maxSide) / Double(max(spec.width, spec.height))
                spec.width = max(2, Int(Double(spec.width) * scale) & ~1)
                spec.height = max(2, Int(Double(spec.height) * scale) & ~1)
            }
            specs.append(spec)
        }
        return specs
    }

    /// Positions sequence-wide choices cycle through.
    private struct Counters {
        var good = 0
        var photos = 0
        var texts = 0
        var orientation = 0
        var places = 0
    }

    /// Index → kind of breakage: four from ten files on, one more per 40 files,
    /// spread evenly so that a partial run still meets some.
    static func breakages(count: Int) -> [Int: String] {
        guard count >= 10 else { return [:] }
        let kinds = ["truncated", "text", "garbled", "empty"]
        let total = 4 + (count - 10) / 40
        var positions: [Int: String] = [:]
        for k in 0..<total {
            positions[(2 * k + 1) * count / (2 * total)] = kinds[k % kinds.count]
        }
        return positions
    }

    private func photoSpec(number: Int, counters: inout Counters, rng: inout SplitMix64) -> SampleSpec {
        let photo = counters.photos
        counters.photos += 1
        // Three in twelve are not JPEG, placed so that a short run meets each of them.
        let format: SampleFormat =
            switch photo % 12 {
            case 1: .heic
            case 4: .png
            case 7: .tiff
            default: .jpeg
            }
        // libvips' HEIF loader applies the file's transformations itself and ignores
        // EXIF orientation (as HEIF requires), so HEIC samples are stored upright.
        let orientation: Int
        if format == .heic {
            orientation = 1
        } else {
            orientation = counters.orientation % 8 + 1
            counters.orientation += 1
        }
        let camera = rng.pick(SampleCatalogue.cameras)
        var exif = cameraFields(camera, rng: &rng)
        exif.orientation = orientation
        // One in five photos has no position, as with GPS off or indoors.
        if photo % 5 != 3 {
            let place = SampleCatalogue.places[counters.places % SampleCatalogue.places.count]
            counters.places += 1
            exif.gpsLatitude = Self.rounded(place.latitude + rng.double(in: -0.02..<0.02))
            exif.gpsLongitude = Self.rounded(place.longitude + rng.double(in: -0.02..<0.02))
            if rng.chance(0.6) { exif.offsetTimeOriginal = place.offset }
        } else if rng.chance(0.3) {
            exif.offsetTimeOriginal = rng.pick(SampleCatalogue.places).offset
        }

        let upright = photoSize(photo: photo, format: format, rng: &rng)
        let stored = orientation >= 5 ? (upright.height, upright.width) : upright
        return SampleSpec(
            file: String(format: "IMG_%04d.%@", number, format.fileExtension),
            format: format,
            width: stored.0,
            height: stored.1,
            orientation: orientation,
            exif: exif,
            scene: rng.next()
        )
    }

    /// A sheet on a scanner (PNG, upright) or a phone photo of one (JPEG, often turned).
    private func textSpec(number: Int, counters: inout Counters, rng: inout SplitMix64) -> SampleSpec {
        let page = counters.texts
        counters.texts += 1
        let format: SampleFormat = page % 2 == 0 ? .png : .jpeg
        var exif: ExifFields
        let orientation: Int
        if format == .png {
            exif = ExifFields()
            exif.make = SampleCatalogue.scanner.make
            exif.model = SampleCatalogue.scanner.model
            exif.dateTimeOriginal = date(rng: &rng)
            orientation = 1
        } else {
            exif = cameraFields(SampleCatalogue.phone, rng: &rng)
            orientation = [6, 1, 8, 3][(page / 2) % 4]
        }
        exif.orientation = orientation

        var sentences = SampleCatalogue.sentences
        var chosen: [String] = []
        for _ in 0..<rng.int(in: 3...5) {
            chosen.append(sentences.remove(at: rng.int(in: 0...sentences.count - 1)))
        }
        // A4 at 150 dpi, with the text set at 300 dpi: 12-point type about 50 pixels
        // high, comfortably above what tesseract needs.
        let upright = (width: 1240, height: 1754)
        let stored = orientation >= 5 ? (upright.height, upright.width) : upright
        return SampleSpec(
            file: String(format: "SCAN_%04d.%@", number, format.fileExtension),
            format: format,
            width: stored.0,
            height: stored.1,
            orientation: orientation,
            exif: exif,
            text: chosen.joined(separator: " "),
            scene: rng.next()
        )
    }

    private func brokenSpec(_ kind: String, number: Int, rng: inout SplitMix64) -> SampleSpec {
        let file = String(format: "broken_%@_%04d.jpg", kind, number)
        guard kind == "truncated" else {
            var spec = SampleSpec(file: file, format: .jpeg, width: 0, height: 0, broken: kind)
            if kind == "text" { spec.scanFails = "not-an-image" }
            if kind == "empty" { spec.scanFails = "empty" }
            return spec
        }
        // The header survives the cut, so the EXIF is still readable.
        var exif = cameraFields(rng.pick(SampleCatalogue.cameras), rng: &rng)
        exif.orientation = 1
        return SampleSpec(
            file: file,
            format: .jpeg,
            width: 1024,
            height: 768,
            orientation: 1,
            exif: exif,
            broken: kind,
            scene: rng.next()
        )
    }

    private func cameraFields(_ camera: SampleCatalogue.Camera, rng: inout SplitMix64) -> ExifFields {
        var exif = ExifFields()
        exif.make = camera.make
        exif.model = camera.model
        exif.lensModel = camera.lens
        exif.dateTimeOriginal = date(rng: &rng)
        exif.fNumber = rng.pick(camera.apertures)
        exif.exposureTime = rng.pick(SampleCatalogue.exposureTimes)
        exif.iso = rng.pick(SampleCatalogue.isos)
        let focal = rng.double(in: camera.focalLengths.lowerBound..<camera.focalLengths.upperBound.nextUp)
        exif.focalLength = camera.fractionalFocalLength ? (focal * 100).rounded() / 100 : focal.rounded()
        return exif
    }

    private func date(rng: inout SplitMix64) -> String {
        String(
            format: "%04d:%02d:%02d %02d:%02d:%02d",
            rng.int(in: 2008...2025),
            rng.int(in: 1...12),
            rng.int(in: 1...28),
            rng.int(in: 6...20),
            rng.int(in: 0...59),
            rng.int(in: 0...59)
        )
    }

    /// Upright size: mostly 1–3 MP, one photo in five about 0.3 MP, and one in eight
    /// (JPEG only) 12 MP. TIFFs are uncompressed and HEVC encoding is slow, so those
    /// two stay small.
    private func photoSize(photo: Int, format: SampleFormat, rng: inout SplitMix64) -> (width: Int, height: Int) {
        let portrait = rng.chance(0.25)
        var size: (width: Int, height: Int)
        if format == .jpeg, photo % 8 == 5 {
            size = (4000, 3000)
        } else if rng.chance(0.2) {
            size = rng.pick([(640, 480), (720, 480), (600, 600), (800, 450)])
        } else {
            let cap = format == .tiff ? 1400 : format == .heic ? 1600 : 2000
            let long = min(cap, rng.pick([1200, 1400, 1600, 1800, 2000]))
            let (a, b) = rng.pick([(4, 3), (4, 3), (3, 2), (16, 9), (1, 1)])
            size = (long, (long * b / a) & ~1)
        }
        return portrait ? (size.height, size.width) : size
    }

    /// Six decimals (about 0.1 m) is what the JSON list shows and what EXIF's
    /// 1/10000-second rationals hold.
    private static func rounded(_ degrees: Double) -> Double { (degrees * 1_000_000).rounded() / 1_000_000 }
}
