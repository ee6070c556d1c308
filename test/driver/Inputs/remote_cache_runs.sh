# The runs of remote_cache.test that need the Redis server of with_redis.py.
# $1: the test's folder (checkouts a/ and b/ in it); $2: torchtidy; $3: expect_exit.py.
set -eu
cd "$1"
TT=$2 EXPECT=$3
run() {
  name=$1 checkout=$2; shift 2
  python3 "$EXPECT" 1 "$TT" --quiet --checks='-*,torch-host-sync-in-loop,torch-copy-in-loop' --profile \
    --cache-dir="cache-$name" -p "$checkout/build" "$@" > "$name.txt" 2> "$name.err"
}
URL=redis://127.0.0.1:$REDIS_PORT
# A fills the remote cache; B, another checkout with an empty local cache, takes every file from it.
run A a --remote-cache=$URL
run B b --remote-cache=$URL
# The same key in .torchtidy.yaml.
printf 'RemoteCache: %s\n' "$URL" > b/.torchtidy.yaml
run Bconfig b
rm b/.torchtidy.yaml
# Two entries corrupted: one overwritten, one with a byte changed after the checksum.
keys=$(redis-cli -p "$REDIS_PORT" --scan --pattern 'torchtidy/1/result/*' | sort)
set -- $keys
redis-cli -p "$REDIS_PORT" SET "$1" 'not an entry' > /dev/null
redis-cli -p "$REDIS_PORT" SETRANGE "$2" 90 'X' > /dev/null
run D b --remote-cache=$URL
# Rewritten: all hits again.
run E b --remote-cache=$URL
# Other checks: another key, a miss.
python3 "$EXPECT" 1 "$TT" --quiet --checks='-*,torch-host-sync-in-loop' --profile --cache-dir=cache-other \
  -p b/build --remote-cache=$URL > other.txt 2> other.err
# The server stopped: a warning, a local analysis.
kill "$REDIS_PID"
sleep 0.2
run C b --remote-cache=$URL
