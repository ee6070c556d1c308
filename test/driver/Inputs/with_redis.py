"""Runs a command beside a real redis-server on a free loopback port
(REDIS_PORT in its environment; nothing saved, in DIR), and stops the
server afterwards, whatever the command did. Exits with the command's status."""
import os, socket, subprocess, sys, time

work, cmd = sys.argv[1], sys.argv[3:]  # with_redis.py DIR -- command...
os.makedirs(work, exist_ok=True)
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                           "--save", "", "--appendonly", "no", "--dir", work],
                          stdout=subprocess.DEVNULL)
try:
    for _ in range(100):
        if subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).stdout.strip() == b"PONG":
            break
        time.sleep(0.05)
    env = dict(os.environ, REDIS_PORT=str(port), REDIS_PID=str(server.pid))
    sys.exit(subprocess.run(cmd, env=env).returncode)
finally:
    server.kill()
    server.wait()
