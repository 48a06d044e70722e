import Foundation

/// File names are bytes on Linux; a Swift `String` holds Unicode. photomill keeps every
/// path as a String in which valid UTF-8 is itself and each byte that is not (and each
/// byte of a character U+10FF00–U+10FFFF, so that the mapping stays one-to-one) is the
/// private-use scalar U+10FF00 + byte. Such a String is valid UTF-8 (the catalog's TEXT,
/// the protocol's `string`), sorts and compares as before, and gives the exact bytes back:
/// every open, stat and listing of a photo's path goes through `withCString`. A name that
/// is valid UTF-8 is the same String it always was.
public enum PathBytes {
    private static let escapeBase: UInt32 = 0x10FF00

    /// The String form of a file name's or path's bytes.
    public static func string(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        if let plain = String(validating: bytes, as: UTF8.self), !plain.unicodeScalars.contains(where: { $0.value >= escapeBase }) {
            return plain
        }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = decode(bytes, at: index), scalar.value < escapeBase {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[index]))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `path` stands for.
    public static func bytes(_ path: String) -> [UInt8] {
        guard isEscaped(path) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        for scalar in path.unicodeScalars {
            if scalar.value >= escapeBase { bytes.append(UInt8(scalar.value - escapeBase)) } else { bytes += Array(String(scalar).utf8) }
        }
        return bytes
    }

    /// Whether `path` holds a byte that is not UTF-8.
    public static func isEscaped(_ path: String) -> Bool {
        path.unicodeScalars.contains { $0.value >= escapeBase }
    }

    /// Calls `body` with the path's bytes as a C string (for open, stat, opendir).
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        guard isEscaped(path) else { return try path.withCString(body) }
        let bytes = self.bytes(path).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// For people: each byte that is not UTF-8 as `\xNN`; anything else as it is. Works on
    /// any text holding such paths (only paths hold the escapes).
    public static func display(_ text: String) -> String { replacingEscapes(in: text, backslash: "\\") }

    /// The same inside JSON text, where the backslash itself is escaped: the string decodes
    /// to `\xNN`.
    public static func displayJSON(_ json: String) -> String { replacingEscapes(in: json, backslash: "\\\\") }

    private static func replacingEscapes(in text: String, backslash: String) -> String {
        guard isEscaped(text) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= escapeBase {
                shown += backslash + String(format: "x%02X", scalar.value - escapeBase)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// The names in the folder at `path` (not "." and ".."), as `readdir` gives them; nil
    /// and errno when it cannot be listed.
    public static func names(inFolder path: String) -> Result<[String], FileStampError> {
        guard let folder = withCString(path, { opendir($0) }) else { return .failure(FileStampError(code: errno)) }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                string(raw.prefix { $0 != 0 })
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    /// One UTF-8 sequence at `index`, if it is valid (no overlong form, no surrogate).
    private static func decode(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: length = 2; minimum = 0x80; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
