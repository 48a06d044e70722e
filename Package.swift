// swift-tools-version:6.1
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

import PackageDescription

// Layout and allowed imports: docs/architecture.md. Each C module is imported only by its
// one Swift wrapper module; C types never appear in a public signature.
let package = Package(
    name: "photomill",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "photomill", targets: ["photomill"]),
        .executable(name: "photomill-bench", targets: ["photomill-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The dashboard's HTTP server. Its default traits (swift-configuration, full Foundation
        // for form decoding) serve nothing photomill uses, and the first is a package to build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // NIOEmbedded only, for the dashboard's routes called in process (a channel that is no socket).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // C libraries from Debian, found with pkg-config.
        .systemLibrary(
            name: "CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .systemLibrary(
            name: "CTesseract",
            pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "tesseract-ocr-eng"])]
        ),
        .systemLibrary(
            name: "CLibRaw",
            pkgConfig: "libraw_r",
            providers: [.apt(["libraw-dev"])]
        ),
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        // statfs(2) and the kernel's file system magic numbers, which Swift's Glibc module
        // leaves out: the watcher tells a network file system from a local one.
        .systemLibrary(
            name: "CLinux"
        ),
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),

        .systemLibrary(
            name: "CBrotli",
            pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"])]
        ),
        // exiv2 0.27 (C++: classes, exceptions) behind a C interface that catches every
        // exception; imported only by PhotoProcessing (docs/processing.md, "metadata").
        .target(
            name: "CExiv2",
            cxxSettings: [.unsafeFlags(["-Wno-deprecated-declarations"])],
            linkerSettings: [.linkedLibrary("exiv2")]
        ),

        // HashIndex's inner loop, with the CPU's bit-count instruction where it has one
        // (chosen at run time); imported only by Catalog.
        .target(
            name: "CHamming"
        ),

        // The vocabulary every module shares: kinds, states, error classes, the metadata
        // record, processing parameters, file stamps, clocks, owned threads. No dependency.
        .target(
            name: "PhotomillCore"
        ),
        .target(
            name: "ZeroMQ",
            dependencies: ["CZeroMQ"]
        ),
        .target(
            name: "MillProtocol",
            dependencies: ["PhotomillCore", .product(name: "SwiftProtobuf", package: "swift-protobuf")]
        ),
        .target(
            name: "PhotoProcessing",
            dependencies: [
                "CExif", "CExiv2", "CBrotli", "CVips", "CTesseract", "CLibRaw", "CHeif", "CFFmpeg", "CLibXML2",
                "PhotomillCore",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Sample photos of our own making, for `photomill samples`, the tests and the bench.
        .target(
            name: "Samples",
            dependencies: ["PhotoProcessing", "PhotomillCore"]
        ),
        .target(
            name: "Catalog",
            // GRDBSQLite: SQLite's C API, for the statements that bind many values (RowsStatement).
            dependencies: [
                "CHamming", "PhotomillCore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "Exports",
            dependencies: [
                "Catalog", "PhotomillCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "Coordinator",
            dependencies: [
                "MillProtocol", "ZeroMQ", "Catalog", "PhotomillCore", "CLinux",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                // The scan hashes a new file whose size is a missing photo's: a move keeps its results.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .target(
            name: "Worker",
            dependencies: [
                "MillProtocol", "ZeroMQ", "PhotoProcessing", "PhotomillCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            // The reliability tests' faults (FaultInjection.swift), in debug builds only: the
            // tests build debug, the shipped binary (scripts/package-deb.sh) is a release build.
            swiftSettings: [.define("PHOTOMILL_FAULT_INJECTION", .when(configuration: .debug))]
        ),
        // The web dashboard, its JSON API and /metrics: HTTP beside the coordinator, reading
        // the catalog on a connection of its own (docs/operations.md).
        .target(
            name: "Dashboard",
            dependencies: [
                "Catalog", "PhotomillCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Writes the git commit into the build folder before each build (`photomill --version`).
        .plugin(
            name: "BuildCommit",
            capability: .buildTool(),
            path: "Sources/BuildCommit"
        ),
        .executableTarget(
            name: "photomill",
            dependencies: [
                // ZeroMQ: only for its version (`--version`).
                "Coordinator", "Worker", "Exports", "Catalog", "PhotoProcessing", "Samples", "PhotomillCore",
                "Dashboard", "ZeroMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            plugins: ["BuildCommit"]
        ),
        // The benchmark suite (docs/benchmarks.md): `swift run -c release photomill-bench`.
        .executableTarget(
            name: "photomill-bench",
            dependencies: [
                "Coordinator", "Catalog", "MillProtocol", "ZeroMQ", "PhotomillCore", "Dashboard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),

        // What the test targets share (tools, processes, temporary folders, waits on the
        // monotonic clock, a manual clock, the corpus): a library of the tests only, never
        // linked into a shipped product.
        .target(
            name: "PhotomillTestSupport",
            dependencies: ["PhotomillCore"],
            path: "Tests/PhotomillTestSupport"
        ),
        .testTarget(
            name: "PhotomillCoreTests",
            dependencies: ["PhotomillTestSupport", "PhotomillCore"]
        ),
        .testTarget(
            name: "ZeroMQTests",
            dependencies: ["PhotomillTestSupport", "ZeroMQ"]
        ),
        .testTarget(
            name: "MillProtocolTests",
            dependencies: [
                "PhotomillTestSupport", "MillProtocol", "PhotomillCore",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            // Inputs that once crashed the decoder, read by path from the tests.
            exclude: ["Regressions"]
        ),
        .testTarget(
            name: "PhotoProcessingTests",
            dependencies: ["PhotomillTestSupport", "PhotoProcessing", "PhotomillCore"]
        ),
        .testTarget(
            name: "SamplesTests",
            dependencies: ["PhotomillTestSupport", "Samples", "PhotoProcessing", "PhotomillCore"]
        ),
        // The scheduler and the worker's protocol side, alone, with a manual clock.
        .testTarget(
            name: "CoordinatorTests",
            dependencies: [
                "PhotomillTestSupport",
                "Coordinator", "Catalog", "MillProtocol", "PhotomillCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "WorkerTests",
            dependencies: [
                "Worker", "MillProtocol", "PhotomillCore", "ZeroMQ", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CatalogTests",
            dependencies: ["PhotomillTestSupport", "Catalog", "PhotomillCore"]
        ),
        .testTarget(
            name: "ExportsTests",
            dependencies: ["PhotomillTestSupport", "Exports", "Catalog", "PhotomillCore"]
        ),
        // The routes called in process (Support.swift's RouterClient), over a real catalog file.
        .testTarget(
            name: "DashboardTests",
            dependencies: [
                "PhotomillTestSupport",
                "Dashboard", "Catalog", "PhotomillCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // Runs the built `photomill` binary as separate processes over real sockets.
        // (ZeroMQ and MillProtocol for a hostile peer that speaks raw frames.)
        .testTarget(
            name: "IntegrationTests",
            // ZeroMQ and MillProtocol: raw sockets that play an unlisted, plaintext or hostile worker.
            // GRDBSQLite: SQLite's C API, the catalog's independent reader (CatalogQuery).
            dependencies: [
                "PhotomillTestSupport", "photomill", "ZeroMQ", "MillProtocol", "PhotomillCore",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
    ],
    // exiv2 0.27's headers use std::auto_ptr, which C++17 removed.
    cxxLanguageStandard: .gnucxx14
)

for target in package.targets where target.type != .system && target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
