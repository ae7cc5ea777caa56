#!/usr/bin/env bash
# Validates docker-compose.yml (syntax, schema, interpolation, referenced env files) without a Docker
# engine, using whichever compose implementation is installed:
#   1. `docker compose` (the Compose v2 CLI plugin)
#   2. `docker-compose` (standalone; Debian 12: `apt-get install -y --no-install-recommends docker-compose`,
#      version 1.29; without --no-install-recommends apt also pulls in the docker.io engine)
# Exits non-zero when the file is invalid. Exits 0 with "skipped: ..." only when neither is installed.
#
# Usage: tools/check-compose.sh [compose-file]   (default: docker-compose.yml at the repository root)
set -euo pipefail

if [[ $# -gt 0 ]]; then
  if [[ ! -f "$1" ]]; then
    echo "check-compose: $1 not found" >&2
    exit 1
  fi
  file="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
fi
cd "$(dirname "$0")/.."
file="${file:-docker-compose.yml}"
if [[ ! -f "$file" ]]; then
  echo "check-compose: $file not found" >&2
  exit 1
fi

# Validate what the file says, not what the caller's shell happens to export: values the file
# interpolates from the environment (SANDBOX_API_KEY, CARD_DATA_KEY, SANDBOX, EGRESS_ALLOWLIST) fall
# back to their defaults, and no .env file beside it is read.
run() {
  env -u SANDBOX -u SANDBOX_API_KEY -u CARD_DATA_KEY -u EGRESS_ALLOWLIST -u COMPOSE_FILE -u COMPOSE_PROJECT_NAME "$@"
}

# An empty env file in place of the .env beside the compose file (/dev/null is refused by docker-compose 1.x).
empty_env="$(mktemp)"
trap 'rm -f "$empty_env"' EXIT

if command -v docker >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
  tool="docker compose ($(docker compose version --short 2>/dev/null || echo '?'))"
  cmd=(docker compose --env-file "$empty_env" -f "$file" config -q)
elif command -v docker-compose >/dev/null 2>&1; then
  tool="docker-compose ($(docker-compose version --short 2>/dev/null || echo '?'))"
  cmd=(docker-compose --env-file "$empty_env" -f "$file" config -q)
else
  echo "check-compose: skipped: neither docker compose nor docker-compose is installed (Debian: apt-get install -y --no-install-recommends docker-compose)"
  exit 0
fi

if ! run "${cmd[@]}"; then
  echo "check-compose: $file is INVALID according to $tool" >&2
  exit 1
fi
echo "check-compose: $file is valid according to $tool"
