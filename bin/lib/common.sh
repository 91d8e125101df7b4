# Shared by the bin/ launchers: find a JDK >= 25 and build the project when it is stale.
# Sourced, not run. Sets TROUPE_HOME and JAVA_HOME, exports JAVA_HOME.

TROUPE_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TROUPE_MIN_JAVA=25

troupe_die() { echo "$(basename "$0"): $*" >&2; exit 1; }

# The flags of every JVM the launchers start, which pass them on to the JVMs those start (node JVMs, benchmark
# forks): Netty's memory access and native access without the JDK's warnings, and the JDK export Agrona's ring
# buffers need for shared-memory links (without it a runtime's links stay on TCP).
TROUPE_JVM_FLAGS="--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED"
TROUPE_JVM_FLAGS+=" --add-exports java.base/jdk.internal.misc=ALL-UNNAMED"

# Maven 3.8 prints colour resets even in batch mode: on anything but a terminal they are dropped. Filters its input
# to its output, a line at a time.
troupe_strip_colours() {
  if [ -t 1 ]; then cat; else sed -u 's/\x1b\[[0-9;]*m//g'; fi
}

# Major version of the JDK at $1, from its release file (no JVM start), or empty.
troupe_jdk_major() {
  local home=$1 v
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 0
  if [ -f "$home/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
  else
    v=$("$home/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
  fi
  echo "$v"
}

# JAVA_HOME if it is >= 25, else the newest JDK under /usr/lib/jvm.
troupe_find_java() {
  local major best="" best_major=0 d
  if [ -n "${JAVA_HOME:-}" ]; then
    major=$(troupe_jdk_major "$JAVA_HOME")
    if [ -n "$major" ] && [ "$major" -ge "$TROUPE_MIN_JAVA" ]; then
      export JAVA_HOME; return 0
    fi
  fi
  for d in /usr/lib/jvm/*; do
    [ -L "$d" ] && continue
    major=$(troupe_jdk_major "$d")
    if [ -n "$major" ] && [ "$major" -gt "$best_major" ]; then best=$d; best_major=$major; fi
  done
  if [ "$best_major" -lt "$TROUPE_MIN_JAVA" ]; then
    troupe_die "needs a JDK $TROUPE_MIN_JAVA or newer, and found none (JAVA_HOME=${JAVA_HOME:-unset}, newest under /usr/lib/jvm: ${best:-none}). Install one (for example Temurin 25 under /usr/lib/jvm) or set JAVA_HOME to it."
  fi
  # Said when it is not the JDK the user named (JAVA_HOME, else the java on the PATH): which one runs is news.
  local on_path
  on_path=$(command -v java 2>/dev/null || true)
  if [ -n "${JAVA_HOME:-}" ] || [ -z "$on_path" ] || [ "$(readlink -f "$on_path")" != "$(readlink -f "$best/bin/java")" ]; then
    echo "$(basename "$0"): using the JDK $best_major at $best (${JAVA_HOME:+JAVA_HOME is $JAVA_HOME, }Troupe needs $TROUPE_MIN_JAVA or newer)" >&2
  fi
  JAVA_HOME=$best; export JAVA_HOME
}

troupe_need_maven() {
  command -v mvn >/dev/null 2>&1 || troupe_die "needs Maven 3.8 or newer on the PATH to build Troupe (apt-get install maven)."
}

# The stamp the build leaves last; the build is stale when any source or pom is newer.
TROUPE_STAMP="$TROUPE_HOME/tests/target/runtime-classpath.txt"

# $1: a file the build makes that the caller needs (default: the stamp); it is stale when missing or older.
troupe_build_if_stale() {
  local newer stamp=${1:-$TROUPE_STAMP}
  if [ -f "$stamp" ]; then
    # apps/montecarlo is a user's project of its own, not part of Troupe's build.
    # docs/CONFIGURATION.md is a resource of the build too (the list of settings).
    newer=$(cd "$TROUPE_HOME" && find . -path ./.git -prune -o -path '*/target' -prune -o -path ./apps/montecarlo -prune \
      -o \( -name pom.xml -o -path '*/src/main/*' -o -path ./docs/CONFIGURATION.md \) -type f -newer "$stamp" -print -quit)
    [ -z "$newer" ] && return 0
  fi
  troupe_build
}

# Builds Troupe and installs it into the local Maven repository (without the tests). Its output goes to stderr:
# a launcher's stdout is the program's.
troupe_build() {
  troupe_need_maven
  echo "$(basename "$0"): building Troupe (mvn -q -DskipTests install)..." >&2
  (cd "$TROUPE_HOME" && mvn -B -q -ntp -DskipTests install 2>&1 | troupe_strip_colours) >&2 \
    || troupe_die "the build failed; see the Maven output above."
  touch "$TROUPE_STAMP"
}

# What a program that uses Troupe runs with (bin/classpath, bin/deploy): troupe-all, its libraries, slf4j-simple.
TROUPE_APP_CLASSPATH_FILE="$TROUPE_HOME/all/target/classpath.txt"
troupe_app_classpath() {
  local jar
  jar=$(ls "$TROUPE_HOME"/all/target/troupe-all-*.jar 2>/dev/null | head -n 1)
  [ -n "$jar" ] && [ -f "$TROUPE_APP_CLASSPATH_FILE" ] || troupe_die "all/target is missing: build Troupe with bin/install"
  echo "$jar:$(cat "$TROUPE_APP_CLASSPATH_FILE")"
}

# Class path of the app module $1 (apps/jem3d): its classes and its runtime class path, which its build writes.
troupe_module_classpath() {
  local file="$TROUPE_HOME/$1/target/classpath.txt"
  [ -f "$file" ] || troupe_die "$1/target/classpath.txt is missing: build Troupe with bin/install"
  echo "$TROUPE_HOME/$1/target/classes:$(cat "$file")"
}

# Class path of the tests module (benchmarks) and everything it needs.
troupe_bench_classpath() {
  echo "$TROUPE_HOME/tests/target/classes:$(cat "$TROUPE_STAMP")"
}

# Whether the arguments ask for help (-h, -help, --help): those up to the first that is $1 ("--run": a launcher's
# own end there, those after it are the program's), or all if $1 is empty.
troupe_wants_help() {
  local stop=$1 a; shift
  for a in "$@"; do
    [ -n "$stop" ] && [ "$a" = "$stop" ] && return 1
    case "$a" in -h|-help|--help) return 0 ;; esac
  done
  return 1
}

# Builds Troupe if it is stale (see troupe_build_if_stale), unless the arguments ask for help (troupe_wants_help
# "$@", or TROUPE_HELP=1 from a launcher that runs this one): help never waits for a rebuild, and is printed by the
# classes there are, even older than the sources. Before the first build there are none: help builds them.
troupe_build_unless_help() {
  if [ "${TROUPE_HELP:-}" = 1 ] || troupe_wants_help "$@"; then
    [ -f "$TROUPE_STAMP" ] || troupe_build
    return 0
  fi
  troupe_build_if_stale
}

troupe_find_java
# Maven itself (its bundled Guava) touches sun.misc.Unsafe; JDK 24+ warns on every build otherwise.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
