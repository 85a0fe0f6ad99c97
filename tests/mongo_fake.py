#!/usr/bin/python3
"""A stand-in MongoDB server for tests (no MongoDB server installs from Debian 12's packages):
it speaks the wire protocol as libmongoc uses it (the OP_QUERY handshake, then OP_MSG) and
answers hello, ping, find (filter {} only; sort by _id; top-level inclusion projection; limit;
batchSize), getMore, killCursors, count and listCollections over documents held in memory.
It checks what the client sends (an unknown command or a filter that is not {} is an error
reply), so a test sees what Relix asks for. It is no MongoDB: its answers are the documents
given, in _id order.

    mongo_fake.py FIXTURE.py PORTFILE [LOGFILE]

FIXTURE.py defines DATA = {"db.collection": [document, ...]} with the helper types below
(Int64, Date, ObjectId, Null for a BSON null). The server listens on a free port of 127.0.0.1,
writes its number to PORTFILE, and logs each command (its name and arguments) to LOGFILE.
"""
import socketserver
import struct
import sys
import threading


class Int64(int):
    pass


class Date(int):
    """UTC milliseconds."""


class ObjectId(bytes):
    pass


class Decimal128(bytes):
    """The 16 bytes of a BSON decimal128."""


# ---- BSON --------------------------------------------------------------------------------------

def enc_cstring(s):
    return s.encode() + b"\0"


def enc_element(k, v):
    name = enc_cstring(k)
    if v is None:
        return b"\x0a" + name
    if isinstance(v, bool):
        return b"\x08" + name + (b"\x01" if v else b"\x00")
    if isinstance(v, Date):
        return b"\x09" + name + struct.pack("<q", v)
    if isinstance(v, Int64):
        return b"\x12" + name + struct.pack("<q", v)
    if isinstance(v, int):
        return b"\x10" + name + struct.pack("<i", v)
    if isinstance(v, float):
        return b"\x01" + name + struct.pack("<d", v)
    if isinstance(v, str):
        b = v.encode()
        return b"\x02" + name + struct.pack("<i", len(b) + 1) + b + b"\0"
    if isinstance(v, ObjectId):
        return b"\x07" + name + bytes(v)
    if isinstance(v, Decimal128):
        return b"\x13" + name + bytes(v)
    if isinstance(v, dict):
        return b"\x03" + name + encode(v)
    if isinstance(v, list):
        return b"\x04" + name + encode({str(i): x for i, x in enumerate(v)})
    if isinstance(v, tuple) and v[0] == "binary":
        return b"\x05" + name + struct.pack("<i", len(v[2])) + bytes([v[1]]) + v[2]
    raise TypeError("cannot encode %r" % (v,))


def encode(doc):
    body = b"".join(enc_element(k, v) for k, v in doc.items())
    return struct.pack("<i", len(body) + 5) + body + b"\0"


def decode(buf, pos=0):
    """The document at buf[pos:], and the position after it."""
    (n,) = struct.unpack_from("<i", buf, pos)
    end = pos + n - 1
    p = pos + 4
    doc = {}
    while p < end:
        t = buf[p]
        p += 1
        z = buf.index(b"\0", p)
        k = buf[p:z].decode()
        p = z + 1
        if t == 0x01:
            (v,) = struct.unpack_from("<d", buf, p); p += 8
        elif t == 0x02:
            (m,) = struct.unpack_from("<i", buf, p); v = buf[p + 4:p + 3 + m].decode(); p += 4 + m
        elif t in (0x03, 0x04):
            v, p = decode(buf, p)
            if t == 0x04:
                v = [v[x] for x in v]
        elif t == 0x05:
            (m,) = struct.unpack_from("<i", buf, p); v = ("binary", buf[p + 4], buf[p + 5:p + 5 + m]); p += 5 + m
        elif t == 0x07:
            v = ObjectId(buf[p:p + 12]); p += 12
        elif t == 0x08:
            v = buf[p] == 1; p += 1
        elif t == 0x09:
            v = Date(struct.unpack_from("<q", buf, p)[0]); p += 8
        elif t == 0x0a:
            v = None
        elif t == 0x10:
            (v,) = struct.unpack_from("<i", buf, p); p += 4
        elif t in (0x11, 0x12):
            v = Int64(struct.unpack_from("<q", buf, p)[0]); p += 8
        else:
            raise ValueError("BSON type %#x not decoded" % t)
        doc[k] = v
    return doc, end + 1


# ---- the commands ------------------------------------------------------------------------------

DATA = {}
LOG = None
LOCK = threading.Lock()
CURSORS = {}
NEXT_CURSOR = [1000]


def log(text):
    if LOG:
        with LOCK, open(LOG, "a") as f:
            f.write(text + "\n")


