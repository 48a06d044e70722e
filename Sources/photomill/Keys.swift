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

extension Photomill {
    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "CURVE keys for encrypted, authenticated tcp:// connections.",
            subcommands: [Generate.self]
        )

        struct Generate: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Write a new key pair: NAME.key (secret, mode 0600) and NAME.pub (public).",
                discussion: """
                    The coordinator takes its NAME.key with --key; each worker takes the coordinator's \
                    NAME.pub with --server-key. A worker's NAME.pub is one line, the key and its name, \
                    to append to the coordinator's allow-list (--allow). Existing files are never \
                    overwritten.
                    """
            )

            @Option(
                help: ArgumentHelp(
                    "Path and name of the pair, without extension (e.g. /etc/photomill/coordinator).",
                    valueName: "NAME"
                )
            )
            var out: String

            func validate() throws {
                guard !out.isEmpty, !out.hasSuffix("/") else {
                    throw ValidationError("--out must name a file, e.g. --out worker1")
                }
            }

            func run() throws {
                do {
                    try KeyFile.generate(out)
                } catch {
                    printError("photomill keys generate: \(error)")
                    throw ExitCode.cannotCreate
                }
                say("wrote \(out).key (secret, mode 0600) and \(out).pub (public)")
            }
        }
    }
}
