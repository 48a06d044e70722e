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

import CoreMetrics
import Foundation
import Prometheus

/// The Prometheus registry behind `/metrics`, and the swift-metrics factory that fills it.
/// swift-metrics' API carries neither a metric's HELP text nor a histogram's buckets, which
/// Prometheus wants (`promtool check metrics` fails a metric without HELP), so they come
/// from tables given once, by metric name (`CoordinatorMetrics.help` and `.buckets`).
public final class MetricsRegistry: MetricsFactory, Sendable {
    let registry = PrometheusCollectorRegistry()
    private let help: [String: String]
    private let buckets: [String: [Double]]

    /// `help` and `buckets`: the tables of the metrics made through swift-metrics; the
    /// dashboard's own metrics come with theirs.
    public init(help: [String: String] = [:], buckets: [String: [Double]] = [:]) {
        self.help = help.merging(CatalogGauges.help.merging(ProcessGauges.help) { $1 }) { given, _ in given }
        self.buckets = buckets
    }

    /// The text format of every metric registered so far.
    func exposition() -> [UInt8] { registry.emitToBuffer() }

    func descriptor(_ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help[name] ?? "")
    }

    private func bounds(_ name: String) -> [Double] {
        buckets[name] ?? [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    }

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    public func makeFloatingPointCounter(
        label: String,
        dimensions: [(String, String)]
    ) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        return registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: bounds(label))
    }

    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(
            descriptor: descriptor(label),
            labels: dimensions,
            buckets: bounds(label).map { .nanoseconds(Int64(($0 * 1e9).rounded())) }
        )
    }

    public func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    public func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    public func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    public func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}
