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

import ArgumentParser
import Coordinator
import Foundation
import Logging
import Worker

/// The coordinator's CURVE flags. CURVE is required for tcp:// unless `--insecure`.
struct CoordinatorSecurityFlags: ParsableArguments {
    @Option(
        name: .customLong("key"),
        help: ArgumentHelp(
            "The coordinator's secret key (NAME.key from `photomill keys generate`); turns CURVE on.",
            valueName: "FILE"
        )
    )
    var keyFile: String?

    @Option(
        name: .customLong("allow"),
        help: ArgumentHelp(
            "Allow-list: the workers' public keys, one per line; re-read on SIGHUP or when it changes.",
            valueName: "FILE"
        )
    )
    var allowList: String?

    @Flag(help: "Plaintext tcp:// with no authentication: for a trusted network only.")
    var insecure = false

    func validate(bind: [String]) throws {
        if insecure && (keyFile != nil || allowList != nil) {
            throw ValidationError("--insecure turns CURVE off: give it without --key and --allow")
        }
        if (keyFile == nil) != (allowList == nil) {
            throw ValidationError(
                "CURVE needs both --key FILE (the coordinator's secret key) and --allow FILE (the workers' public keys)"
            )
        }
        if let endpoint = bind.first(where: { $0.hasPrefix("tcp://") }), keyFile == nil, !insecure {
            throw ValidationError(
                """
                --bind \(endpoint) needs CURVE: give --key FILE (the coordinator's secret key) and --allow FILE \
                (the workers' public keys), made with `photomill keys generate` (docs/deploy.md); \
                or --insecure on a trusted network
                """
            )
        }
    }

    /// Nil when CURVE is off. Errors name the file and the cause, never the secret.
    func security(logger: Logger) throws -> CoordinatorConfiguration.Security? {
        guard let keyFile, let allowList else { return nil }
        let pair = try KeyFile.keyPair(keyFile, flag: "--key")
        do {
            return .init(secretKey: pair.secretKey, admission: try Admission(path: allowList, logger: logger))
        } catch {
            throw KeyFile.Failure(description: "--allow \(error)")
        }
    }
}

/// The worker's CURVE flags. CURVE is required for tcp:// unless `--insecure`.
struct WorkerSecurityFlags: ParsableArguments {
    @Option(
        name: .customLong("key"),
        help: ArgumentHelp("This worker's secret key (NAME.key from `photomill keys generate`).", valueName: "FILE")
    )
    var keyFile: String?

    @Option(
        name: .customLong("server-key"),
        help: ArgumentHelp(
            "The coordinator's public key (its NAME.pub): the only server this worker talks to.",
            valueName: "FILE"
        )
    )
    var serverKeyFile: String?

    @Flag(help: "Plaintext tcp:// with no authentication: for a trusted network only.")
    var insecure = false

    func validate(connect: String) throws {
        if insecure && (keyFile != nil || serverKeyFile != nil) {
            throw ValidationError("--insecure turns CURVE off: give it without --key and --server-key")
        }
        if (keyFile == nil) != (serverKeyFile == nil) {
            throw ValidationError(
                "CURVE needs both --key FILE (this worker's secret key) and --server-key FILE (the coordinator's public key)"
            )
        }
        if connect.hasPrefix("tcp://"), keyFile == nil, !insecure {
            throw ValidationError(
                """
                --connect \(connect) needs CURVE: give --key FILE (this worker's secret key) and --server-key FILE \
                (the coordinator's NAME.pub), made with `photomill keys generate` (docs/deploy.md); \
                or --insecure on a trusted network
                """
            )
        }
    }

    func security() throws -> WorkerConfiguration.Security? {
        guard let keyFile, let serverKeyFile else { return nil }
        let pair = try KeyFile.keyPair(keyFile, flag: "--key")
        let server = try KeyFile.publicKey(serverKeyFile, flag: "--server-key")
        return .init(serverKey: server, publicKey: pair.publicKey, secretKey: pair.secretKey)
    }
}
