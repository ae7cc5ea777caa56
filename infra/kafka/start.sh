#!/usr/bin/env bash
# Start a single-node Apache Kafka 3.9.1 broker (KRaft) on 127.0.0.1 in the background.
# Idempotent: fetches jars and formats storage only the first time; exits 0 if a broker
# already answers. See README.md in this folder.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"
ROOT_DIR="$(cd "$SCRIPT_DIR/../.." && pwd)"
PORT="${KAFKA_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
DATA_DIR="${KAFKA_DATA_DIR:-$ROOT_DIR/.data/kafka}"
TIMEOUT="${KAFKA_START_TIMEOUT:-90}"   # seconds to wait for readiness
LIBS="$DATA_DIR/libs"
LOG_DIRS="$DATA_DIR/logs"
PID_FILE="$DATA_DIR/kafka.pid"
SERVER_LOG="$DATA_DIR/server.log"
PROPS="$DATA_DIR/server.properties"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# True if something accepts TCP connections on 127.0.0.1:$1 (bash /dev/tcp; no nc needed).
port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }
# True if the PID in the PID file is alive and is a Kafka broker (guards against PID reuse).
our_broker_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid; pid="$(cat "$PID_FILE")"
  [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka ' && echo "$pid"
}

if pid="$(our_broker_pid)" && port_open "$PORT"; then
  echo "kafka: already running (pid $pid) on 127.0.0.1:$PORT"; exit 0
fi
if port_open "$PORT"; then
  echo "kafka: something already answers on 127.0.0.1:$PORT (not started by this script); using it"; exit 0
fi
if pid="$(our_broker_pid)"; then
  # Alive but not answering yet: probably another start.sh is still waiting for it.
  echo "kafka: pid $pid is running but port $PORT is not open yet; run stop.sh first" >&2; exit 1
fi
rm -f "$PID_FILE"
mkdir -p "$DATA_DIR" "$LOG_DIRS"

# 1. Jars. The stamp holds the pom's hash so a changed pom refetches; ~/.m2 makes refetching fast.
stamp="$(sha256sum "$SCRIPT_DIR/pom.xml" | cut -d' ' -f1)"
if [ "$(cat "$LIBS/.stamp" 2>/dev/null || true)" != "$stamp" ]; then
  echo "kafka: fetching jars into $LIBS"
  rm -rf "$LIBS.tmp" "$LIBS"
  # Plugin version pinned: Maven 3.8.7 would otherwise default to an old one. Output is kept
  # only on failure (Maven 3.8 prints stray ANSI resets even with -q -B, and errors to stdout).
  if ! out="$(mvn -q -B -f "$SCRIPT_DIR/pom.xml" \
      org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$LIBS.tmp" 2>&1)"; then
    echo "$out" >&2; echo "kafka: fetching jars failed" >&2; exit 1
  fi
  echo "$stamp" >"$LIBS.tmp/.stamp"
  mv "$LIBS.tmp" "$LIBS"   # only a complete folder gets the final name
fi

# 2. Config, rendered every start so port/dir overrides take effect.
sed -e "s|@KAFKA_PORT@|$PORT|g" -e "s|@KAFKA_CONTROLLER_PORT@|$CONTROLLER_PORT|g" \
    -e "s|@LOG_DIRS@|$LOG_DIRS|g" "$SCRIPT_DIR/server.properties.template" >"$PROPS"

JAVA_OPTS=(-Xms256m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError
  -Djava.awt.headless=true "-Dlog4j.configuration=file:$SCRIPT_DIR/log4j.properties")

# 3. Format storage once. Cluster id = 16 random bytes, base64url without padding (22 chars);
#    redraw ids starting with '-' so the CLI parser does not read them as an option.
if [ ! -f "$LOG_DIRS/meta.properties" ]; then
  cluster_id="-"
  while [ "${cluster_id#-}" != "$cluster_id" ]; do
    cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
  done
  echo "kafka: formatting $LOG_DIRS (cluster id $cluster_id)"
  "$JAVA" "${JAVA_OPTS[@]}" -cp "$LIBS/*" kafka.tools.StorageTool \
    format -t "$cluster_id" -c "$PROPS" -g
fi

# 4. Start in the background; keep the previous run's log for post-mortems.
[ -f "$SERVER_LOG" ] && mv "$SERVER_LOG" "$SERVER_LOG.prev"
nohup "$JAVA" "${JAVA_OPTS[@]}" -cp "$LIBS/*" kafka.Kafka "$PROPS" </dev/null >"$SERVER_LOG" 2>&1 &
pid=$!
echo "$pid" >"$PID_FILE"
echo "kafka: started pid $pid, waiting up to ${TIMEOUT}s (log: $SERVER_LOG)"

# 5. Wait for the started line and an open port; fail fast if the JVM dies.
start=$SECONDS; t0="$(date +%s%N)"
while [ $((SECONDS - start)) -lt "$TIMEOUT" ]; do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "kafka: broker exited during startup; last log lines:" >&2
    tail -n 40 "$SERVER_LOG" >&2; rm -f "$PID_FILE"; exit 1
  fi
  if grep -q 'Kafka Server started' "$SERVER_LOG" && port_open "$PORT"; then
    echo "kafka: ready on 127.0.0.1:$PORT after $((($(date +%s%N) - t0) / 1000000)) ms"; exit 0
  fi
  sleep 0.5
done
echo "kafka: not ready after ${TIMEOUT}s; last log lines:" >&2
tail -n 40 "$SERVER_LOG" >&2
"$SCRIPT_DIR/stop.sh" >&2   # do not leave a half-started broker behind (same env, same PID file)
exit 1
