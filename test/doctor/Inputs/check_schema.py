"""Checks a `torchtidy doctor --json` document against the schema of
docs/doctor.md (version 1): exact key sets and value types."""
import json
import sys

VERDICTS = {"ok", "warning", "failed"}
doc = json.load(open(sys.argv[1]))
top = {"schema", "schema_version", "verdict", "exit_status", "failed_layer",
       "failed_check", "cause", "next", "layers", "libtorch"}
keys = set(doc)
assert keys in (top, top | {"bench"}), keys
assert doc["schema"] == "torchtidy-doctor" and doc["schema_version"] == 1
assert doc["verdict"] in VERDICTS
torch = doc["libtorch"]
assert set(torch) == {"version", "cuda", "cudnn"}, torch.keys()
assert isinstance(torch["version"], str)
assert all(torch[k] is None or isinstance(torch[k], str) for k in ("cuda", "cudnn"))
assert [l["layer"] for l in doc["layers"]] == [1, 2, 3, 4]
failed = [l["layer"] for l in doc["layers"] if l["verdict"] == "failed"]
assert doc["exit_status"] == (failed[0] if failed else 0)
assert doc["failed_layer"] == (failed[0] if failed else None)
assert (doc["cause"] is None) == (doc["failed_layer"] is None)
seen_failed = False
for l in doc["layers"]:
    assert set(l) == {"layer", "name", "verdict", "checks"}, l.keys()
    assert l["verdict"] in VERDICTS | {"not run"}
    if seen_failed:
        assert l["verdict"] == "not run" and l["checks"] == []
    seen_failed = seen_failed or l["verdict"] == "failed"
    for c in l["checks"]:
        assert set(c) == {"check", "fact", "verdict", "cause", "next"}, c.keys()
        assert c["verdict"] in VERDICTS
        assert isinstance(c["check"], str) and isinstance(c["fact"], str)
        assert (c["cause"] is None) == (c["verdict"] == "ok")
        assert (c["next"] is None) == (c["verdict"] == "ok")
for m in doc.get("bench", []):
    assert set(m) == {"device", "measure", "value", "unit", "error"}, m.keys()
    assert m["unit"] in ("GB/s", "TFLOP/s")
print("schema ok")
