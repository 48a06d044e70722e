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

import PhotomillCore

/// Field-level checks shared by every command. Each check throws `invalid-field` naming the
/// command and the field path, and quotes the offending value (shortened: a violation is
/// logged, and the value came from an untrusted peer).
struct FieldChecker {
    let command: Command
    /// Prepended to every field path: `jobs[3].` for an entry of a batch.
    var prefix = ""

    init(command: Command) {
        self.command = command
    }

    /// The checker of one entry of a batch (JOBS, RESULTS), naming its fields `field…`.
    func entry(_ field: String) -> FieldChecker {
        var entry = self
        entry.prefix += field + "."
        return entry
    }

    func violation(
        _ path: String,
        _ problem: String,
        reason: ProtocolViolation.Reason = .invalidField
    ) -> ProtocolViolation {
        ProtocolViolation(reason, command: command, field: prefix + path, "\(command).\(prefix)\(path): \(problem)")
    }

    /// Ids and tokens are compared byte for byte and appear in logs and SQL: printable
    /// ASCII, no spaces, so that no two ids look alike.
    func id(_ value: String, _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        try printable(value, field(), bytes: FieldBounds.idBytes, allowSpace: false)
    }

    /// Printable ASCII (0x21…0x7E, plus the space when allowed) of a bounded length.
    func printable(
        _ value: String,
        _ field: @autoclosure () -> String,
        bytes: ClosedRange<Int>,
        allowSpace: Bool
    ) throws(ProtocolViolation) {
        try length(value, field(), bytes: bytes)
        let lowest: UInt8 = allowSpace ? 0x20 : 0x21
        if !value.allUTF8({ $0 >= lowest && $0 <= 0x7E }) {
            throw violation(field(), "\(quote(value)) has a character outside printable ASCII")
        }
    }

    /// Free text from files or engines (EXIF, OCR, error messages): any Unicode but NUL,
    /// which C consumers of the catalog and exports would silently cut at.
    func text(_ value: String, _ field: @autoclosure () -> String, bytes: ClosedRange<Int>) throws(ProtocolViolation) {
        try length(value, field(), bytes: bytes)
        if !value.allUTF8({ $0 != 0 }) { throw violation(field(), "\(quote(value)) contains NUL") }
    }

    /// Absolute and normalised: a worker compares it with its path roots by prefix, which
    /// a `..` component would defeat.
    func path(_ value: String, _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        try text(value, field(), bytes: FieldBounds.pathBytes)
        guard value.utf8.first == UInt8(ascii: "/") else {
            throw violation(field(), "\(quote(value)) is not an absolute path")
        }
        if value.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) {
            throw violation(field(), "\(quote(value)) has a '.' or '..' component")
        }
    }

    /// Lowercase machine-readable names such as error classes (`not-an-image`).
    func slug(_ value: String, _ field: @autoclosure () -> String, bytes: ClosedRange<Int>) throws(ProtocolViolation) {
        try length(value, field(), bytes: bytes)
        let allowed = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }
        if !value.allUTF8(allowed) || value.utf8.first == UInt8(ascii: "-") {
            throw violation(field(), "\(quote(value)) is not lowercase letters, digits and '-'")
        }
    }

    /// One tesseract language name: letters, digits and '_' ("eng", "chi_sim").
    func ocrLanguageName(_ value: String, _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        try length(value, field(), bytes: FieldBounds.ocrLanguageNameBytes)
        let allowed = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
        if !value.allUTF8(allowed) {
            throw violation(field(), "\(quote(value)) is not a tesseract language name")
        }
    }

    /// Names joined by '+' ("eng+deu"), as tesseract takes them.
    func ocrLanguageSpec(_ value: String, _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        try length(value, field(), bytes: FieldBounds.ocrLanguageSpecBytes)
        for name in value.split(separator: "+", omittingEmptySubsequences: false) {
            try ocrLanguageName(String(name), field())
        }
    }

    func length(_ value: String, _ field: @autoclosure () -> String, bytes: ClosedRange<Int>) throws(ProtocolViolation)
    {
        let count = value.utf8.count
        guard bytes.contains(count) else {
            throw violation(field(), count == 0 ? "is empty" : "\(quote(value)) is \(count) bytes, outside \(bytes)")
        }
    }

    func range<Value: Comparable>(
        _ value: Value,
        _ bounds: ClosedRange<Value>,
        _ field: @autoclosure () -> String
    ) throws(ProtocolViolation) {
        guard bounds.contains(value) else { throw violation(field(), "\(value) is outside \(bounds)") }
    }

    /// Within bounds and not NaN (which every comparison lets through) or infinite.
    func finite(
        _ value: Double,
        _ bounds: ClosedRange<Double>,
        _ field: @autoclosure () -> String,
        positive: Bool = false
    ) throws(ProtocolViolation) {
        guard value.isFinite, bounds.contains(value), !positive || value > 0 else {
            throw violation(
                field(),
                "\(value) is outside \(positive ? "(" : "[")\(bounds.lowerBound), \(bounds.upperBound)]"
            )
        }
    }

    func count(_ count: Int, _ bounds: ClosedRange<Int>, _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        guard bounds.contains(count) else { throw violation(field(), "has \(count) entries, outside \(bounds)") }
    }

    /// A known kind: not zero (unset) and not a value from a newer protocol revision.
    func kind(_ kind: Photomill_V1_Kind, _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        guard Kind(kind) == nil else { return }
        if kind == .unspecified { throw violation(field(), "kind is unset") }
        throw violation(field(), "kind \(kind.rawValue) is unknown")
    }

    /// A non-empty list of known kinds without repeats. With `allowingNewer`, values from a
    /// newer revision are let through (a newer worker may offer more than this code knows)
    /// as long as one known kind remains.
    @discardableResult
    func kinds(
        _ kinds: [Photomill_V1_Kind],
        _ field: @autoclosure () -> String,
        allowingNewer: Bool = false
    ) throws(ProtocolViolation) -> Set<Photomill_V1_Kind> {
        guard !kinds.isEmpty else { throw violation(field(), "is empty") }
        var seen: Set<Photomill_V1_Kind> = []
        for (index, kind) in kinds.enumerated() {
            if !(allowingNewer && kind.rawValue > 0) { try self.kind(kind, "\(field())[\(index)]") }
            guard seen.insert(kind).inserted else {
                throw violation("\(field())[\(index)]", "\(kind.name) is repeated")
            }
        }
        guard seen.contains(where: Photomill_V1_Kind.known.contains) else {
            throw violation(field(), "has no kind this revision knows")
        }
        return seen
    }

    /// Strings from which no two entries are equal.
    func unique(_ values: [String], _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        var seen: Set<String> = []
        for (index, value) in values.enumerated() where !seen.insert(value).inserted {
            throw violation("\(field())[\(index)]", "\(quote(value)) is repeated")
        }
    }

    /// A value for a log line: escaped and cut short.
    func quote(_ value: String) -> String {
        let limit = 64
        let shown = value.unicodeScalars.count > limit ? String(value.unicodeScalars.prefix(limit)) + "…" : value
        return String(reflecting: shown)
    }
}

extension String {
    /// Whether every UTF-8 byte satisfies `predicate`, read from the string's contiguous
    /// storage: walking `utf8` byte by byte costs several times more, and the checks run
    /// over every field of every message the coordinator receives.
    func allUTF8(_ predicate: (UInt8) -> Bool) -> Bool {
        var copy = self
        return copy.withUTF8 { $0.allSatisfy(predicate) }
    }
}
