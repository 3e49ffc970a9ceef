#!/usr/bin/env bash
# Runs deploy/nginx/numisma.conf — a copy with test ports, a throwaway certificate and paths under
# a temporary directory — in front of two real server instances on PostgreSQL + Redis, and checks
# what docs/operations.md promises: pages and assets load over TLS, br/gzip come from the server
# and nothing is compressed twice, signed calls reach main and search with their paths intact, the
# push and chat WebSockets upgrade through nginx, X-Forwarded-* reach the server (HSTS only over
# https), oversized bodies stop at nginx, and restarting both instances in turn, as the docs'
# rolling restart does, loses no request. The instances run in production mode.
#
#   scripts/check-nginx.sh    # exit 0: every check passed; 1: one failed; 2: no nginx here
#                             # (1 with REQUIRE_NGINX=1, as CI should set it)
#   NGINX_CONF=/etc/nginx/conf.d/numisma.conf scripts/check-nginx.sh    # an edited copy
#
# Needs: nginx (Debian: apt-get install -y nginx-light), openssl, curl, PostgreSQL and Redis as in
# the README's prerequisites (PG_ADMIN_URL, REDIS_URL override), and a built web app (WEB_DIST,
# default apps/web/dist; without one the page checks are skipped, loudly).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
pg_admin=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
redis_url=${REDIS_URL:-redis://127.0.0.1:6379}
web_dist=${WEB_DIST:-$root/apps/web/dist}
# Another copy of the config (an edited one) may be checked instead.
conf=${NGINX_CONF:-$root/deploy/nginx/numisma.conf}
db_name=${CHECK_NGINX_DB:-numisma_check_nginx_$$}
work=$(mktemp -d /tmp/numisma-check-nginx.XXXXXX)
# nginx's workers (nobody, when started as root) write request bodies under it.
chmod 755 "$work"
name=shop.example.com

if ! command -v nginx >/dev/null; then
  # As REQUIRE_PG does for the test suites: in CI a missing nginx is a failure, not a skip.
  if [ "${REQUIRE_NGINX:-}" = 1 ]; then
    echo "FAIL: nginx is not installed and REQUIRE_NGINX=1 (apt-get install -y nginx-light)" >&2
    exit 1
  fi
  echo "SKIPPED: nginx is not installed (apt-get install -y nginx-light); nothing was checked" >&2
  exit 2
fi

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
http_port=$(free_port)
https_port=$(free_port)
port1=$(free_port)
port2=$(free_port)

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  psql "$pg_admin" -qc "drop database if exists $db_name" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

failures=0
pass() { echo "ok   $1"; }
fail() {
  echo "FAIL $1" >&2
  failures=$((failures + 1))
}
check() { # check <description> <command...>
  local what=$1
  shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}

psql "$pg_admin" -qc "create database $db_name" >/dev/null
database_url="${pg_admin%/*}/$db_name"

# --- two instances, as the systemd template runs them ---------------------------------------------
start_instance() { # start_instance <n> <port>
  mkdir -p "$work/data$1"
  (
    cd "$root"
    exec env PORT="$2" HOST=127.0.0.1 DATA_DIR="$work/data$1" DATABASE_URL="$database_url" \
      REDIS_URL="$redis_url" SEED=demo TRUST_PROXY=127.0.0.1 WEB_DIST="$web_dist" \
      NUMISMA_ENV=production SMS_PROVIDER=sandbox PAY_PASSWORD_PEPPER=check-nginx-pepper-0123456789 \
      NUMISMA_ADMIN_PASSWORD=check-nginx-admin LOG_FORMAT=json LOG_LEVEL=warn \
      SHUTDOWN_DRAIN_MS=5000 \
      node --import tsx apps/server/src/server.ts >"$work/instance$1.log" 2>&1
  ) &
  pids+=($!)
  eval "instance$1_pid=$!"
}
wait_healthy() { # wait_healthy <port> <pid>
  for _ in $(seq 1 180); do
    curl -sf "http://127.0.0.1:$1/svc/health" >/dev/null && return 0
    kill -0 "$2" 2>/dev/null || break
    sleep 0.5
  done
  echo "instance on $1 did not come up:" >&2
  cat "$work"/instance*.log >&2
  return 1
}
# One after the other: the first seeds the demo data into the empty database.
start_instance 1 "$port1"
wait_healthy "$port1" "$instance1_pid"
start_instance 2 "$port2"
wait_healthy "$port2" "$instance2_pid"

# --- nginx: the deploy config with test ports and paths -------------------------------------------
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=$name" \
  -addext "subjectAltName=DNS:$name" -keyout "$work/privkey.pem" -out "$work/fullchain.pem" \
  2>/dev/null
mkdir -p "$work/acme" "$work/logs"
sed -e "s/127\.0\.0\.1:8081/127.0.0.1:$port1/g" \
  -e "s/127\.0\.0\.1:8082/127.0.0.1:$port2/g" \
  -e "s/listen 80\b/listen 127.0.0.1:$http_port/g" \
  -e "s/listen 443\b/listen 127.0.0.1:$https_port/g" \
  -e "s#/etc/letsencrypt/live/$name#$work#g" \
  -e "s#/var/www/acme#$work/acme#g" \
  -e "s#/var/log/nginx#$work/logs#g" \
  "$conf" >"$work/numisma.conf"
cat >"$work/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  client_body_temp_path $work/body;
  proxy_temp_path $work/proxy;
  fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi;
  scgi_temp_path $work/scgi;
  include $work/numisma.conf;
}
EOF
nginx -t -q -c "$work/nginx.conf" -p "$work"
pass "nginx -t accepts deploy/nginx/numisma.conf"
nginx -c "$work/nginx.conf" -p "$work" &
pids+=($!)
for _ in $(seq 1 50); do
  curl -sk -o /dev/null --resolve "$name:$https_port:127.0.0.1" "https://$name:$https_port/svc/health" && break
  sleep 0.2
