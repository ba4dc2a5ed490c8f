#!/usr/bin/env bash
# The fleet scaling benchmark of BENCHMARKS.md ("Fleet"): one generated cloud-sim estate mapped by fleets
# of 1, 2 and 4 worker JVMs, with a real Kafka and Redis started from the Maven build (no Docker).
#   mvn -B -ntp -DskipTests package && scripts/fleet-bench.sh [--workers 1,2,4] [--accounts 24] [--per-type 2] [--counts S3_BUCKET=300]
#       [--latency-ms 60] [--jitter-ms 30] [--threads 8 (0: fleet.worker.threads unset)] [--in-flight N (default: unset)] [--warm-up 1] [--repeat 3] [--allow-partial false]
#       [--collectors a,b,...] [--thread-cpu true (each measured map's CPU by thread group, workers and coordinator)]
# Logs of every process: target/fleet-bench/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
for f in cli/target/cloudg-cli.jar devkit/target/fleet-dev.classpath bench/target/benchmarks.jar; do
  if [ ! -e "$f" ]; then
    echo "fleet-bench: $f is missing; run: mvn -B -ntp -DskipTests package" >&2
    exit 2
  fi
done
# what the build compiled runs on Java 25: JAVA_HOME's or the java on PATH if new enough, else the build's JDK
. "$here/cli/src/build/jvm-identity.sh"
java_bin=$(java_for_build "$here" 25) || {
  echo "fleet-bench: needs Java 25 or newer (JAVA_HOME, the java on PATH, or the build's, cli/target/build-jvm); run: mvn -B -ntp -DskipTests package" >&2
  exit 2
}
exec "$java_bin" -Xmx1g -cp "bench/target/benchmarks.jar:bench/target/lib/*" io.cloudg.bench.fleet.FleetScalingBench \
  --cloudg "$here/cloudg" --dev-classpath devkit/target/fleet-dev.classpath "$@"
