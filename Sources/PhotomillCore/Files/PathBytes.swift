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
        if let plain = String(validating: bytes, as: UTF8.self),
            !plain.unicodeScalars.contains(where: { $0.value >= escapeBase })
        {
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
            if scalar.value >= escapeBase {
                bytes.append(UInt8(scalar.value - escapeBase))
            } else {
                bytes += Array(String(scalar).utf8)
            }
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

    /// For people, on a terminal: each byte of a name that is not UTF-8 as `\xNN`, and each
    /// control character as `\n`, `\r`, `\t` or `\xNN` (C0 and DEL) or `\u{NN}` (C1, and
    /// the bidirectional overrides that make a name read other than it is); anything else
    /// as it is. The one rule for every text photomill prints for people (reports, errors,
    /// logs on a terminal): a name can neither drive the terminal (ESC, OSC, BEL) nor
    /// start a line of its own (a forged record). Apply it to one line at a time.
    public static func display(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= escapeBase || isControl($0) }) else { return text }
        var shown = String.UnicodeScalarView()
        func append(_ text: String) { shown.append(contentsOf: text.unicodeScalars) }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case escapeBase...: append(String(format: "\\x%02X", scalar.value - escapeBase))
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x00..<0x20, 0x7F: append(String(format: "\\x%02X", scalar.value))
            case _ where isControl(scalar): append(String(format: "\\u{%X}", scalar.value))
            default: shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// C0, DEL, C1, and the bidirectional embeddings, overrides and isolates.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Inside JSON text, where the encoder escaped every control character already and the
    /// backslash itself is escaped: each byte that is not UTF-8 decodes to `\xNN`.
    public static func displayJSON(_ json: String) -> String {
        guard isEscaped(json) else { return json }
        var shown = ""
        for scalar in json.unicodeScalars {
            if scalar.value >= escapeBase {
                shown += "\\\\" + String(format: "x%02X", scalar.value - escapeBase)
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
        let length: Int
        let minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF:
            length = 2
            minimum = 0x80
            value = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            length = 3
            minimum = 0x800
            value = UInt32(lead & 0x0F)
        case 0xF0...0xF4:
            length = 4
            minimum = 0x10000
            value = UInt32(lead & 0x07)
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