done

base="https://$name:$https_port"
c() { curl -sk --resolve "$name:$https_port:127.0.0.1" --resolve "$name:$http_port:127.0.0.1" "$@"; }
header() { # header <name> <curl args...>: the value of one response header (last one if several)
  local h=$1
  shift
  c -o /dev/null -D - "$@" | tr -d '\r' | awk -v h="$(echo "$h" | tr A-Z a-z)" \
    'BEGIN{FS=": "} tolower($1)==h {v=$2} END{print v}'
}
count_header() {
  local h=$1
  shift
  c -o /dev/null -D - "$@" | tr -d '\r' | grep -ci "^$h:" || true
}

# --- checks ---------------------------------------------------------------------------------------
check "http:// redirects to https://" \
  test "$(c -o /dev/null -w '%{http_code} %{redirect_url}' "http://$name:$http_port/lots/1")" = "301 https://$name/lots/1"
check "an unknown Host is refused (default server)" \
  test "$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: other.example' "http://127.0.0.1:$http_port/")" = "000"
check "GET /svc/health through nginx over HTTP/2" \
  test "$(c -o /dev/null -w '%{http_code} %{http_version}' --http2 "$base/svc/health")" = "200 2"
check "a small answer (< 1 KB) goes out uncompressed" \
  test -z "$(header content-encoding -H 'Accept-Encoding: br, gzip' "$base/svc/health")"

if [ -f "$web_dist/index.html" ]; then
  check "the home page loads (200, html)" \
    test "$(c -o /dev/null -w '%{http_code} %{content_type}' "$base/")" = "200 text/html; charset=utf-8"
  check "the home page comes br from the server, once" \
    test "$(header content-encoding -H 'Accept-Encoding: gzip, deflate, br' "$base/")" = "br"
  check "the home page decodes to the app's HTML" \
    bash -c "curl -sk --compressed --resolve '$name:$https_port:127.0.0.1' '$base/' | grep -q '<div id=\"root\"'"
  check "a client route (SPA fallback) loads" \
    test "$(c -o /dev/null -w '%{http_code}' "$base/lots/1")" = "200"
  check "the staff console loads" \
    test "$(c -o /dev/null -w '%{http_code}' "$base/admin")" = "200"
  asset=$(c "$base/" --compressed | grep -o '/assets/[^"]*\.js' | head -1)
  check "an asset comes precompressed (gzip for a gzip-only client)" \
    test "$(header content-encoding -H 'Accept-Encoding: gzip' "$base$asset")" = "gzip"
  check "an asset carries one Content-Encoding and its year-long cache" \
    test "$(count_header content-encoding -H 'Accept-Encoding: br' "$base$asset") $(header cache-control "$base$asset")" = "1 public, max-age=31536000, immutable"
else
  echo "SKIPPED page and asset checks: no web build at $web_dist (npm run build -w @numisma/web, or set WEB_DIST)" >&2
fi

