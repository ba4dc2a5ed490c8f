#!/usr/bin/env bash
# Records the JDK this build compiled and tested with, for the cloudg launcher: TARGET_DIR/build-jvm holds the path
# of its java. That is the JDK the root pom's maven-toolchains-plugin selected when Maven runs on an older one
# (the exec plugin passes its home as CLOUDG_TOOLCHAIN_JAVA_HOME), else the JDK running Maven (MAVEN_JAVA). The
# launcher runs it when neither JAVA_HOME nor the java on PATH is new enough; class-data-archive.sh dumps with it.
#
#   build-jvm.sh MAVEN_JAVA TARGET_DIR
set -euo pipefail
java=${CLOUDG_TOOLCHAIN_JAVA_HOME:+$CLOUDG_TOOLCHAIN_JAVA_HOME/bin/java}
java=${java:-$1}
[ -x "$java" ] || { echo "[build jvm] not an executable java: $java" >&2; exit 1; }
mkdir -p "$2"
echo "$java" >"$2/build-jvm"
echo "[build jvm] $java ($("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p'))"
