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
import PhotomillTestSupport
import Testing

@testable import PhotoProcessing

/// The similarity kind's hash against Python's imagehash (`phash`), the implementation the
/// field compares with: on the same 32 × 32 grey pixels the algorithm is the same, bit for
/// bit; from a file, photomill hashes the thumbnail's picture where imagehash resizes the
/// whole image with Pillow, a documented difference of a few bits (docs/processing.md).
@Suite struct PerceptualHashTests {
    static let imagehashReady: Bool = (try? Tool.run("python3", ["-c", "import imagehash, scipy"]).status) == 0

    /// Seeded grey pictures: a few random low frequencies plus noise, as photos are
    /// mostly low frequencies (and no two coefficients tie).
    static func pictures(count: Int) -> [[UInt8]] {
        var random = SplitMix64(seed: 28)
        return (0..<count).map { _ in
            let waves = (0..<4).map { _ in
                (
                    u: Double(random.int(in: 0...5)), v: Double(random.int(in: 0...5)),
                    a: Double(random.int(in: 10...60)),
                    phase: Double(random.int(in: 0...628)) / 100
                )
            }
            return (0..<32 * 32).map { index in
                let x = Double(index % 32)
                let y = Double(index / 32)
                var value = 128.0 + Double(random.int(in: -8...8))
                for wave in waves { value += wave.a * cos(.pi * (wave.u * x + wave.v * y) / 32 + wave.phase) }
                return UInt8(max(0, min(255, value.rounded())))
            }
        }
    }

    @Test(.enabled(if: imagehashReady, "needs python3 with imagehash and scipy (scripts/install-deps.sh)"))
    func theSamePixelsGiveImagehashsPhashBitForBit() throws {
        let pictures = Self.pictures(count: 60)
        let folder = try temporaryDirectory()
        let raw = folder.appendingPathComponent("pictures.raw")
        try Data(pictures.joined()).write(to: raw)
        // A 32 × 32 'L' image is what phash makes of any image before its DCT (Pillow's
        // resize to the size it has is a copy).
        let script = """
            import sys, imagehash
            from PIL import Image
            data = open(sys.argv[1], 'rb').read()
            for i in range(len(data) // 1024):
                print(imagehash.phash(Image.frombytes('L', (32, 32), data[i * 1024:(i + 1) * 1024])))
            """
        let run = try Tool.run("python3", ["-c", script, raw.path])
        #expect(run.status == 0)
        let expected = run.stdout.split(separator: "\n").map(String.init)
        #expect(expected.count == pictures.count)
        #expect(pictures.map { PerceptualHash(grey: $0).hex } == expected)
        // A median threshold sets exactly half of the 64 bits.
        #expect(pictures.allSatisfy { PerceptualHash(grey: $0).value.nonzeroBitCount == 32 })
    }

    /// The detail hash against scipy's DCT (an FFT, not our direct sums): the 16 × 16 lowest
    /// frequencies of `dct(dct(a, axis=0), axis=1)`, each bit set above the mean of the 255
    /// AC terms, first bit highest. scipy's unnormalised DCT-II is 2 × ours on each axis, the
    /// same factor for every term, so the bits are the same.
    @Test(.enabled(if: imagehashReady, "needs python3 with scipy (scripts/install-deps.sh)"))
    func theDetailHashIsScipysDCTAboveTheMeanBitForBit() throws {
        let pictures = Self.pictures(count: 40)
        let raw = try temporaryDirectory().appendingPathComponent("pictures.raw")
        try Data(pictures.joined()).write(to: raw)
        let script = """
            import sys, numpy
            from scipy.fftpack import dct
            data = open(sys.argv[1], 'rb').read()
            for i in range(len(data) // 1024):
                a = numpy.frombuffer(data[i * 1024:(i + 1) * 1024], dtype=numpy.uint8).reshape(32, 32).astype(float)
                c = dct(dct(a, axis=0), axis=1)[:16, :16].flatten()
                bits = ''.join('1' if x > c[1:].mean() else '0' for x in c)
                print(''.join('%016x' % int(bits[w * 64:(w + 1) * 64], 2) for w in range(4)))
            """
        let run = try Tool.run("python3", ["-c", script, raw.path])
        #expect(run.status == 0, "\(run.stderr)")
        let expected = run.stdout.split(separator: "\n").map(String.init)
        #expect(expected.count == pictures.count)
        #expect(pictures.map { DetailHash(grey: $0).hex } == expected)
        // One DCT gives both: the 64-bit hash is the one computed alone.
        #expect(pictures.allSatisfy { PerceptualHash.hashes(grey: $0).hash == PerceptualHash(grey: $0) })
        // 32 bytes there and back; any other length is no detail hash.
        let detail = DetailHash(grey: pictures[0])
        #expect(DetailHash(bytes: detail.bytes) == detail && detail.bytes.count == 32)
        #expect(DetailHash(bytes: detail.bytes.dropLast()) == nil)
    }

