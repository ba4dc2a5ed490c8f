/**
 * End-to-end benchmarks of the embedded map against cloud-sim with the real SDK clients: how close a governed
 * map gets to the bound the providers' quotas set ({@link io.cloudg.bench.map.MapBenchmarks},
 * {@link io.cloudg.bench.map.StrictQuotaBench}), what a map costs in client CPU, memory and start-up
 * ({@link io.cloudg.bench.map.ClientCpuBench}, {@link io.cloudg.bench.map.MemoryBench},
 * {@link io.cloudg.bench.map.SdkFloorBench}), the progress lines' ETA and {@code cloudg diff}. Each prints
 * what BENCHMARKS.md records, with the command that reproduces it.
 */
package io.cloudg.bench.map;
