import Foundation

/// One JSON value on one line, keys sorted: what `--json` prints (JSON Lines for lists).
func jsonLine<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
}

/// A time as ISO 8601 UTC, as every report prints times.
func isoTime(_ seconds: Double) -> String {
    Date(timeIntervalSince1970: seconds).formatted(.iso8601)
}
