#!/usr/bin/env bash
# Issue 38's benchmarks of BENCHMARKS.md ("Shared quotas (issue 38)"): clients sharing one estate's quotas.
#   mvn -B -ntp -DskipTests package && scripts/shared-quota-bench.sh [--clients 4,16] [--amis 200] [--rounds 2] [...]
#     N processes at once mapping one strict cloud-sim estate: the AWS SDK alone (adaptive), cloudg each governing
#     alone, cloudg sharing one redis-server (Debian's, on PATH, or --redis-server PATH), and one cloudg map alone;
#     options: see io.cloudg.bench.fleet.SharedQuotaBench. Logs and every map: target/shared-quota-bench/.
#   scripts/shared-quota-bench.sh forty [--threads 40] [--calls 25] [--rounds 2]
#     the guide's forty EC2 clients in one account, the SDK alone against one governor (FortyClientsBench).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
for f in cli/target/cloudg-cli.jar bench/target/benchmarks.jar; do
  if [ ! -e "$f" ]; then
    echo "shared-quota-bench: $f is missing; run: mvn -B -ntp -DskipTests package" >&2
    exit 2
  fi
done
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if [ "${1:-}" = forty ]; then
  shift
  exec "$java_bin" -Xmx1g -cp "bench/target/benchmarks.jar:bench/target/lib/*" io.cloudg.bench.fleet.FortyClientsBench "$@"
fi
exec "$java_bin" -Xmx2g -cp "bench/target/benchmarks.jar:bench/target/lib/*" io.cloudg.bench.fleet.SharedQuotaBench \
  --cloudg "$here/cloudg" "$@"
