#!/usr/bin/env bash
# A real cloudg fleet on this machine, without Docker: a Kafka broker (KRaft, one JVM) and a Redis server
# started from the project's own Maven dependencies, a cloud-sim estate, N `cloudg worker` JVMs and the
# `cloudg map --distributed` coordinator. See docs/fleet.md.
#
#   scripts/fleet-local.sh run  [--workers N] [--estate FILE] [--out DIR]   up, map, down (exit code of the map)
#   scripts/fleet-local.sh up   [--workers N] [--estate FILE]               start everything but the coordinator
#   scripts/fleet-local.sh map  [--out DIR] [-- extra cloudg map options]   run the coordinator against it
#   scripts/fleet-local.sh down                                             stop what `up` started
#
# Needs a build first: mvn -B -ntp -DskipTests install
# Ports (override with the environment): FLEET_KAFKA_PORT 19092, FLEET_REDIS_PORT 16379, FLEET_SIM_PORT 14566,
# worker probes from FLEET_HEALTH_BASE 18081. State and logs: FLEET_DIR (default target/fleet-local).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${FLEET_DIR:-$here/target/fleet-local}
kafka_port=${FLEET_KAFKA_PORT:-19092}
controller_port=${FLEET_KAFKA_CONTROLLER_PORT:-19093}
redis_port=${FLEET_REDIS_PORT:-16379}
sim_port=${FLEET_SIM_PORT:-14566}
health_base=${FLEET_HEALTH_BASE:-18081}
cloudg="$here/cloudg"
# what the build compiled runs on Java 25: JAVA_HOME's or the java on PATH if new enough, else the build's JDK
. "$here/cli/src/build/jvm-identity.sh"
java_bin=$(java_for_build "$here" 25) || {
  echo "fleet-local: needs Java 25 or newer (JAVA_HOME, the java on PATH, or the build's, cli/target/build-jvm); run: mvn -B -ntp -DskipTests package" >&2
  exit 2
}

cmd=${1:-run}
[ $# -gt 0 ] && shift
workers=3
estate=""
out="$dir/out"
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --workers) workers=$2; shift 2 ;;
    --estate) estate=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "fleet-local: unknown option $1" >&2; exit 2 ;;
  esac
done

devcp_file="$here/devkit/target/fleet-dev.classpath"
need_build() {
  if [ ! -f "$here/cli/target/cloudg-cli.jar" ] || [ ! -f "$devcp_file" ] || [ ! -d "$here/devkit/target/classes" ]; then
    echo "fleet-local: not built yet; run: mvn -B -ntp -DskipTests install" >&2
    exit 2
  fi
}

pidfile() { echo "$dir/pids/$1.pid"; }

start() { # name, then the command; output to $dir/logs/name.log
  local name=$1; shift
  mkdir -p "$dir/logs" "$dir/pids"
  "$@" > "$dir/logs/$name.log" 2>&1 &
  echo $! > "$(pidfile "$name")"
}

await_port() { # name port
  for _ in $(seq 1 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "fleet-local: $1 did not open port $2; see $dir/logs/$1.log" >&2
  exit 1
}

await_ready() { # name port
  for _ in $(seq 1 600); do
    if curl -fs "http://127.0.0.1:$2/readyz" > /dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  echo "fleet-local: $1 never became ready; see $dir/logs/$1.log" >&2
  exit 1
}

write_config() {
  mkdir -p "$dir"
  cat > "$dir/cloudg.yaml" <<YAML
# written by scripts/fleet-local.sh: the coordinator and every worker read this file
providers: [aws]
output_dir: $out
aws:
  endpoint_url: http://127.0.0.1:$sim_port
  access_key_id: fleet-local
  secret_access_key: fleet-local
  org: true
  regions: all
ratelimit:
  backend: redis
  redis: {url: "redis://127.0.0.1:$redis_port", key_prefix: fleet-local, fleet_size_hint: $workers}
fleet:
  kafka: {bootstrap_servers: "127.0.0.1:$kafka_port"}
  topics: {prefix: fleet-local, task_partitions: 12, result_partitions: 6}
  group: fleet-local-workers
  worker: {max_in_flight: 4, threads: 16, shutdown_grace_seconds: 20}
YAML
}

up() {
  need_build
  if [ -f "$(pidfile kafka)" ] && kill -0 "$(cat "$(pidfile kafka)")" 2>/dev/null; then
    echo "fleet-local: already up (scripts/fleet-local.sh down first)" >&2
    exit 2
  fi
  rm -rf "$dir/logs" "$dir/pids"
  local devcp
  devcp="$here/devkit/target/classes:$(cat "$devcp_file")"
  write_config
  echo "fleet-local: Kafka on 127.0.0.1:$kafka_port, Redis on $redis_port, cloud-sim on $sim_port, $workers worker(s); files in $dir"
  start kafka "$java_bin" -Xmx128m -cp "$devcp" io.cloudg.fleet.local.DevServices kafka --port "$kafka_port" \
      --controller-port "$controller_port" --dir "$dir/kafka"
  start redis "$java_bin" -Xmx64m -cp "$devcp" io.cloudg.fleet.local.DevServices redis --port "$redis_port" --dir "$dir/redis"
  if [ -n "$estate" ]; then
    start sim "$cloudg" sim --port "$sim_port" --estate "$estate"
  else
    start sim "$cloudg" sim --port "$sim_port"
  fi
  await_port kafka "$kafka_port"
  await_port redis "$redis_port"
  await_port sim "$sim_port"
  for i in $(seq 1 "$workers"); do
    start "worker-$i" "$cloudg" worker --config "$dir/cloudg.yaml" --id "worker-$i" --health-port $((health_base + i - 1))
  done
  for i in $(seq 1 "$workers"); do
    await_ready "worker-$i" $((health_base + i - 1))
  done
  echo "fleet-local: up. Map with: scripts/fleet-local.sh map   (or: ./cloudg map --distributed --config $dir/cloudg.yaml)"
}

map() {
  need_build
  [ -f "$dir/cloudg.yaml" ] || { echo "fleet-local: not up (scripts/fleet-local.sh up)" >&2; exit 2; }
  "$cloudg" map --distributed --config "$dir/cloudg.yaml" --out "$out" ${extra[@]+"${extra[@]}"}
}

stop_one() { # name: SIGTERM by pid, wait, then SIGKILL
  local f pid
  f=$(pidfile "$1")
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

down() {
  [ -d "$dir/pids" ] || return 0
  for f in "$dir"/pids/worker-*.pid; do
    [ -e "$f" ] && stop_one "$(basename "$f" .pid)"
  done
  stop_one sim
  stop_one redis
  stop_one kafka
  echo "fleet-local: down (logs in $dir/logs)"
}

case "$cmd" in
  up) up ;;
  map) map ;;
  down) down ;;
  run)
    trap down EXIT
    up
    set +e
    map
    status=$?
    set -e
    exit $status ;;
  *) echo "usage: scripts/fleet-local.sh run|up|map|down [--workers N] [--estate FILE] [--out DIR]" >&2; exit 2 ;;
esac