    /// A flat picture's DCT is its DC term alone (by hand: Σ cos(0) · g = 1024 g, every other
    /// sum of cosines over whole periods 0), so the median of the 64 terms is 0 and only
    /// the DC bit is set — at every grey level, not a pattern of rounding noise.
    @Test func everyFlatPictureHashesToTheDCBitAlone() {
        for grey: UInt8 in [1, 137, 138, 255] {
            #expect(
                PerceptualHash(grey: [UInt8](repeating: grey, count: 32 * 32)).value == 0x8000_0000_0000_0000,
                "\(grey)"
            )
            // The detail hash's mean of the AC terms is 0 too: the DC bit alone of 256.
            #expect(
                DetailHash(grey: [UInt8](repeating: grey, count: 32 * 32)).words == [1 << 63, 0, 0, 0],
                "\(grey)"
            )
        }
    }

    /// By hand: the Lanczos kernel is 1 at 0 and 0 at every other whole number, so a picture
    /// of 32 × 32 comes out as it went in; the weights sum to 1, so a flat picture stays flat.
    @Test func squeezingKeepsA32PictureAndAFlatOne() {
        for picture in Self.pictures(count: 3) {
            #expect(
                picture.withUnsafeBufferPointer { PerceptualHash.squeezed(grey: $0, width: 32, height: 32) } == picture
            )
        }
        for (width, height) in [(256, 192), (100, 37), (7, 5)] {
            let flat = [UInt8](repeating: 201, count: width * height)
            let small = flat.withUnsafeBufferPointer { PerceptualHash.squeezed(grey: $0, width: width, height: height) }
            #expect(small == [UInt8](repeating: 201, count: 32 * 32), "\(width) × \(height)")
        }
    }

    /// Against Pillow's `resize((32, 32), LANCZOS)` — imagehash's squeeze, an independent
    /// implementation in fixed point — on seeded pictures of the sizes a thumbnail comes in
    /// (landscape, portrait, a panorama, sides not multiples of 32, smaller than 32): within
    /// one grey level (Pillow rounds after each pass).
    @Test(.enabled(if: imagehashReady, "needs python3 with Pillow (scripts/install-deps.sh)"))
    func squeezingIsPillowsLanczos() throws {
        let sizes = [(256, 192), (192, 256), (256, 61), (100, 37), (20, 10)]
        var random = SplitMix64(seed: 31)
        let folder = try temporaryDirectory()
        var pictures: [[UInt8]] = []
        for (index, (width, height)) in sizes.enumerated() {
            // Smooth pictures with noise, as photos are (white noise alone rings at every tap).
            let waves = (0..<3).map { _ in (Double(random.int(in: 1...9)), Double(random.int(in: 1...9))) }
            let picture = (0..<width * height).map { index -> UInt8 in
                let x = Double(index % width) / Double(width)
                let y = Double(index / width) / Double(height)
                var value = 128.0 + Double(random.int(in: -20...20))
                for (u, v) in waves { value += 30 * cos(.pi * (u * x + v * y)) }
                return UInt8(max(0, min(255, value.rounded())))
            }
            pictures.append(picture)
            try Data(picture).write(to: folder.appendingPathComponent("\(index).raw"))
        }
        let script = """
            import sys
            from PIL import Image
            folder, sizes = sys.argv[1], sys.argv[2:]
            for index, size in enumerate(sizes):
                width, height = map(int, size.split('x'))
                data = open(f'{folder}/{index}.raw', 'rb').read()
                print(Image.frombytes('L', (width, height), data).resize((32, 32), Image.LANCZOS).tobytes().hex())
            """
        let run = try Tool.run("python3", ["-c", script, folder.path] + sizes.map { "\($0.0)x\($0.1)" })
        let expected = run.stdout.split(separator: "\n").map { line in
            stride(from: 0, to: line.count, by: 2).map { offset -> UInt8 in
                let start = line.index(line.startIndex, offsetBy: offset)
                return UInt8(line[start..<line.index(start, offsetBy: 2)], radix: 16) ?? 0
            }
        }
        #expect(expected.count == sizes.count, "\(run.stderr)")
        for ((size, picture), reference) in zip(zip(sizes, pictures), expected) {
            let ours = picture.withUnsafeBufferPointer {
                PerceptualHash.squeezed(grey: $0, width: size.0, height: size.1)
            }
            let worst = zip(ours, reference).map { abs(Int($0) - Int($1)) }.max() ?? 255
            #expect(ours.count == reference.count && worst <= 1, "\(size): differs by up to \(worst)")
        }
    }

    /// From files: the hash of the thumbnail's picture is near imagehash's of the whole
    /// image (upright: Pillow with the EXIF orientation applied), far from other photos',
    /// and the same whether the thumbnail is made in the same job or not.
    @Test(.enabled(if: imagehashReady && Corpus.isAvailable, "needs python3 with imagehash and ../shared/corpus"))
    func aFilesHashIsNearImagehashsAndTheSameWithOrWithoutTheThumbnail() throws {
        let names = [
            "Canon_40D.jpg", "DSCN0010.jpg", "Nikon_D70.jpg", "landscape_6.jpg", "portrait_6.jpg", "jolla.jpg",
            "Pentax_K10D.jpg", "Sony_HDR-HC3.jpg",
        ]
        let paths = names.map { Corpus.root.appendingPathComponent("photos/\($0)").path }
        let script = """
            import sys, imagehash
            from PIL import Image, ImageOps
            for path in sys.argv[1:]:
                print(imagehash.phash(ImageOps.exif_transpose(Image.open(path))))
            """
        let run = try Tool.run("python3", ["-c", script] + paths)
        let reference = run.stdout.split(separator: "\n").compactMap { PerceptualHash(hex: $0) }
        #expect(reference.count == paths.count, "\(run.stdout)")
        let processor = PhotoProcessor()
        var ours: [PerceptualHash] = []
        for (path, expected) in zip(paths, reference) {
            let alone = processor.process(path: path, kinds: [.similarity])
            let withThumbnail = processor.process(path: path, kinds: [.thumbnail, .similarity])
            let hash = try #require(alone.perceptualHash, "\(path): \(alone.errors)")
            #expect(withThumbnail.perceptualHash == hash && withThumbnail.thumbnail != nil, "\(path)")
            #expect(hash.distance(to: expected) <= 8, "\(path): \(hash.hex) vs imagehash \(expected.hex)")
            ours.append(hash)
        }
        // Different pictures are far apart (landscape_6 and portrait_6 are different ones).
        for a in ours.indices {
            for b in ours.indices where a < b {
                #expect(ours[a].distance(to: ours[b]) > 12, "\(names[a]) ~ \(names[b])")
            }
        }
    }

    @Test func aFileWithoutPicturesFailsTheKindByName() throws {
        let folder = try temporaryDirectory()
        let text = folder.appendingPathComponent("note.jpg")
        try Data("not a picture".utf8).write(to: text)
        let result = PhotoProcessor().process(path: text.path, kinds: [.similarity, .thumbnail])
        #expect(result.perceptualHash == nil)
        #expect(result.errors[.similarity]?.errorClass == .notAnImage)
        #expect(result.errors[.similarity]?.message.contains(text.path) == true)
    }
}