def show(v):
    if isinstance(v, dict):
        return "{" + ", ".join("%s: %s" % (k, show(x)) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(show(x) for x in v) + "]"
    return repr(v) if isinstance(v, str) else str(v)


def batch(ns, docs, size, first):
    """The cursor reply holding the first size of docs, the rest kept under a new id."""
    size = size or 101
    now, rest = docs[:size], docs[size:]
    cid = 0
    if rest:
        with LOCK:
            cid = NEXT_CURSOR[0]
            NEXT_CURSOR[0] += 1
            CURSORS[cid] = (ns, rest)
    return {"cursor": {"firstBatch" if first else "nextBatch": now, "id": Int64(cid), "ns": ns}, "ok": 1.0}


def error(msg, code=2):
    return {"ok": 0.0, "errmsg": msg, "code": code}


def command(body):
    name = next(iter(body))
    db = body.get("$db", "admin")
    if name.lower() in ("ismaster", "hello"):
        return {"ismaster": True, "isWritablePrimary": True, "helloOk": True, "maxBsonObjectSize": 16777216,
                "maxMessageSizeBytes": 48000000, "maxWriteBatchSize": 100000, "localTime": Date(0),
                "connectionId": 1, "minWireVersion": 0, "maxWireVersion": 13, "readOnly": False, "ok": 1.0}
    args = {k: v for k, v in body.items() if k not in ("$db", "lsid", "$readPreference", "$clusterTime")}
    log("%s on %s: %s" % (name, db, show(args)))
    if name == "ping" or name == "endSessions":
        return {"ok": 1.0}
    if name == "find":
        ns = "%s.%s" % (db, body["find"])
        if body.get("filter", {}) != {}:
            return error("this stand-in runs only find with the filter {}")
        docs = sorted(DATA.get(ns, []), key=lambda d: d["_id"])
        if body.get("sort") not in (None, {"_id": 1}):
            return error("this stand-in sorts only by _id")
        proj = body.get("projection")
        if proj:
            keep = [k for k, v in proj.items() if v == 1]
            drop_id = proj.get("_id") == 0
            docs = [{k: v for k, v in d.items() if (k in keep or (k == "_id" and not drop_id))} for d in docs]
        if body.get("limit"):
            docs = docs[:body["limit"]]
        return batch(ns, docs, body.get("batchSize"), True)
    if name == "getMore":
        with LOCK:
            ns, docs = CURSORS.pop(int(body["getMore"]), (None, None))
        if ns is None:
            return error("cursor id %d not found" % body["getMore"], 43)
        return batch(ns, docs, body.get("batchSize"), False)
    if name == "killCursors":
        with LOCK:
            for c in body.get("cursors", []):
                CURSORS.pop(int(c), None)
        return {"cursorsKilled": body.get("cursors", []), "ok": 1.0}
    if name == "count":
        return {"n": len(DATA.get("%s.%s" % (db, body["count"]), [])), "ok": 1.0}
    if name == "listCollections":
        want = body.get("filter", {}).get("name")
        names = [ns.split(".", 1)[1] for ns in DATA if ns.split(".", 1)[0] == db]
        docs = [{"name": n, "type": "collection"} for n in names if want is None or n == want]
        return batch(db + ".$cmd.listCollections", docs, 0, True)
    return error("no such command: '%s'" % name, 59)


class Handler(socketserver.BaseRequestHandler):
    def read(self, n):
        b = b""
        while len(b) < n:
            got = self.request.recv(n - len(b))
            if not got:
                raise EOFError
            b += got
        return b

    def handle(self):
        try:
            while True:
                head = self.read(16)
                length, req, _, op = struct.unpack("<iiii", head)
                msg = self.read(length - 16)
                if op == 2004:  # OP_QUERY: the handshake
                    z = msg.index(b"\0", 4)
                    body, _ = decode(msg, z + 9)
                    reply = encode(command(body))
                    out = struct.pack("<iqii", 0, 0, 0, 1) + reply
                    self.request.sendall(struct.pack("<iiii", 16 + len(out), req + 1, req, 1) + out)
                elif op == 2013:  # OP_MSG
                    p = 4
                    body = None
                    while p < len(msg) - (4 if struct.unpack_from("<I", msg, 0)[0] & 1 else 0):
                        kind = msg[p]
                        p += 1
                        if kind == 0:
                            body, p = decode(msg, p)
                        else:
                            (size,) = struct.unpack_from("<i", msg, p)
                            z = msg.index(b"\0", p + 4)
                            ident = msg[p + 4:z].decode()
                            q, docs = z + 1, []
                            while q < p + size:
                                d, q = decode(msg, q)
                                docs.append(d)
                            body[ident] = docs
                            p += size
                    out = struct.pack("<I", 0) + b"\0" + encode(command(body))
                    self.request.sendall(struct.pack("<iiii", 16 + len(out), req + 1, req, 2013) + out)
                else:
                    return
        except EOFError:
            return


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    global LOG
    fixture, portfile = sys.argv[1], sys.argv[2]
    LOG = sys.argv[3] if len(sys.argv) > 3 else None
    env = {"Int64": Int64, "Date": Date, "ObjectId": ObjectId, "Decimal128": Decimal128}
    exec(open(fixture).read(), env)
    DATA.update(env["DATA"])
    srv = Server(("127.0.0.1", 0), Handler)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(portfile + ".tmp", portfile)
    srv.serve_forever()


if __name__ == "__main__":
    main()
