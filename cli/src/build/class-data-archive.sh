#!/usr/bin/env bash
# Builds cli/target/cloudg.jsa, the class-data sharing (AppCDS) archive the cloudg launcher starts the JVM
# with. A map loads about 30,000 classes (the AWS, Azure and GCP SDKs' clients and models); parsing and
# verifying them is most of a small map's CPU. The archive holds them parsed and verified.
#
#   class-data-archive.sh JAVA TARGET_DIR            builds it (or says it is up to date)
#   class-data-archive.sh --start JAVA TARGET_DIR    the same in the background, output to TARGET_DIR/cds-build.log
#   class-data-archive.sh --wait TARGET_DIR          waits for the background build, then prints its outcome
#
# JAVA is a java binary, or the file naming one that build-jvm.sh wrote (TARGET_DIR/build-jvm: the JDK the build
# compiled and tested with, which the launcher also runs).
#
# The cli module's build starts it in the background once the jar and lib/ exist (process-classes: the jar is
# made there, before the unit tests) and waits for it in the package phase, so that the dump (about a minute of
# one core) overlaps the unit tests (mostly waiting on quotas and child JVMs) instead of lengthening the build.
# Skip it with -Dcloudg.cds.skip. It maps cloud-sim's demo estate
# (`cloudg map --sim`, in process) with -XX:DumpLoadedClassList to learn the classes a map loads, then dumps
# them with -Xshare:dump. The archive only fits the JVM that dumped it and this exact class path (its jars'
# sizes and times): TARGET_DIR/cloudg.jsa.jvm records that JVM, and the launcher uses the archive only with
# it; the JVM itself ignores the archive when a jar changed. Any failure leaves no archive and is reported in
# one line: maps then start as before, slower; the build goes on.
set -uo pipefail

# the background build recorded in TARGET_DIR/cds-build.pid, if it still runs (a pid reused since is not ours)
running() {
  local pid
  pid=$(cat "$1/cds-build.pid" 2>/dev/null) || return 1
  ps -p "$pid" -o args= 2>/dev/null | grep -q class-data-archive && echo "$pid"
}

if [ "${1:-}" = --start ]; then
  shift
  target=$(cd "$2" && pwd)
  # one build at a time: one left running by an interrupted Maven would dump an archive of the old jars
  if old=$(running "$target"); then
    pkill -P "$old" 2>/dev/null; kill "$old" 2>/dev/null
    while kill -0 "$old" 2>/dev/null; do sleep 1; done
    echo "[class-data archive] stopped the build an earlier Maven run left (pid $old)"
  fi
  rm -f "$target/cds-build.log"
  # no tie to the caller's output, so that Maven's exec goal returns at once (a background job of a script
  # ignores SIGINT: a Ctrl-C meant for Maven lets it finish, and the next build stops it if it still runs)
  nohup bash "$0" "$@" >"$target/cds-build.log" 2>&1 </dev/null &
  echo $! >"$target/cds-build.pid"
  echo "[class-data archive] building in the background (pid $!, $target/cds-build.log)"
  exit 0
fi
if [ "${1:-}" = --wait ]; then
  target=$(cd "$2" && pwd)
  [ -f "$target/cds-build.pid" ] || { echo "[class-data archive] no background build was started"; exit 0; }
  while running "$target" >/dev/null; do
    sleep 1
  done
  rm -f "$target/cds-build.pid"
  grep '^\[class-data archive\]' "$target/cds-build.log" 2>/dev/null \
    || echo "[class-data archive] the background build ended without a word (see $target/cds-build.log)"
  exit 0
fi

java=$1
if [ -f "$java" ] && [ ! -x "$java" ]; then
  java=$(cat "$java")
fi
target=$(cd "$2" && pwd)
work="$target/cds"
jsa="$target/cloudg.jsa"
# the training map's class list, which the launcher hands to the map (-Dcloudg.preload.classes): the classes it
# loads on platform threads before the first virtual-thread job starts (engine's io.cloudg.preload, issue 37)
classes="$target/cloudg.classes"
cp="$target/cloudg-cli.jar:$target/lib/*"
# the launcher's own (see ../../../cloudg): the archive is made with the options it is used with
jvm_access=(--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED)

say() { echo "[class-data archive] $*"; }
give_up() {
  rm -f "$jsa" "$jsa.jvm" "$jsa.tmp"
  say "not built: $1 (maps start without it, slower; details in $work)"
  exit 0
}

