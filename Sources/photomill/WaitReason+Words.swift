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

extension WaitReason {
    /// Why the tasks of `kind` wait, in words (`status`, the run's summary, the dashboard).
    func words(for kind: Kind) -> String {
        switch self {
        case .notAskedFor(let asked):
            "not asked for (--kinds \(asked.map(\.rawValue).sorted().joined(separator: ","))); a run without --kinds does them"
        case .noWorkerConnected:
            "no worker connected"
        case .languageNotOffered(let language, let offered):
            "no connected worker offers \(kind.title) in \(language) (they offer \(offered.joined(separator: ", ")))"
        case .kindNotOffered:
            "no connected worker offers \(kind.rawValue)"
        }
    }
}
