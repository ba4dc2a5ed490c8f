# Sourced by the cloudg launcher, class-data-archive.sh and the scripts/ that run what the build compiled: the rules
# for which JVM may run it. jvm_identity JAVA prints the JVM's resolved binary and the runtime version its release file
# names (a class-data archive fits only the JVM that dumped it); it fails when either cannot be found.
jvm_identity() {
  local real release
  real=$(readlink -f "$(command -v "$1" 2>/dev/null)" 2>/dev/null) && [ -n "$real" ] || return 1
  release="$(dirname "$(dirname "$real")")/release"
  [ -f "$release" ] || return 1
  echo "$real $(grep '^JAVA_RUNTIME_VERSION=' "$release")"
}

# java_feature JAVA prints the JVM's feature release (17, 25...): from the release file beside its binary, else from
# its -version banner; it fails when neither says (no such java).
java_feature() {
  local real release v=""
  real=$(readlink -f "$(command -v "$1" 2>/dev/null)" 2>/dev/null) && [ -n "$real" ] && [ -x "$real" ] || return 1
  release="$(dirname "$(dirname "$real")")/release"
  if [ -f "$release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$release")
  fi
  if [ -z "$v" ]; then
    v=$("$real" -version 2>&1 | sed -n 's/.* version "\([^"]*\)".*/\1/p' | head -n 1)
  fi
  v=${v#1.}         # 1.8.0_402: Java 8
  v=${v%%[!0-9]*}
  [ -n "$v" ] || return 1
  echo "$v"
}

# java_for_build ROOT REQUIRED prints the java to run what the build in ROOT compiled (Java REQUIRED or newer):
# JAVA_HOME's, else the one on PATH, when it is new enough, else the one the build recorded (ROOT/cli/target/build-jvm)
# when that one is; it fails, printing nothing, when none is.
java_for_build() {
  local java="${JAVA_HOME:+$JAVA_HOME/bin/}java" built feature
  feature=$(java_feature "$java" || true)
  if [ -n "$feature" ] && [ "$feature" -ge "$2" ]; then
    echo "$java"
    return 0
  fi
  built=$(cat "$1/cli/target/build-jvm" 2>/dev/null || true)
  [ -n "$built" ] || return 1
  feature=$(java_feature "$built" || true)
  [ -n "$feature" ] && [ "$feature" -ge "$2" ] || return 1
  echo "$built"
}
