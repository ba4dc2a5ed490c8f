# Sourced by the cloudg launcher and by class-data-archive.sh: the one rule for which JVM a class-data archive
# belongs to. jvm_identity JAVA prints the JVM's resolved binary and the runtime version its release file
# names (a class-data archive fits only the JVM that dumped it); it fails when either cannot be found.
jvm_identity() {
  local real release
  real=$(readlink -f "$(command -v "$1" 2>/dev/null)" 2>/dev/null) && [ -n "$real" ] || return 1
  release="$(dirname "$(dirname "$real")")/release"
  [ -f "$release" ] || return 1
  echo "$real $(grep '^JAVA_RUNTIME_VERSION=' "$release")"
}
