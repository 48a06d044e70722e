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

import CFFmpeg
import Foundation
import PhotomillCore
import PhotomillTestSupport
import Testing

@testable import PhotoProcessing

/// `ColourConverter` and `ColourEncoding` against published figures and hand
/// calculations: BT.2408's reference white (PQ 58 %, HLG 75 % = 203 cd/m²), SMPTE ST 2084's
/// inverse EOTF written out here, BT.2087's BT.2020-to-BT.709 matrix, FFmpeg's Möbius curve
/// worked by hand.
@Suite struct ColourConverterTests {
    /// ST 2084's inverse EOTF: the PQ code of `nits`, written here from the standard (the
    /// converter holds only the EOTF).
    static func pqCode(nits: Double) -> Double {
        let m1 = 2610.0 / 16384
        let m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096
        let c2 = 2413.0 / 4096 * 32
        let c3 = 2392.0 / 4096 * 32
        let y = pow(nits / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// One grey pixel of `code` (0…1) converted to 8-bit sRGB.
    static func grey(_ code: Double, _ encoding: ColourEncoding) -> [UInt8] {
        let sample = UInt16((code * 65535).rounded())
        return [sample, sample, sample].withUnsafeBufferPointer { ColourConverter(encoding).convert($0, bands: 3) }
    }

    @Test func pqAndHLGReferenceWhiteIsSDRWhite() {
        // BT.2408: 203 cd/m² is PQ 58 % and HLG 75 %.
        #expect(abs(Self.pqCode(nits: 203) - 0.58) < 0.005)
        #expect(abs(ColourConverter.linear(Self.pqCode(nits: 203), transfer: .pq) - 1) < 1e-6)
        #expect(abs(ColourConverter.linear(Self.pqCode(nits: 1000), transfer: .pq) - 1000.0 / 203) < 1e-6)
        // HLG 0.75 → scene light 0.26497 (BT.2100's inverse OETF by hand), which the OOTF
        // at 1,000 cd/m² and gamma 1.2 shows at 1000 × 0.26497^1.2 = 203.15 cd/m².
        #expect(abs(ColourConverter.linear(0.75, transfer: .hlg) - 0.26497) < 1e-4)
        // SDR white → the Möbius curve at 1.0 (knee 0.8, peak 1000/203: a = −0.633545,
        // b = −0.589811, 1.010175 × 0.366455 / 0.410189 = 0.90247) → sRGB 0.9560 → 243.8.
        #expect(
            Self.grey(Self.pqCode(nits: 203), ColourEncoding(primaries: .bt2020, transfer: .pq)) == [244, 244, 244]
        )
        #expect(Self.grey(0.75, ColourEncoding(primaries: .bt2020, transfer: .hlg)) == [244, 244, 244])
    }

    @Test func lightBelowTheKneeIsUntouchedAndHighlightsStayBelowWhite() {
        let pq = ColourEncoding(primaries: .bt2020, transfer: .pq)
        // Half of SDR white (101.5 cd/m²): sRGB's curve of 0.5 is 0.735357 → 187.5.
        #expect((187...188).contains(Self.grey(Self.pqCode(nits: 101.5), pq)[0]))
        // 10 % of SDR white: 0.1 → 0.349190 → 89.0.
        #expect(Self.grey(Self.pqCode(nits: 20.3), pq) == [89, 89, 89])
        // Twice SDR white is compressed, not clipped: the curve gives 0.97886 → sRGB 252.6,
        // between SDR white's 244 and 255.
        #expect((252...253).contains(Self.grey(Self.pqCode(nits: 406), pq)[0]))
        // The curve: continuous at the knee, 1 at the peak, rising.
        #expect(abs(ColourConverter.mobius(0.8, knee: 0.8, peak: 4.926) - 0.8) < 1e-6)
        #expect(abs(ColourConverter.mobius(4.926, knee: 0.8, peak: 4.926) - 1) < 1e-4)
        #expect(ColourConverter.mobius(2, knee: 0.8, peak: 4.926) > ColourConverter.mobius(1.5, knee: 0.8, peak: 4.926))
        // Black stays black.
        #expect(Self.grey(0, pq) == [0, 0, 0])
    }

    @Test func primariesConvertAsPublished() {
        // ITU-R BT.2087, linear BT.2020 to BT.709.
        let bt2020: [Double] = [1.6605, -0.5876, -0.0728, -0.1246, 1.1329, -0.0083, -0.0182, -0.1006, 1.1187]
        for (ours, published) in zip(ColourConverter.toBT709(from: .bt2020), bt2020) {
            #expect(abs(ours - published) < 2e-4)
        }
        // Display P3 to sRGB (D65 both): CSS Color 4's sample code (lin_P3 to XYZ, then XYZ
        // to lin_sRGB) multiplied out, rounded to 4 places; each row sums to 1 (white stays white).
        let p3: [Double] = [1.2249, -0.2249, 0, -0.0421, 1.0421, 0, -0.0196, -0.0786, 1.0983]
        for (ours, published) in zip(ColourConverter.toBT709(from: .displayP3), p3) {
            #expect(abs(ours - published) < 2e-4)
        }
        // A P3 SDR grey stays grey; P3's pure green is outside sRGB, clipped to its green.
        let encoding = ColourEncoding(primaries: .displayP3, transfer: .sdr)
        #expect(Self.grey(128.0 / 255, encoding) == [128, 128, 128])
        let green = [UInt16(0), 65535, 0].withUnsafeBufferPointer { ColourConverter(encoding).convert($0, bands: 3) }
        #expect(green[0] == 0 && green[1] == 255 && green[2] == 0, "\(green)")
    }

    @Test func codePointsAndProfilesNameTheirEncoding() throws {
        #expect(ColourEncoding(primariesCode: 9, transferCode: 16) == ColourEncoding(primaries: .bt2020, transfer: .pq))
        #expect(
            ColourEncoding(primariesCode: 2, transferCode: 18) == ColourEncoding(primaries: .bt2020, transfer: .hlg)
        )
        #expect(ColourEncoding(primariesCode: 1, transferCode: 13)?.needsConversion == false)
        #expect(ColourEncoding(primariesCode: 1, transferCode: 1)?.needsConversion == false)
        #expect(ColourEncoding(primariesCode: 5, transferCode: 16) == nil)
        // An ICC profile with a cicp tag (ICC.1:2022): BT.2020 primaries, PQ.
        var profile =
            [UInt8](repeating: 0, count: 128) + [0, 0, 0, 1] + Array("cicp".utf8) + [0, 0, 0, 144, 0, 0, 0, 12]
        profile += Array("cicp".utf8) + [0, 0, 0, 0, 9, 16, 0, 1]
        #expect(ColourEncoding(iccProfile: profile) == ColourEncoding(primaries: .bt2020, transfer: .pq))
        #expect(
            ColourEncoding.libjxlEncoding("RGB_D65_DCI_Rel_PeQ") == ColourEncoding(primaries: .displayP3, transfer: .pq)
        )
        #expect(ColourEncoding.libjxlEncoding("RGB_D65_SRG_Rel_SRG") == nil)
        #expect(ColourEncoding.libjxlEncoding("sRGB IEC61966-2.1") == nil)
    }

    /// The profile cjxl's libjxl synthesises for a PQ JPEG XL, as libvips hands it over.
    @Test(.enabled(if: Tool.isAvailable("cjxl"), "cjxl is not installed"))
    func aJPEGXLsPQProfileIsRecognised() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var ppm = Array("P6\n8 8\n65535\n".utf8)
        ppm += (0..<(8 * 8 * 3)).flatMap { index -> [UInt8] in [UInt8(index % 200), 0] }
        let source = directory.appendingPathComponent("grey.ppm")
        let jxl = directory.appendingPathComponent("pq.jxl")
        try Data(ppm).write(to: source)
        try Tool.output("cjxl", [source.path, jxl.path, "-x", "color_space=RGB_D65_DCI_Rel_PeQ"])
        let bytes = try Data(contentsOf: jxl)
        let profile = try bytes.withUnsafeBytes { buffer in try VipsImageRef.header(of: buffer).blob("icc-profile-data")
        }
        #expect(
            ColourEncoding(iccProfile: try #require(profile)) == ColourEncoding(primaries: .displayP3, transfer: .pq)
        )
    }

    /// FFmpeg's file protocol lets a demuxer seek past the end (lseek does), and reading
    /// there gives the end of the file; the in-memory input does the same. The seek goes
    /// 1 MiB past the end: avio reads forward, never calling the seek callback, for seeks
    /// within its short-seek threshold (aviobuf.c's SHORT_SEEK_THRESHOLD), failing on EOF.
    @Test func theInMemoryInputSeeksPastTheEndAsAFileDoes() throws {
        let bytes: [UInt8] = Array(0..<100)
        try bytes.withUnsafeBytes { buffer in
            let input = try #require(MemoryInput(bytes: buffer, deadline: .now() + 10))
            #expect(avio_size(input.context) == 100)
            #expect(avio_seek(input.context, 1 << 20, SEEK_SET) == 1 << 20)
            _ = avio_r8(input.context)
            #expect(avio_feof(input.context) != 0)
            #expect(avio_seek(input.context, 42, SEEK_SET) == 42)
            #expect(avio_r8(input.context) == 42)
            #expect(avio_seek(input.context, -1, SEEK_SET) < 0)
        }
    }
}
