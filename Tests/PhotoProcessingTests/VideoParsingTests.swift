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

/// The text and number formats videos record, parsed without FFmpeg. Expected values are
/// worked out by hand from the formats' definitions (ISO 8601, ISO 6709 Annex H, the
/// QuickTime display matrix and EXIF orientation).
@Suite struct VideoParsingTests {
    @Test(arguments: [
        // Apple's creationdate: local time and its offset.
        ("2019-05-18T12:00:00+0200", "2019-05-18T12:00:00+02:00"),
        ("2019-05-18T12:00:00-0730", "2019-05-18T12:00:00-07:30"),
        ("2019-05-18T12:00:00+02:00", "2019-05-18T12:00:00+02:00"),
        ("2019-05-18T12:00:00+05", "2019-05-18T12:00:00+05:00"),
        // FFmpeg's creation_time: UTC, with microseconds.
        ("2020-05-11T14:18:35.000000Z", "2020-05-11T14:18:35Z"),
        // No offset: local time as it stands; a space for the T; padding.
        ("2019-05-18 12:00:00", "2019-05-18T12:00:00"),
        (" 2019-05-18T12:00:00Z\0", "2019-05-18T12:00:00Z"),
        ("2020-02-29T23:59:59Z", "2020-02-29T23:59:59Z"),
    ])
    func datesBecomeISO8601(text: String, expected: String) {
        #expect(VideoDate.iso8601(text) == expected)
    }

    @Test(arguments: [
        // Clocks never set: the two container epochs and year 0000.
        "1904-01-01T00:00:00Z", "1970-01-01T00:00:00.000000Z", "1970-01-01T00:00:07Z", "0000-00-00T00:00:00Z",
        // Out of range.
        "2019-02-29T12:00:00Z", "2019-13-01T12:00:00Z", "2019-05-32T12:00:00Z", "2019-05-18T24:00:00Z",
        "2019-05-18T12:60:00Z", "2019-05-18T12:00:00+1900", "2019-05-18T12:00:00+0260",
        // Not a date.
        "", "garbage", "2019-05-18", "2019-05-18T12:00:00+02:00junk", "2019-05-18T12:00:00.Z", "2019:05:18 12:00:00",
    ])
    func garbageDatesAreAbsent(text: String) {
        #expect(VideoDate.iso8601(text) == nil)
    }

    @Test(arguments: [
        // Apple's form, with altitude; degrees.
        ("+48.8577+002.2950+035.000/", 48.8577, 2.295),
        // ffmpeg's location tag: southern and western.
        ("-33.8568+151.2153/", -33.8568, 151.2153),
        ("+37.4220-122.0841/", 37.4220, -122.0841),
        // Degrees and minutes: 48° 51.462′ = 48.8577°, 2° 17.7′ = 2.295°.
        ("+4851.462+00217.700/", 48.8577, 2.295),
        // Degrees, minutes, seconds: 48° 51′ 27.72″ = 48.8577°, 2° 17′ 42″ = 2.295°.
        ("+485127.72+0021742.00/", 48.8577, 2.295),
        // Whole degrees, a coordinate reference system, no closing slash.
        ("+48+002CRSWGS_84/", 48, 2),
        ("-12.5+045.25", -12.5, 45.25),
    ])
    func positionsAreParsed(text: String, latitude: Double, longitude: Double) throws {
        let point = try #require(ISO6709(text))
        #expect(abs(point.latitude - latitude) < 1e-9)
        #expect(abs(point.longitude - longitude) < 1e-9)
    }

    @Test(arguments: [
        "+00.0000+000.0000/",  // no fix (isom-avc1.mp4 of the corpus)
        "+91.0000+000.0000/", "+45.0000+181.0000/",
        "+4861.000+00217.700/",  // 61 minutes
        "+485127.72+0021760.00/",  // 60 seconds
        "+048.8577+002.2950/",  // three digits of latitude degrees
        "+48.8577+02.2950/",  // two digits of longitude degrees
        "+48.8577/", "+48.8577+002.2950+035.000+1/", "48.8577+002.2950/", "+48.+002.2950/", "", "garbage",
    ])
    func badPositionsAreAbsent(text: String) {
        #expect(ISO6709(text) == nil)
    }

    /// The eight right-angle matrices (16.16 fixed point, with the translations a muxer
    /// writes) and the EXIF orientation each stands for.
    @Test(
        arguments: [
            ([65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30], 1),
            ([-65536, 0, 0, 0, 65536, 0, 320 << 16, 0, 1 << 30], 2),
            ([-65536, 0, 0, 0, -65536, 0, 320 << 16, 240 << 16, 1 << 30], 3),
            ([65536, 0, 0, 0, -65536, 0, 0, 240 << 16, 1 << 30], 4),
            ([0, 65536, 0, 65536, 0, 0, 0, 0, 1 << 30], 5),
            // An iPhone's portrait video: exiftool's Rotation 90.
            ([0, 65536, 0, -65536, 0, 0, 240 << 16, 0, 1 << 30], 6),
            ([0, -65536, 0, -65536, 0, 0, 240 << 16, 320 << 16, 1 << 30], 7),
            ([0, -65536, 0, 65536, 0, 0, 0, 320 << 16, 1 << 30], 8),
            // Anamorphic: the first axis stretched by 4/3, still upright.
            ([87381, 0, 0, 0, 65536, 0, 0, 0, 1 << 30], 1),
        ] as [([Int32], Int)]
    )
    func displayMatricesBecomeOrientations(matrix: [Int32], orientation: Int) {
        #expect(DisplayMatrix.orientation(matrix) == orientation)
    }

    @Test(
        arguments: [
            [46341, 46341, 0, -46341, 46341, 0, 0, 0, 1 << 30],  // 45°
            [65536, 65536, 0, 0, 65536, 0, 0, 0, 1 << 30],  // a shear
            [0, 0, 0, 0, 0, 0, 0, 0, 0],
            [65536, 0, 0, 0, 65536],  // too short
        ] as [[Int32]]
    )
    func oddMatricesGiveNoOrientation(matrix: [Int32]) {
        #expect(DisplayMatrix.orientation(matrix) == nil)
    }
}
