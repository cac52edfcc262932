#!/usr/bin/env bash
# Makes sure the local Redis (127.0.0.1:6379) and RabbitMQ (127.0.0.1:5672)
# that tagtrail and its tests use are answering, starting the machine's own
# servers if they are not, and that Chromium (for the web console's browser
# tests) and python3-pika (for the queue consumer test) are installed. Exits 1 with a clear message if Redis or RabbitMQ
# cannot be started. Safe to run again: services already up are left alone.
#
#   TAGTRAIL_SKIP_SERVICES=1   do nothing (services are managed elsewhere)
#   RABBITMQ_WAIT_SECONDS=60   how long to wait for RabbitMQ to accept connections
#   ENSURE_REDIS_PORT, ENSURE_AMQP_PORT   other ports (for testing this script)
set -euo pipefail

if [[ "${TAGTRAIL_SKIP_SERVICES:-0}" == "1" ]]; then
  echo "ensure-services: TAGTRAIL_SKIP_SERVICES=1, not checking Redis or RabbitMQ"
  exit 0
fi

REDIS_PORT="${ENSURE_REDIS_PORT:-6379}"
AMQP_PORT="${ENSURE_AMQP_PORT:-5672}"
RABBITMQ_WAIT_SECONDS="${RABBITMQ_WAIT_SECONDS:-60}"
REDIS_LOG=/var/log/redis/ci.log

log() { echo "ensure-services: $*"; }
fail() {
  echo "ensure-services: ERROR: $*" >&2
  exit 1
}

# A TCP connect through bash itself: needs no client tools.
port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

redis_answers() {
  if command -v redis-cli >/dev/null 2>&1; then
    [[ "$(timeout 2 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" == "PONG" ]]
  else
    port_open "$REDIS_PORT"
  fi
}

# A missing server is installed from Debian's packages when we can (root with
# apt-get); machines of this project's kind ship both already.
install_if_missing() {
  local cmd="$1" pkg="$2"
  command -v "$cmd" >/dev/null 2>&1 && return 0
  if [[ "$(id -u)" == "0" ]] && command -v apt-get >/dev/null 2>&1; then
    log "$cmd not found, installing Debian package $pkg"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || fail "apt-get update failed while installing $pkg"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null || fail "could not install $pkg"
  else
    fail "$cmd not found; install $pkg (e.g. apt-get install $pkg) or set TAGTRAIL_SKIP_SERVICES=1"
  fi
}

ensure_redis() {
  if redis_answers; then
    log "Redis is answering on 127.0.0.1:$REDIS_PORT"
    return 0
  fi
  install_if_missing redis-server redis-server
  log "starting Redis on 127.0.0.1:$REDIS_PORT"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" --appendonly no \
    --dir /var/lib/redis --logfile "$REDIS_LOG" ||
    fail "redis-server failed to start (see $REDIS_LOG)"
  for _ in $(seq 1 50); do
    redis_answers && { log "Redis started"; return 0; }
    sleep 0.2
  done
  fail "Redis did not answer on 127.0.0.1:$REDIS_PORT within 10 s after starting (see $REDIS_LOG)"
}

ensure_rabbitmq() {
  if port_open "$AMQP_PORT"; then
    log "RabbitMQ is answering on 127.0.0.1:$AMQP_PORT"
    return 0
  fi
  install_if_missing rabbitmq-server rabbitmq-server
  log "starting RabbitMQ (waiting up to ${RABBITMQ_WAIT_SECONDS} s)"
  # -detached returns at once; a node that is already booting just refuses a
  # second start, so the wait below decides success either way.
  rabbitmq-server -detached || log "rabbitmq-server -detached returned $?; waiting for the port anyway"
  local deadline=$((SECONDS + RABBITMQ_WAIT_SECONDS))
  while ((SECONDS < deadline)); do
    port_open "$AMQP_PORT" && { log "RabbitMQ started"; return 0; }
    sleep 1
  done
  fail "RabbitMQ did not accept connections on 127.0.0.1:$AMQP_PORT within ${RABBITMQ_WAIT_SECONDS} s (see /var/log/rabbitmq/)"
}

# The docs' curl examples, run by test/docs/examples.e2e.spec.ts, use curl and jq.
install_if_missing curl curl
install_if_missing jq jq
ensure_redis
ensure_rabbitmq

# The web console's browser tests drive Debian's Chromium. Installed where we
# can (root with apt-get, as in CI); elsewhere a warning, since only those
# tests need it (they then fail naming the missing browser).
ensure_chromium() {
  local browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
  if [[ -x "$browser" ]]; then
    log "Chromium found at $browser"
  elif [[ "$(id -u)" == "0" ]] && command -v apt-get >/dev/null 2>&1; then
    install_if_missing chromium chromium
  else
    log "WARNING: Chromium not found at $browser; the console's browser tests need it (apt-get install chromium)"
  fi
}

ensure_chromium

# The queue tests read messages with pika, as Python consumers do
# (test/queues/consumers.int.spec.ts), through Debian's python3 and its package.
ensure_pika() {
  if /usr/bin/python3 -c 'import pika' >/dev/null 2>&1; then
    log "python3-pika found"
  elif [[ "$(id -u)" == "0" ]] && command -v apt-get >/dev/null 2>&1; then
    log "python3-pika not found, installing it"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || fail "apt-get update failed while installing python3-pika"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pika >/dev/null || fail "could not install python3-pika"
  else
    log "WARNING: python3-pika not found; the queue consumer test needs it (apt-get install python3-pika)"
  fi
}

ensure_pika
