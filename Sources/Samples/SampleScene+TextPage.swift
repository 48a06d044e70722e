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

extension SampleScene {
    /// Black text on a white page, wrapped to the page width, as a scanner would see a
    /// printed sheet. With `height` nil the page ends one margin below the text; text
    /// longer than a given height is cut off.
    ///
    /// `text` is plain text (markup characters are escaped); `font` is a Pango font
    /// description, sized in points at `dpi`.
    public static func textPage(
        _ text: String,
        width: Int,
        height: Int? = nil,
        font: String = "DejaVu Sans 12",
        dpi: Int = 300
    ) throws(SampleError) -> RGBImage {
        let margin = max(8, width / 12)
        let textWidth = width - 2 * margin
        guard textWidth > 0 else {
            throw SampleError(file: nil, message: "a text page \(width) pixels wide has no room for text")
        }
        let mask: (width: Int, height: Int, ink: [UInt8])
        do {
            mask = try ImageEncoder.textMask(escapeMarkup(text), font: font, width: textWidth, dpi: dpi)
        } catch {
            throw SampleError(file: nil, message: "cannot render text with font '\(font)': \(error.message)")
        }
        let ink = mask.ink
        let pageHeight = height ?? mask.height + 2 * margin
        guard pageHeight > 0 else {
            throw SampleError(file: nil, message: "libvips rendered text as an unexpected image")
        }

        var pixels = [UInt8](repeating: 255, count: width * pageHeight * 3)
        let rows = max(0, min(mask.height, pageHeight - margin))
        let columns = min(mask.width, width - margin)
        let maskWidth = mask.width
        ink.withUnsafeBufferPointer { inkBuffer in
            pixels.withUnsafeMutableBufferPointer { buffer in
                let source = inkBuffer.baseAddress!
                let target = buffer.baseAddress!
                for y in 0..<rows {
                    var i = ((y + margin) * width + margin) * 3
                    var s = y * maskWidth
                    for _ in 0..<columns {
                        let value = 255 &- source[s]
                        target[i] = value
                        target[i + 1] = value
                        target[i + 2] = value
                        i += 3
                        s += 1
                    }
                }
            }
        }
        return RGBImage(width: width, height: pageHeight, pixels: pixels)
    }

    /// vips_text reads Pango markup.
    private static func escapeMarkup(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
