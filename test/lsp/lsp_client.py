#!/usr/bin/env python3
"""A scripted LSP client for the tests: starts `torchtidy lsp`, plays the
steps given as `// STEP: ...` comments of a file, and prints what the server
answers in a stable form for FileCheck (lines and columns 1-based).

Steps (paths relative to --root):
  db FILE...                          write compile_commands.json (--db-flags)
  init [json initializationOptions]   initialize + initialized
  open FILE [LANGUAGE]                didOpen with the file's text
  edit FILE LINE OLD NEW              replace OLD by NEW on LINE, didChange (not saved)
  save FILE                           write the buffer, didSave
  close FILE
  ondisk FILE LINE                    print the line as the file on disk has it
  write FILE TEXT                     write a file (\\n escapes), as another program would
  diags FILE                          wait for the diagnostics of the buffer's version
  actions FILE LINE                   codeAction for LINE, print the actions
  apply FILE LINE N                   apply action N's edit to the buffer, print the line
  quiet SECONDS                       print anything the server sends meanwhile
  raw TEXT                            send TEXT as a message body (framed),
                                      print the response
  bytes TEXT                          the same, TEXT sent as is (\\r \\n escapes)
  request METHOD [JSON]               print the response
  notify METHOD [JSON]
  exit                                send exit, print the server's exit status
Words may name environment variables ($ROOT is --root). Diagnostics the
script did not wait for are printed as "unexpected diagnostics".
"""
import argparse, json, os, queue, shlex, subprocess, sys, threading, time

TIMEOUT = 300


class Client:
    def __init__(self, cmd, root, db_flags):
        self.root = root
        self.db_flags = db_flags
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.inbox = queue.Queue()
        self.docs = {}  # path -> [text, version]
        self.next_id = 1
        threading.Thread(target=self.reader, daemon=True).start()

    def reader(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            msg = json.loads(out.read(length))
            if os.environ.get("LSP_CLIENT_LOG"):  # for debugging a test
                sys.stderr.write("<<< %s\n" % json.dumps(msg)[:2000])
            self.inbox.put(msg)

    def path(self, name):
        return os.path.join(self.root, name)

    def uri(self, name):
        return "file://" + self.path(name)

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send_bytes(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == rid and "method" not in m)

    def wait(self, wanted, seconds=TIMEOUT):
        """The first message that wanted() accepts; the others are handled."""
        deadline = time.time() + seconds
        while True:
            try:
                msg = self.inbox.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                return None
            if msg is None:
                print("server closed its output")
                return None
            if wanted(msg):
                return msg
            self.other(msg)

    def other(self, msg):
        method = msg.get("method")
        if method == "window/showMessage":
            print("showMessage %d: %s" % (msg["params"]["type"], self.short(msg["params"]["message"])))
        elif "id" in msg and method:
            print("server request %s" % method)
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        elif "error" in msg:
            print("error %s: %d" % (msg.get("id"), msg["error"]["code"]))
        elif method == "$/progress":
            value = msg["params"]["value"]
            print("progress %s: %s" % (value["kind"], value.get("message", "")))
        elif method == "textDocument/publishDiagnostics":
            print("unexpected diagnostics %s v%s: %d" % (
                os.path.basename(msg["params"]["uri"]), msg["params"].get("version"),
                len(msg["params"]["diagnostics"])))

    def short(self, text):
        return text.replace(self.root + "/", "")

    def pos(self, p):
        return "%d:%d" % (p["line"] + 1, p["character"] + 1)

    def print_diags(self, name, msg):
        diags = msg["params"]["diagnostics"]
        print("diagnostics %s v%s: %d" % (os.path.basename(name), msg["params"].get("version"),
                                          len(diags)))
        for d in diags:
            r = d["range"]
            print("  %s-%s %s severity=%d source=%s href=%s: %s" % (
                self.pos(r["start"]), self.pos(r["end"]), d["code"], d["severity"], d["source"],
                d["codeDescription"]["href"].rsplit("/", 1)[-1], d["message"]))
            for rel in d.get("relatedInformation", []):
                loc = rel["location"]
                print("    note %s:%s: %s" % (os.path.basename(loc["uri"]),
                                            self.pos(loc["range"]["start"]), rel["message"]))

    def line_of(self, name, line):
        return self.docs[name][0].split("\n")[line - 1]

    def change(self, name, text):
        self.docs[name][0] = text
        self.docs[name][1] += 1
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri(name), "version": self.docs[name][1]},
            "contentChanges": [{"text": text}]})

    def actions(self, name, line):
        resp = self.request("textDocument/codeAction", {
            "textDocument": {"uri": self.uri(name)},
            "range": {"start": {"line": line - 1, "character": 0},
                      "end": {"line": line - 1, "character": 0}},
            "context": {"diagnostics": []}})
        return resp["result"]


def offset_of(text, pos):
    lines = text.split("\n")
    before = sum(len(l) + 1 for l in lines[:pos["line"]])
    # UTF-16 units to characters: the tests' lines are ASCII or BMP.
    return before + pos["character"]


def apply_edits(text, edits):
    for e in sorted(edits, key=lambda e: offset_of(text, e["range"]["start"]), reverse=True):
        a, b = offset_of(text, e["range"]["start"]), offset_of(text, e["range"]["end"])
        text = text[:a] + e["newText"] + text[b:]
    return text