# Signed calls (the signature covers the path: nginx must pass it untouched), to main and search;
# the same request again reaches the other instance and is refused there (nonces in Redis).
signed=$(cd "$root" && node --import tsx scripts/check-nginx.signed.mjs "$https_port" "$name")
echo "     signed calls: $signed"
field() { node -e 'const o = JSON.parse(process.argv[1]); console.log(process.argv[2].split(".").reduce((v, k) => v[k], o))' "$signed" "$1"; }
check "a signed call to /svc/main answers 200" test "$(field main.status)" = 200
check "a signed call to /svc/search answers 200" test "$(field search.status)" = 200
check "an API answer over 1 KB comes br-compressed by the server" \
  test "$(field main.encoding)" = br -o "$(field main.bytes)" -lt 1024
check "the same signed request replayed (round robin: to the other instance) is refused: NONCE_REPLAYED" \
  test "$(field replayCode)" = NONCE_REPLAYED
check "HSTS is sent once: the server saw X-Forwarded-Proto https from a trusted proxy" \
  test "$(count_header strict-transport-security "$base/svc/health")" = "1"
check "/svc/search/* reaches the server (its coded 404, not nginx's page)" \
  bash -c "curl -sk --resolve '$name:$https_port:127.0.0.1' '$base/svc/search/nothing-here' | grep -q '\"code\"'"
post_zeros() { # post_zeros <bytes>: the status of a POST of that many bytes
  head -c "$1" /dev/zero >"$work/body.bin"
  c -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/octet-stream' \
    --data-binary @"$work/body.bin" "$base/svc/main/admin/photos"
  rm -f "$work/body.bin"
}
status=$(post_zeros 21065536)
check "a body the size of the server's photo limit passes nginx (the server refuses it: $status)" \
  test "$status" = 401 -o "$status" = 403 -o "$status" = 404
check "a body over client_max_body_size (22 MiB) stops at nginx (413)" \
  test "$(post_zeros 24000000)" = "413"

