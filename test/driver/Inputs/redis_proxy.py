"""A proxy in front of the redis-server of with_redis.py, on a free loopback
port (PROXY_PORT in the command's environment), that counts what the client
does and can stop the server at a chosen point of a run: with KILL_AFTER K,
when the client asks for the (K+1)th result entry, it kills the server
(SIGKILL) and closes the client's connection before any answer; later
connections are closed at once, as a dead server's would fail. With
KILL_AFTER "never" it only counts. Writes to LOG how many connections it
accepted and how many result entries were asked for.

  redis_proxy.py KILL_AFTER LOG -- command...   (REDIS_PORT, REDIS_PID from with_redis.py)"""
import os, signal, socket, subprocess, sys, threading

limit, log, cmd = sys.argv[1], sys.argv[2], sys.argv[4:]
limit = None if limit == "never" else int(limit)
server_port, server_pid = int(os.environ["REDIS_PORT"]), int(os.environ["REDIS_PID"])
RESULT_GET = b"torchtidy/1/result/"
state = {"connections": 0, "asked": 0, "killed": False}
lock = threading.Lock()


def commands(sock):
    """Yields each command the client sends, as (raw bytes, [arguments])."""
    buf = b""
    while True:
        parsed = parse(buf)
        if parsed:
            end, args = parsed
            yield buf[:end], args
            buf = buf[end:]
            continue
        data = sock.recv(65536)
        if not data:
            return
        buf += data


def parse(buf):
    """A complete RESP array of bulk strings at the start of buf: (its length, args)."""
    if not buf.startswith(b"*") or b"\r\n" not in buf:
        return None
    head, pos = buf.index(b"\r\n"), 0
    n, pos, args = int(buf[1:head]), head + 2, []
    for _ in range(n):
        if b"\r\n" not in buf[pos:]:
            return None
        eol = buf.index(b"\r\n", pos)
        size = int(buf[pos + 1:eol])
        if len(buf) < eol + 2 + size + 2:
            return None
        args.append(buf[eol + 2:eol + 2 + size])
        pos = eol + 2 + size + 2
    return pos, args


def pipe(src, dst):
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    dst.close()


def serve(client):
    with lock:
        state["connections"] += 1
        if state["killed"]:
            client.close()
            return
    upstream = socket.create_connection(("127.0.0.1", server_port))
    threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
    for raw, args in commands(client):
        if args[:1] == [b"GET"] and args[1].startswith(RESULT_GET):
            with lock:
                state["asked"] += 1
                if limit is not None and state["asked"] == limit + 1:
                    state["killed"] = True
                    os.kill(server_pid, signal.SIGKILL)
                    client.shutdown(socket.SHUT_RDWR)
                    client.close()
                    return
        upstream.sendall(raw)
    upstream.close()


listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen()


def accept():
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client,), daemon=True).start()


threading.Thread(target=accept, daemon=True).start()
status = subprocess.run(cmd, env=dict(os.environ, PROXY_PORT=str(listener.getsockname()[1]))).returncode
with lock, open(log, "w") as f:
    f.write("connections=%d asked=%d killed=%s\n" % (state["connections"], state["asked"], state["killed"]))
sys.exit(status)
