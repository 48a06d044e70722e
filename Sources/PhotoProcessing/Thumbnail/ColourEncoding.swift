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

/// How a picture's numbers stand for light, by the code points of ITU-T H.273 — the
/// values a HEIF's `nclx` colour box, FFmpeg's `AVColorPrimaries`/`AVColorTransferCharacteristic`
/// and an ICC profile's `cicp` tag all carry — reduced to what a thumbnail needs: which
/// primaries, and which transfer function.
///
/// A thumbnail is 8-bit sRGB. Pictures in BT.709/sRGB primaries with an SDR transfer are
/// that already (photomill takes BT.709's and BT.601's camera curves as sRGB, as browsers
/// and FFmpeg's own RGB conversion do), so `needsConversion` is false for them and their
/// pixels go the way they always went. Wider primaries (Display P3, BT.2020) and the HDR
/// transfers (PQ, HLG) are converted (`ColourConverter`).
struct ColourEncoding: Hashable, Sendable, CustomStringConvertible {
    enum Primaries: Hashable, Sendable {
        /// BT.709, the primaries of sRGB (H.273 1; 2 "unspecified" is taken as this).
        case bt709
        /// BT.2020 and BT.2100 (H.273 9).
        case bt2020
        /// SMPTE EG 432-1, Display P3 (H.273 12), and SMPTE RP 431-2, DCI-P3 (11),
        /// taken with the D65 white point of the first.
        case displayP3
    }

    enum Transfer: Hashable, Sendable {
        /// The sRGB curve (H.273 13) and the SDR camera curves shown as sRGB: BT.709 (1),
        /// BT.601 (6), BT.2020 (14, 15); 2 (unspecified) too.
        case sdr
        /// A pure power law (H.273 4: 2.2, 5: 2.8).
        case gamma(Double)
        /// Linear light (H.273 8).
        case linear
        /// SMPTE ST 2084, BT.2100's perceptual quantizer (H.273 16): absolute light up to
        /// 10,000 cd/m².
        case pq
        /// ARIB STD-B67, BT.2100's hybrid log-gamma (H.273 18): scene-relative light.
        case hlg
    }

    var primaries: Primaries
    var transfer: Transfer

    static let sRGB = ColourEncoding(primaries: .bt709, transfer: .sdr)

    init(primaries: Primaries, transfer: Transfer) {
        self.primaries = primaries
        self.transfer = transfer
    }

    /// From H.273 code points; nil when either is one photomill does not convert (the
    /// picture is then shown as sRGB, as before).
    init?(primariesCode: Int, transferCode: Int) {
        switch primariesCode {
        case 1, 2: primaries = .bt709
        case 9: primaries = .bt2020
        case 11, 12: primaries = .displayP3
        default: return nil
        }
        switch transferCode {
        case 1, 2, 6, 13, 14, 15: transfer = .sdr
        case 4: transfer = .gamma(2.2)
        case 5: transfer = .gamma(2.8)
        case 8: transfer = .linear
        case 16: transfer = .pq
        case 18: transfer = .hlg
        default: return nil
        }
        // BT.2100's transfers with primaries left unspecified: BT.2100's primaries.
        if primariesCode == 2, transfer == .pq || transfer == .hlg { primaries = .bt2020 }
    }

    /// PQ or HLG: light beyond SDR white, which must be tone-mapped to fit sRGB.
    var isHDR: Bool { transfer == .pq || transfer == .hlg }

    /// Whether the pixels need converting to be shown as sRGB.
    var needsConversion: Bool { self != .sRGB }

    var description: String {
        let primaries =
            switch self.primaries {
            case .bt709: "BT.709"
            case .bt2020: "BT.2020"
            case .displayP3: "Display P3"
            }
        let transfer =
            switch self.transfer {
            case .sdr: "SDR"
            case .gamma(let gamma): "gamma \(gamma)"
            case .linear: "linear"
            case .pq: "PQ"
            case .hlg: "HLG"
            }
        return "\(primaries) \(transfer)"
    }
}

