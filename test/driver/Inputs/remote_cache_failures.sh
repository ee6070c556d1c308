# The runs of remote_cache_failures.test beside a redis-server of with_redis.py.
# $1: cut (the server killed mid-run) or slow (the server paused);
# $2: the test's folder (the project in src/, build/); $3: torchtidy; $4: expect_exit.py; $5: redis_proxy.py.
set -eu
mode=$1 TT=$3 EXPECT=$4 PROXY=$5
cd "$2"
run() {
  name=$1; shift
  python3 "$EXPECT" 1 "$TT" --quiet --checks='-*,torch-host-sync-in-loop,torch-copy-in-loop' --profile \
    --cache-dir="cache-$name" -p build "$@" > "$name.txt" 2> "$name.err"
}
export -f run
export TT EXPECT
if [ "$mode" = cut ]; then
  # A fills the store; the next run, one file at a time, gets three entries,
  # and the server is killed when it asks for the fourth.
  run A -j1 --remote-cache=redis://127.0.0.1:$REDIS_PORT
  python3 "$PROXY" 3 cut.proxy -- bash -c 'run cut -j1 --remote-cache=redis://127.0.0.1:$PROXY_PORT'
else
  # Paused for five minutes: no answer comes, and the run must not wait for one.
  redis-cli -p "$REDIS_PORT" CLIENT PAUSE 300000 ALL > /dev/null
  python3 "$PROXY" never slow.proxy -- \
    bash -c 'run slow -j2 --remote-cache=redis://127.0.0.1:$PROXY_PORT --remote-cache-timeout=300'
  # The run ended while the server was still paused.
  if timeout 2 redis-cli -p "$REDIS_PORT" PING > /dev/null; then echo answered; else echo paused; fi > slow.paused
fi