def write_db(root, flags, files):
    entries = [{"directory": root, "file": os.path.join(root, f),
                "command": "clang++ %s -c %s" % (flags, os.path.join(root, f))} for f in files]
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)


def run_step(c, words):
    op, args = words[0], words[1:]
    if op == "db":
        write_db(c.root, c.db_flags, args)
    elif op == "init":
        opts = json.loads(args[0]) if args else {}
        caps = {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}},
                "window": {"workDoneProgress": True}}
        resp = c.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + c.root,
                                        "capabilities": caps, "initializationOptions": opts})
        print("initialize: %s" % json.dumps(resp["result"]["capabilities"], sort_keys=True))
        c.notify("initialized", {})
        # The watch of .torchtidy.yaml and compile_commands.json, asked at once.
        registration = c.wait(lambda m: m.get("method") == "client/registerCapability", 5)
        if registration:
            c.other(registration)
    elif op == "open":
        name = args[0]
        text = open(c.path(name), encoding="utf-8").read()
        c.docs[name] = [text, 1]
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": c.uri(name), "languageId": args[1] if len(args) > 1 else "cpp",
            "version": 1, "text": text}})
    elif op == "edit":
        name, line, old, new = args[0], int(args[1]), args[2], args[3]
        lines = c.docs[name][0].split("\n")
        assert old in lines[line - 1], "%r not on line %d" % (old, line)
        lines[line - 1] = lines[line - 1].replace(old, new, 1)
        c.change(name, "\n".join(lines))
    elif op == "save":
        with open(c.path(args[0]), "w", encoding="utf-8") as f:
            f.write(c.docs[args[0]][0])
        c.notify("textDocument/didSave", {"textDocument": {"uri": c.uri(args[0])}})
    elif op == "ondisk":
        print("on disk: %s" % open(c.path(args[0]), encoding="utf-8").read().split("\n")[int(args[1]) - 1])
    elif op == "write":
        with open(c.path(args[0]), "w", encoding="utf-8") as f:
            f.write(args[1].replace("\\n", "\n"))
    elif op == "close":
        c.notify("textDocument/didClose", {"textDocument": {"uri": c.uri(args[0])}})
    elif op == "diags":
        name = args[0]
        version = c.docs[name][1]
        msg = c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                     and m["params"]["uri"] == c.uri(name) and m["params"].get("version") == version)
        if msg is None:
            print("no diagnostics for %s v%d" % (name, version))
        else:
            c.print_diags(name, msg)
    elif op == "actions":
        for i, a in enumerate(c.actions(args[0], int(args[1]))):
            print("action %d: %s [%s]%s" % (i, a["title"], a["kind"],
                                            " preferred" if a.get("isPreferred") else ""))
            for uri, edits in sorted(a["edit"]["changes"].items()):
                for e in edits:
                    print("  %s %s-%s %r" % (os.path.basename(uri), c.pos(e["range"]["start"]),
                                             c.pos(e["range"]["end"]), e["newText"]))
    elif op == "apply":
        name, line, n = args[0], int(args[1]), int(args[2])
        action = c.actions(name, line)[n]
        edits = action["edit"]["changes"][c.uri(name)]
        c.change(name, apply_edits(c.docs[name][0], edits))
        print("applied: %s" % c.line_of(name, line))
    elif op == "quiet":
        c.wait(lambda m: False, float(args[0]))
        print("quiet done")
    elif op in ("raw", "bytes"):
        if op == "raw":
            c.send_bytes(b"Content-Length: %d\r\n\r\n" % len(args[0].encode()) + args[0].encode())
        else:
            c.send_bytes(args[0].replace("\\r", "\r").replace("\\n", "\n").encode())
        resp = c.wait(lambda m: "method" not in m, 10)
        print("no response" if resp is None else "error %s: %d" % (
            json.dumps(resp.get("id")), resp["error"]["code"]) if "error" in resp else "result")
    elif op == "request":
        rid = c.next_id
        resp = c.request(args[0], json.loads(args[1]) if len(args) > 1 else {})
        print("response %s: %s" % (args[0], json.dumps(resp.get("result"), sort_keys=True)
                                  if "error" not in resp else "error %d" % resp["error"]["code"]))
    elif op == "notify":
        c.notify(args[0], json.loads(args[1]) if len(args) > 1 else {})
    elif op == "exit":
        c.notify("exit", None)
        print("exit status %d" % c.proc.wait(timeout=60))
    else:
        raise SystemExit("unknown step " + op)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", help="the server's command line")
    ap.add_argument("--write-db", action="store_true",
                    help="only write compile_commands.json for the files given")
    ap.add_argument("--root", required=True)
    ap.add_argument("--db-flags", default="", help="the compiler flags of the db step")
    ap.add_argument("--prefix", default="STEP", help="play the '// <prefix>: ...' lines")
    ap.add_argument("steps", nargs="+", help="a file with '// STEP: ...' lines")
    a = ap.parse_args()
    if a.write_db:
        return write_db(os.path.abspath(a.root), a.db_flags, a.steps)
    os.environ["ROOT"] = os.path.abspath(a.root)
    c = Client(shlex.split(a.server), os.path.abspath(a.root), a.db_flags)
    for line in open(a.steps[0], encoding="utf-8"):
        _, sep, step = line.partition("// %s:" % a.prefix)
        if sep:
            print("> " + step.strip())
            sys.stdout.flush()
            run_step(c, [os.path.expandvars(w) for w in shlex.split(step)])
            sys.stdout.flush()


if __name__ == "__main__":
    main()