extension ColourEncoding {
    /// The encoding an ICC profile names for itself, when it names one of these: its
    /// `cicp` tag (ICC.1:2022, H.273 code points), else the colour-encoding description
    /// libjxl writes into the profiles it synthesises for a JPEG XL's colour encoding
    /// ("RGB_D65_202_Rel_PeQ": colour space, white point, primaries, rendering intent,
    /// transfer function). libvips hands a JPEG XL's colour encoding over as such a
    /// profile only; lcms, which would apply it, takes PQ's 10,000 cd/m² as white, so a
    /// PQ picture comes out nearly black and HLG without its system gamma. Nil for an
    /// ordinary profile, which libvips applies itself.
    init?(iccProfile bytes: [UInt8]) {
        guard bytes.count >= 132 else { return nil }
        func uint32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            return bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        guard let count = uint32(128), count <= 1000 else { return nil }
        var description: String?
        for index in 0..<count {
            let entry = 132 + 12 * index
            guard let offset = uint32(entry + 4), let size = uint32(entry + 8), offset + size <= bytes.count,
                entry + 12 <= bytes.count
            else { return nil }
            let signature = String(decoding: bytes[entry..<(entry + 4)], as: UTF8.self)
            let tag = Array(bytes[offset..<(offset + size)])
            if signature == "cicp", tag.count >= 12, tag[0..<4].elementsEqual("cicp".utf8) {
                self.init(primariesCode: Int(tag[8]), transferCode: Int(tag[9]))
                return
            }
            if signature == "desc" { description = Self.text(ofDescription: tag) }
        }
        guard let description, let encoding = Self.libjxlEncoding(description) else { return nil }
        self = encoding
    }

    /// The text of a `desc` tag: `mluc` (UTF-16BE, the first record) or `desc` (ASCII).
    private static func text(ofDescription tag: [UInt8]) -> String? {
        guard tag.count >= 12 else { return nil }
        let type = String(decoding: tag[0..<4], as: UTF8.self)
        func uint32(_ at: Int) -> Int { tag[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        if type == "mluc", tag.count >= 28 {
            let length = uint32(20)
            let offset = uint32(24)
            guard offset + length <= tag.count, length % 2 == 0 else { return nil }
            let units = stride(from: offset, to: offset + length, by: 2).map {
                UInt16(tag[$0]) << 8 | UInt16(tag[$0 + 1])
            }
            return String(decoding: units, as: UTF16.self).trimmingCharacters(in: ["\0"])
        }
        if type == "desc" {
            let length = uint32(8)
            guard 12 + length <= tag.count else { return nil }
            return String(decoding: tag[12..<(12 + length)], as: UTF8.self).trimmingCharacters(in: ["\0"])
        }
        return nil
    }

    /// libjxl's description of an RGB colour encoding: "RGB_D65_202_Rel_PeQ",
    /// "RGB_D65_DCI_Per_HLG", "RGB_D65_SRG_Rel_SRG"; nil for any other text, or for an
    /// encoding that needs no conversion.
    static func libjxlEncoding(_ description: String) -> ColourEncoding? {
        let parts = description.split(separator: "_")
        guard parts.count == 5, parts[0] == "RGB" else { return nil }
        let primaries: Primaries
        switch parts[2] {
        case "SRG": primaries = .bt709
        case "202": primaries = .bt2020
        case "DCI": primaries = .displayP3
        default: return nil
        }
        let transfer: Transfer
        switch parts[4] {
        case "PeQ": transfer = .pq
        case "HLG": transfer = .hlg
        case "SRG", "709": transfer = .sdr
        case "Lin": transfer = .linear
        default: return nil
        }
        let encoding = ColourEncoding(primaries: primaries, transfer: transfer)
        return encoding.needsConversion ? encoding : nil
    }
}
