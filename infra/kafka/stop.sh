#!/usr/bin/env bash
# Stop the broker started by start.sh (PID file), SIGTERM first, SIGKILL after a bounded wait.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"
ROOT_DIR="$(cd "$SCRIPT_DIR/../.." && pwd)"
DATA_DIR="${KAFKA_DATA_DIR:-$ROOT_DIR/.data/kafka}"
TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"   # seconds to wait for a clean shutdown
PID_FILE="$DATA_DIR/kafka.pid"

pid="$(cat "$PID_FILE" 2>/dev/null || true)"
# Only signal the PID if it is still a Kafka broker (the PID may have been reused).
if [ -z "$pid" ] || ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka '; then
  echo "kafka: not running"; rm -f "$PID_FILE"; exit 0
fi

kill -TERM "$pid" 2>/dev/null || true
start=$SECONDS
while kill -0 "$pid" 2>/dev/null && [ $((SECONDS - start)) -lt "$TIMEOUT" ]; do sleep 0.2; done
if kill -0 "$pid" 2>/dev/null; then
  echo "kafka: pid $pid still alive after ${TIMEOUT}s, sending SIGKILL" >&2
  kill -KILL "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
fi
rm -f "$PID_FILE"
echo "kafka: stopped pid $pid after $((SECONDS - start))s"
