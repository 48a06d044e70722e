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

/// The invented cameras, places and sentences samples are made of. Changing any entry
/// changes every seed's output, so append rather than edit.
enum SampleCatalogue {
    struct Camera {
        var make: String
        var model: String
        var lens: String?
        var focalLengths: ClosedRange<Double>
        /// Compacts and phones report focal lengths in tenths of millimetres.
        var fractionalFocalLength: Bool
        var apertures: [Double]
    }

    static let cameras = [
        Camera(
            make: "Korvex",
            model: "K-7 Mark II",
            lens: "Korvex 24-70mm F2.8 DG",
            focalLengths: 24...70,
            fractionalFocalLength: false,
            apertures: [2.8, 4, 5.6, 8, 11]
        ),
        Camera(
            make: "Lumetra",
            model: "LX-20",
            lens: nil,
            focalLengths: 4.5...27,
            fractionalFocalLength: true,
            apertures: [3.3, 4, 5.6]
        ),
        Camera(
            make: "Nordlicht Optik",
            model: "NL-5 Pro",
            lens: "Nordlicht 35mm f/1.4",
            focalLengths: 35...35,
            fractionalFocalLength: false,
            apertures: [1.4, 2, 2.8, 5.6]
        ),
        Camera(
            make: "Fennec",
            model: "Fennec Phone 12",
            lens: "Fennec Phone 12 back camera 4.25mm f/1.8",
            focalLengths: 4.25...4.25,
            fractionalFocalLength: true,
            apertures: [1.8]
        ),
        Camera(
            make: "Sable Optics",
            model: "S1 Mini",
            lens: "Sable 18-55mm F3.5-5.6",
            focalLengths: 18...55,
            fractionalFocalLength: false,
            apertures: [3.5, 5.6, 8]
        ),
    ]

    static let phone = cameras[3]
    static let scanner = (make: "Papyra", model: "DocuScan 500")

    static let exposureTimes: [Double] = [
        1.0 / 4000, 1.0 / 1000, 1.0 / 500, 1.0 / 250, 1.0 / 125, 1.0 / 60,
        1.0 / 30, 1.0 / 8, 0.3, 1, 2.5,
    ]
    static let isos = [100, 200, 400, 800, 1600, 3200]

    struct Place {
        var name: String
        var latitude: Double
        var longitude: Double
        /// Standard time, without daylight saving.
        var offset: String
    }

    /// In hemisphere order NE, NW, SE, SW, repeated, so that any four consecutive
    /// geotagged samples cover all four signs of latitude and longitude.
    static let places = [
        Place(name: "Berlin", latitude: 52.5163, longitude: 13.3777, offset: "+01:00"),
        Place(name: "New York", latitude: 40.7580, longitude: -73.9855, offset: "-05:00"),
        Place(name: "Sydney", latitude: -33.8568, longitude: 151.2153, offset: "+10:00"),
        Place(name: "Buenos Aires", latitude: -34.6037, longitude: -58.3816, offset: "-03:00"),
        Place(name: "Tokyo", latitude: 35.6586, longitude: 139.7454, offset: "+09:00"),
        Place(name: "Reykjavik", latitude: 64.1419, longitude: -21.9267, offset: "+00:00"),
        Place(name: "Cape Town", latitude: -33.9249, longitude: 18.4241, offset: "+02:00"),
        Place(name: "Lima", latitude: -12.0464, longitude: -77.0428, offset: "-05:00"),
        Place(name: "Kathmandu", latitude: 27.7172, longitude: 85.3240, offset: "+05:45"),
        Place(name: "Honolulu", latitude: 21.3069, longitude: -157.8583, offset: "-10:00"),
        Place(name: "Auckland", latitude: -36.8485, longitude: 174.7633, offset: "+12:00"),
        Place(name: "Rio de Janeiro", latitude: -22.9068, longitude: -43.1729, offset: "-03:00"),
    ]

    /// Plain words in a plain font, so OCR of a page can be checked word for word.
    static let sentences = [
        "The quick brown fox jumps over the lazy dog.",
        "Please return this form to the front desk before Friday.",
        "The library opens at nine in the morning and closes at six.",
        "Our meeting has been moved to the second floor conference room.",
        "Keep this receipt as proof of purchase for your warranty.",
        "The train to the coast leaves from platform four every hour.",
        "Fresh bread is baked here every day except Sunday.",
        "Visitors are asked to sign the guest book at the entrance.",
        "The garden will be closed for repairs during the month of March.",
        "All photographs in this album were taken during our summer holiday.",
        "Remember to water the plants on the balcony twice a week.",
        "The museum offers free guided tours on the first Monday of each month.",
        "This invoice is due within thirty days of the date shown above.",
        "Bring warm clothes, a map and enough water for the whole walk.",
        "The old bridge across the river was built more than two hundred years ago.",
        "Thank you for your letter and for the lovely pictures of the children.",
        "Parking is available behind the station for a small daily fee.",
        "The recipe calls for two eggs, a cup of flour and a pinch of salt.",
        "Lights must be switched off when the last person leaves the office.",
        "Tickets for the evening concert can be bought at the town hall.",
    ]

    static let notAnImage = """
        Shopping list
        - milk
        - coffee
        - batteries for the camera

        (This is a text file with a .jpg name; photomill must report it as not an image.)

        """
}