# WebSockets through nginx, with the page's own Origin (host and port, as a browser sends it).
ws_probe() { # ws_probe <path>: prints "open" or "close <code>" or "error <message>"
  (cd "$root" && node -e '
    const WebSocket = require("ws")
    const [port, name, path] = process.argv.slice(1)
    const ws = new WebSocket(`wss://127.0.0.1:${port}${path}`, {
      headers: { Host: `${name}:${port}` }, servername: name, rejectUnauthorized: false,
      origin: `https://${name}:${port}`,
    })
    const done = (text) => { console.log(text); process.exit(0) }
    ws.on("open", () => setTimeout(() => done(ws.readyState === 1 ? "open" : "closed"), 300))
    ws.on("close", (code) => done(`close ${code}`))
    ws.on("unexpected-response", (_req, res) => done(`http ${res.statusCode}`))
    ws.on("error", (error) => done(`error ${error.message}`))
    setTimeout(() => done("timeout"), 5000)
  ' "$https_port" "$name" "$1")
}
check "the push socket /svc/push/ws upgrades through nginx and stays open" \
  test "$(ws_probe /svc/push/ws)" = "open"
check "the collectors' chat socket /svc/push/chat upgrades (then 1008: no session)" \
  test "$(ws_probe /svc/push/chat)" = "close 1008"
check "a foreign page's socket is refused by the server (403), Origin passed through" \
  bash -c "cd '$root' && node -e '
    const WebSocket = require(\"ws\")
    const ws = new WebSocket(\"wss://127.0.0.1:$https_port/svc/push/ws\", { headers: { Host: \"$name:$https_port\" },
      servername: \"$name\", rejectUnauthorized: false, origin: \"https://evil.example\" })
    ws.on(\"unexpected-response\", (_q, res) => process.exit(res.statusCode === 403 ? 0 : 1))
    ws.on(\"open\", () => process.exit(1)); ws.on(\"error\", () => process.exit(1))'"

# Both instances serve: over 20 requests the access log names both upstreams.
for _ in $(seq 1 20); do c -o /dev/null "$base/svc/health"; done
check "requests are spread over both instances" \
  test "$(grep -o "upstream=127.0.0.1:[0-9]*" "$work/logs/numisma.access.log" | sort -u | wc -l)" = "2"

# Rolling restart under continuous traffic, as docs/operations.md section 11 does it: instance 1
# is stopped as systemd stops it (SIGTERM, the example env's 5 s drain window) and started again; once it is ready, and nginx no
# longer skips it (ROLLING_PAUSE, 6 s: over the upstreams' fail_timeout), the same for instance 2.
# No request may get a 5xx or no answer meanwhile, and the push sockets nginx gave instance 1 are
# closed with 1012 and a reconnect hint, through nginx. ROLLING_PAUSE=0 shows the 502s of
# restarting the second instance too early.
pause=${ROLLING_PAUSE:-6}
wait_ready() { # wait_ready <port>: as the docs' loop does
  for _ in $(seq 1 180); do
    curl -sf "http://127.0.0.1:$1/svc/ready" >/dev/null && return 0
    sleep 0.5
  done
  echo "instance on $1 did not become ready:" >&2
  cat "$work"/instance*.log >&2
  return 1
}
restart_instance() { # restart_instance <n> <port>: prints the exit status of the stopped process
  local pid_var="instance$1_pid" status=0
  kill -TERM "${!pid_var}"
  wait "${!pid_var}" 2>/dev/null || status=$?
  echo "$status" >"$work/exit$1"
  cp "$work/instance$1.log" "$work/instance$1.stopped.log"
  start_instance "$1" "$2"
  wait_ready "$2"
}
(cd "$root" && exec node -e '
  const WebSocket = require("ws")
  const [port, name] = process.argv.slice(1)
  let open = 0
  for (let i = 0; i < 4; i++) {
    const ws = new WebSocket(`wss://127.0.0.1:${port}/svc/push/ws`, {
      headers: { Host: `${name}:${port}` }, servername: name, rejectUnauthorized: false,
      origin: `https://${name}:${port}`,
    })
    ws.on("open", () => { if (++open === 4) console.log("open") })
    ws.on("close", (code, reason) => console.log(`close ${code} ${reason}`))
    ws.on("error", () => undefined)
  }
  // The 1012 comes after the drain window of the instance (SHUTDOWN_DRAIN_MS, 5 s).
  setTimeout(() => process.exit(0), 15000)
' "$https_port" "$name" >"$work/sockets.log") &
sockets_pid=$!
pids+=("$sockets_pid")
for _ in $(seq 1 50); do grep -q open "$work/sockets.log" && break; sleep 0.1; done
# Traffic: a GET and a POST after the other, until told to stop.
(
  while [ ! -e "$work/traffic.stop" ]; do
    c -o /dev/null -w '%{http_code}\n' "$base/svc/health" || true
    c -o /dev/null -w '%{http_code}\n' -X POST -H 'Content-Type: application/json' -d '{}' \
      "$base/svc/main/passport/nothing" || true
  done
) >"$work/traffic.log" &
traffic_pid=$!
pids+=("$traffic_pid")
sleep 1
restart_instance 1 "$port1"
sleep "$pause"
restart_instance 2 "$port2"
# Traffic goes on until nginx takes instance 2 back too (the check after the next).
sleep "$pause"
touch "$work/traffic.stop"
wait "$traffic_pid" 2>/dev/null || true
summary=$(sort "$work/traffic.log" | uniq -c | tr -s ' \n' ' ')
check "restarting both instances in turn (${pause} s apart), no request got a 5xx or no answer (got: $summary)" \
  bash -c "test \$(wc -l <'$work/traffic.log') -ge 20 && ! grep -qE '^(5[0-9][0-9]|000)$' '$work/traffic.log'"
check "both instances exited 0 on SIGTERM, with no error logged" \
  bash -c "test \$(cat '$work/exit1') = 0 && test \$(cat '$work/exit2') = 0 && ! grep -q '\"level\":[56]0' '$work/instance1.stopped.log' '$work/instance2.stopped.log'"
wait "$sockets_pid" 2>/dev/null || true
check "instance 1's push sockets were closed through nginx with 1012 and a reconnect hint ($(grep -c '^close' "$work/sockets.log") of 4)" \
  grep -qE '^close 1012 \{"retryAfterMs":[0-9]+\}$' "$work/sockets.log"
check "after the restarts, requests are spread over both instances again" \
  bash -c "for _ in \$(seq 1 10); do curl -sk -o /dev/null --resolve '$name:$https_port:127.0.0.1' '$base/svc/health'; done; test \$(tail -10 '$work/logs/numisma.access.log' | grep -o 'upstream=127.0.0.1:[0-9]*' | sort -u | wc -l) = 2"

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed; nginx error log:" >&2
  cat "$work/logs/error.log" >&2
  exit 1
fi
echo "all nginx checks passed"
