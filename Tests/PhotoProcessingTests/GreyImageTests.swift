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

import Testing

@testable import PhotoProcessing

@Suite struct GreyImageTests {
    // 3×2 image:  0 1 2
    //             3 4 5
    let image = GreyImage(width: 3, height: 2, pixels: [0, 1, 2, 3, 4, 5])

    @Test func quarterTurnsByHand() {
        // Turned clockwise, the left column (bottom first) becomes the top row.
        let cw = image.rotated(clockwise: 90)
        #expect(cw.width == 2 && cw.height == 3)
        #expect(cw.pixels == [3, 0, 4, 1, 5, 2])
        let ccw = image.rotated(clockwise: 270)
        #expect(ccw.pixels == [2, 5, 1, 4, 0, 3])
        #expect(image.rotated(clockwise: 180).pixels == [5, 4, 3, 2, 1, 0])
        #expect(cw.rotated(clockwise: 270).pixels == image.pixels)
    }
}