. "$(dirname "$0")/jvm-identity.sh"

identity=$(jvm_identity "$java") || give_up "cannot identify the JVM $java (no release file beside it)"
[ -f "$target/cloudg-cli.jar" ] && [ -d "$target/lib" ] || give_up "$target/cloudg-cli.jar or $target/lib missing"
# Up to date: an archive of this JVM, newer than the jar, lib/ (a jar added or removed) and every jar in it,
# and than these scripts. A package that changed nothing does not dump again.
if [ -f "$jsa" ] && [ "$(cat "$jsa.jvm" 2>/dev/null)" = "$identity" ] \
   && [ -z "$(find "$target/cloudg-cli.jar" "$target/lib" "$(dirname "$0")" -newer "$jsa" -print -quit)" ]; then
  say "up to date: $jsa"
  exit 0
fi
rm -rf "$work" "$jsa" "$jsa.jvm" "$jsa.tmp" "$classes"
mkdir -p "$work"

start=$(date +%s)
# The training map: cloud-sim's demo estate, in a directory of its own (no ./cloudg.yaml, no CLOUDG_CONFIG)
# and with learned rates kept under it (never the user's ~/.cache).
# Exit 0 or 3 (a map with PARTIAL coverage still loaded its classes); anything else is a failure.
# A carrier thread for every job: this map has no class list to load before its jobs start (it makes that list),
# and with Main's 8 carriers on a loaded 2-core machine all 8 were held by jobs blocked in a class load on a jar
# file's lock, whose holder (the simulator's event loop) waited for a monitor that an unmounted job held: the map
# stopped for good and the build waited on it (2026-12-05, JDK 25; Main.virtualThreadCarriers says more).
# More carriers than jobs leave that job one to finish on. Should the map still not end, it is stopped and the
# build goes on without the archive.
bound=()
if command -v timeout >/dev/null 2>&1; then bound=(timeout 900); fi
(cd "$work" && env -u CLOUDG_CONFIG XDG_CACHE_HOME="$work/cache" ${bound[@]+"${bound[@]}"} "$java" "${jvm_access[@]}" \
   -XX:TieredStopAtLevel=1 -Djdk.virtualThreadScheduler.parallelism=512 \
   -XX:DumpLoadedClassList="$work/classes.txt" -cp "$cp" io.cloudg.cli.Main map --sim --out "$work/map" \
   --no-progress >"$work/training.log" 2>&1)
rc=$?
[ "$rc" = 124 ] && [ ${#bound[@]} -gt 0 ] && give_up "the training map did not end in 900 s (training.log)"
[ "$rc" = 0 ] || [ "$rc" = 3 ] || give_up "the training map exited $rc (training.log)"
[ -s "$work/classes.txt" ] || give_up "the training map listed no classes (this JVM may not support -XX:DumpLoadedClassList)"
cp "$work/classes.txt" "$classes.tmp" && mv "$classes.tmp" "$classes"

# JDK 17's dump crashes on lambda proxies that name a class it leaves out (signed jars' classes, and what
# extends them): ClassListFilter.java drops those; should a dump still fail, once more without the classes
# its log says it skipped.
dump() {
  (cd "$work" && "$java" "${jvm_access[@]}" -Xshare:dump -XX:SharedClassListFile="$work/$1" -XX:SharedArchiveFile="$jsa.tmp" -cp "$cp" \
     >"$work/$2" 2>&1)
}
"$java" "$(dirname "$0")/ClassListFilter.java" "$work/classes.txt" "$target/lib" >"$work/filtered.txt" 2>"$work/filter.log" \
  || give_up "the class list could not be filtered (filter.log)"
if ! dump filtered.txt dump.log; then
  "$java" "$(dirname "$0")/ClassListFilter.java" "$work/classes.txt" "$target/lib" --skipped "$work/dump.log" \
    >"$work/filtered-again.txt" 2>>"$work/filter.log" || give_up "the class list could not be filtered (filter.log)"
  dump filtered-again.txt dump-again.log || give_up "-Xshare:dump failed (dump.log, dump-again.log)"
fi
mv "$jsa.tmp" "$jsa"
echo "$identity" >"$jsa.jvm"
say "$(grep -vc "^@" "$work/filtered.txt") classes, $(( $(wc -c <"$jsa") / 1048576 )) MiB, $(( $(date +%s) - start )) s: $jsa"
