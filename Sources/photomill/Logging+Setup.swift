import Foundation
import Logging

enum Logs {
    /// Bootstraps swift-log once per process: lines on stderr, at the given level.
    static func make(_ label: String, level: String) -> Logger {
        bootstrapOnce
        var logger = Logger(label: label)
        logger.logLevel = Logger.Level(rawValue: level) ?? .info
        return logger
    }

    private static let bootstrapOnce: Void = {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
    }()
}
