// swift-tools-version:6.1
import PackageDescription

// Layout and allowed imports: docs/architecture.md. Each C module is imported only by its
// one Swift wrapper module; C types never appear in a public signature.
let package = Package(
    name: "photomill",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "photomill", targets: ["photomill"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // C libraries from Debian, found with pkg-config.
        .systemLibrary(
            name: "CZeroMQ", pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]),
        .systemLibrary(
            name: "CExif", pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]),
        .systemLibrary(
            name: "CVips", pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]),
        .systemLibrary(
            name: "CTesseract", pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "tesseract-ocr-eng"])]),

        // Thin wrapper over libzmq; imported only by Coordinator and Worker.
        .target(
            name: "ZeroMQ",
            dependencies: ["CZeroMQ"]),
        .target(
            name: "PhotoProcessing",
            dependencies: [
                "CExif", "CVips", "CTesseract",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .executableTarget(
            name: "photomill",
            dependencies: [
                "PhotoProcessing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(
            name: "ZeroMQTests",
            dependencies: ["ZeroMQ"]),
        .testTarget(
            name: "PhotoProcessingTests",
            dependencies: ["PhotoProcessing"]),
        // Runs the built `photomill` binary as separate processes.
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["photomill"]),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
