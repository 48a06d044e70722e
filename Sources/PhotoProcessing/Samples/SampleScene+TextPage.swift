import CVips
import Foundation

extension SampleScene {
    /// Black text on a white page, wrapped to the page width, as a scanner would see a
    /// printed sheet. With `height` nil the page ends one margin below the text; text
    /// longer than a given height is cut off.
    ///
    /// `text` is plain text (markup characters are escaped); `font` is a Pango font
    /// description, sized in points at `dpi`.
    public static func textPage(_ text: String, width: Int, height: Int? = nil,
                                font: String = "DejaVu Sans 12", dpi: Int = 300) throws(SampleError) -> RGBImage {
        let margin = max(8, width / 12)
        let textWidth = width - 2 * margin
        guard textWidth > 0 else { throw SampleError(file: nil, message: "a text page \(width) pixels wide has no room for text") }
        let mask: VipsImageRef
        let ink: [UInt8]
        do {
            mask = try textMask(text, font: font, width: textWidth, dpi: dpi)
            ink = try mask.pixels()
        } catch {
            throw SampleError(file: nil, message: "cannot render text with font '\(font)': \(error.message)")
        }
        let pageHeight = height ?? mask.height + 2 * margin
        guard pageHeight > 0, mask.bands == 1, ink.count == mask.width * mask.height else {
            throw SampleError(file: nil, message: "libvips rendered text as an unexpected image")
        }

        var pixels = [UInt8](repeating: 255, count: width * pageHeight * 3)
        let rows = max(0, min(mask.height, pageHeight - margin))
        let columns = min(mask.width, width - margin)
        let maskWidth = mask.width
        ink.withUnsafeBufferPointer { inkBuffer in
            pixels.withUnsafeMutableBufferPointer { buffer in
                let source = inkBuffer.baseAddress!, target = buffer.baseAddress!
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

    /// One band, 255 where there is ink, as tall as the wrapped text.
    private static func textMask(_ text: String, font: String, width: Int, dpi: Int) throws(VipsError) -> VipsImageRef {
        try Vips.ensureInitialised()
        var out: UnsafeMutablePointer<VipsImage>?
        guard pm_vips_text(&out, escapeMarkup(text), font, Int32(width), Int32(dpi)) == 0, let out else {
            throw VipsError(message: Vips.takeError())
        }
        return VipsImageRef(out)
    }

    /// vips_text reads Pango markup.
    private static func escapeMarkup(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
