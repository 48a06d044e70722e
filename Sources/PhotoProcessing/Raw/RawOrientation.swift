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

/// LibRaw's `sizes.flip` as an EXIF orientation.
///
/// `flip` is dcraw's bit field (4 transpose, 2 mirror top to bottom, 1 mirror left to
/// right), which LibRaw fills from the EXIF Orientation with
/// `flip = "50132467"[orientation & 7] - '0'` (src/metadata/tiff.cpp), and from makers'
/// own tags in degrees normalised to 0, 3 (180°), 5 (270°) and 6 (90°). This is that
/// table's inverse; raw-identify's "Image flip" on DNGs written with Orientation 1…8
/// reads 0, 1, 3, 2, 4, 6, 7, 5.
enum RawOrientation {
    static func exifOrientation(flip: Int) -> Int {
        switch flip {
        case 1: 2
        case 2: 4
        case 3: 3
        case 4: 5
        case 5: 8
        case 6: 6
        case 7: 7
        default: 1
        }
    }
}
