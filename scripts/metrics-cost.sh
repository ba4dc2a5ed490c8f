#!/usr/bin/env bash
# What metrics cost per governed call (BENCHMARKS.md, "Metrics"): io.cloudg.bench.governor.MetricsCost, one
# JVM without metrics and one with the Prometheus registry, alternately (none, prometheus, prometheus, none,
# none, prometheus, ...: the order flips each round), each measuring the CPU time of its calling thread;
# prints each round's ratio and the median ratio, per number of leaves.
#   mvn -B -ntp -q -DskipTests package -pl bench -am && cp -r bench/target /tmp/metrics-bench-target
#   scripts/metrics-cost.sh /tmp/metrics-bench-target/benchmarks.jar [rounds] [threads]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$here/cli/src/build/jvm-identity.sh"
java_bin=$(java_for_build "$here" 25) || { echo "metrics-cost: needs Java 25 or newer (JAVA_HOME, the java on PATH, or the build's)" >&2; exit 2; }
jar=${1:?the benchmarks jar}
rounds=${2:-7}
threads=${3:-1}
for leaves in 1 1000; do
  ratios=()
  none_all=()
  prom_all=()
  for r in $(seq 1 "$rounds"); do
    order="none prometheus"
    if [ $((r % 2)) = 0 ]; then order="prometheus none"; fi
    for m in $order; do
      line=$("$java_bin" -cp "$jar" io.cloudg.bench.governor.MetricsCost "$m" "$leaves" "$threads")
      v=$(sed -E 's/.*median_cpu_ns_per_call=([0-9.]+).*/\1/' <<<"$line")
      if [ "$m" = none ]; then none=$v; none_all+=("$v"); else prom=$v; prom_all+=("$v"); fi
    done
    ratios+=("$(python3 -c "print(f'{$prom/$none:.3f}')")")
  done
  python3 - "$leaves" "${none_all[*]}" "${prom_all[*]}" "${ratios[*]}" "$threads" <<'PY'
import sys, statistics
leaves, none, prom, ratios = sys.argv[1], *[list(map(float, a.split())) for a in sys.argv[2:5]]
print(f"threads={sys.argv[5]} leaves={leaves}: none {statistics.median(none):.1f} ns, prometheus {statistics.median(prom):.1f} ns (CPU time per "
      f"governed call, medians of {len(none)} JVMs each); ratio per round {' '.join(f'{r:.3f}' for r in ratios)}; "
      f"median ratio {statistics.median(ratios):.3f}")
PY
done
