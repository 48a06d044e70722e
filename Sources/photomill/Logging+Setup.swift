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
import Logging
import PhotomillCore

enum Logs {
    /// Bootstraps swift-log once per process: lines on stderr, at the given level.
    static func make(_ label: String, level: String) -> Logger {
        bootstrapOnce
        var logger = Logger(label: label)
        logger.logLevel = Logger.Level(rawValue: level) ?? .info
        return logger
    }

    private static let bootstrapOnce: Void = {
        LoggingSystem.bootstrap { EscapingLogHandler(StreamLogHandler.standardError(label: $0)) }
    }()
}

/// swift-log's stream handler, with the message and every metadata value escaped as all
/// text for people is (`PathBytes.display`): a file name or a pause reason in a log line
/// can neither drive the terminal nor begin a line of its own.
struct EscapingLogHandler: LogHandler {
    private var inner: StreamLogHandler

    init(_ inner: StreamLogHandler) { self.inner = inner }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue.mapValues(Self.escape) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue.map(Self.escape) }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(PathBytes.display(event.message.description))"
        event.metadata = event.metadata?.mapValues(Self.escape)
        inner.log(event: event)
    }

    static func escape(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(PathBytes.display(text))
        case .stringConvertible(let value): .string(PathBytes.display(value.description))
        case .array(let values): .array(values.map(escape))
        case .dictionary(let values): .dictionary(values.mapValues(escape))
        }
    }
}
