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

/// A video stream's display matrix (FFmpeg's `AV_PKT_DATA_DISPLAYMATRIX`, from the
/// QuickTime/MP4 track header), read as the EXIF orientation that shows the stored
/// pictures upright.
///
/// The matrix is nine 32-bit numbers, row-major: `a b u / c d v / x y w` (a…d and x, y in
/// 16.16 fixed point). It maps a stored pixel (p, q) to the displayed
/// (a·p + c·q + x, b·p + d·q + y), with y growing downwards. Only its 2×2 part matters for
/// orientation, and for the eight right-angle cases its entries are 0 and ±1 (times a
/// scale):
///
/// | EXIF | what the viewer must do     | (a, b, c, d)   | exiftool Rotation |
/// |------|-----------------------------|----------------|-------------------|
/// | 1    | nothing                     | ( 1,  0,  0,  1) | 0   |
/// | 2    | mirror left–right           | (-1,  0,  0,  1) | —   |
/// | 3    | rotate 180°                 | (-1,  0,  0, -1) | 180 |
/// | 4    | mirror top–bottom           | ( 1,  0,  0, -1) | —   |
/// | 5    | transpose                   | ( 0,  1,  1,  0) | —   |
/// | 6    | rotate 90° clockwise        | ( 0,  1, -1,  0) | 90  |
/// | 7    | transverse                  | ( 0, -1, -1,  0) | —   |
/// | 8    | rotate 90° counter-clockwise | ( 0, -1,  1,  0) | 270 |
///
/// (An iPhone's portrait video holds `0 1 0 / -1 0 0 / h 0 1`: orientation 6, exiftool's
/// Rotation 90. `av_display_rotation_get` gives the same matrix as −90: it counts degrees
/// counter-clockwise; exiftool's Rotation counts them clockwise.) The table is read from
/// the signs rather than from `av_display_rotation_get`'s angle so that mirrored matrices,
/// which an angle cannot express, come out right too.
enum DisplayMatrix {
    /// 1…8; nil for a matrix that is not a right-angle rotation or mirror (a skew, an odd
    /// angle, a zero row) or has fewer than nine entries. Each row is taken to its own
    /// scale, so a matrix that also stretches one axis (anamorphic video) still counts.
    static func orientation(_ matrix: [Int32]) -> Int? {
        guard matrix.count >= 9 else { return nil }
        var signs: [Int] = []
        for row in [[matrix[0], matrix[1]], [matrix[3], matrix[4]]] {
            let entries = row.map(Double.init)
            let scale = max(abs(entries[0]), abs(entries[1]))
            guard scale > 0 else { return nil }
            for entry in entries {
                let unit = entry / scale
                if abs(unit) < 0.01 {
                    signs.append(0)
                } else if abs(unit) > 0.99 {
                    signs.append(unit > 0 ? 1 : -1)
                } else {
                    return nil
                }
            }
        }
        switch (signs[0], signs[1], signs[2], signs[3]) {
        case (1, 0, 0, 1): return 1
        case (-1, 0, 0, 1): return 2
        case (-1, 0, 0, -1): return 3
        case (1, 0, 0, -1): return 4
        case (0, 1, 1, 0): return 5
        case (0, 1, -1, 0): return 6
        case (0, -1, -1, 0): return 7
        case (0, -1, 1, 0): return 8
        default: return nil
        }
    }
}
