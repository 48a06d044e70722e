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

import Catalog
import Dashboard
import Foundation
import PhotomillCore

extension OperatorViews {
    /// The dashboard's API answers with the CLI's own `--json` shapes.
    static let cli: OperatorViews = {
        var views = OperatorViews(
            status: { Data(StatusReport($0).jsonString().utf8) },
            workers: { Data(JSONLines().line(StatusReport($0).workers).utf8) },
            failed: { failures in Data(JSONLines().line(failures.map(FailedLine.init)).utf8) },
            requeued: { counts, dryRun in Data(jsonLine(RequeueReport(counts: counts, dryRun: dryRun)).utf8) },
            paused: { paused, changed in Data(jsonLine(PauseReport(paused: paused, changed: changed)).utf8) }
        )
        views.library = { Data(jsonLine(LibraryReport($0)).utf8) }
        views.scanRequested = { request, paths in
            Data(jsonLine(ScanAnswer(request: request, paths: paths, done: false)).utf8)
        }
        return views
    }()
}
