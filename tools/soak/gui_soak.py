#!/usr/bin/python3
"""Soak: one `wallgo-gui` with 20 simulated pages (docs/fuzzing.md, Soak
runs), over WebSockets written with the standard library only.

The pages share 10 games (/ws?game=soakN), two each: a player, who starts
games against `wallgo` (level 1, 20 visits) and plays a random legal move
whenever it is the person's turn, and an analyst, who turns the engine's
analysis on and off and steps through the game. Every page reconnects now
and then (every 20-60 s): a third of the time by dropping its socket without
a close frame, a sixth (--half-open) by sending the close frame and never
closing its socket (kept to the end, to see whether the server lets go),
otherwise with a clean close handshake. Every 10 s the server's resident
memory, open descriptors and threads, and its engine processes, are
sampled. Each message's latency is the time from sending it to the next
state message on that socket. The result (summary and samples) is a JSON
file for plot.py.

  tools/soak/gui_soak.py --bin build/bin --minutes 10 --out docs/soak/gui.json
"""

import argparse
import base64
import json
import os
import random
import re
import socket
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak_common  # noqa: E402


class WebSocket:
    """A minimal RFC 6455 client: masked text frames out, text/close/ping in."""

    def __init__(self, port, path):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        status = head.split(b"\r\n")[0]
        if b" 101 " not in status:
            raise ConnectionError(status.decode(errors="replace"))
        self.buffer = head.split(b"\r\n\r\n", 1)[1]

    def _frame(self):
        """(fin, opcode, payload) of the first whole frame in the buffer,
        removed from it; None while it is incomplete."""
        b = self.buffer
        if len(b) < 2:
            return None
        n, at = b[1] & 0x7F, 2
        if n == 126:
            if len(b) < 4:
                return None
            n, at = struct.unpack(">H", b[2:4])[0], 4
        elif n == 127:
            if len(b) < 10:
                return None
            n, at = struct.unpack(">Q", b[2:10])[0], 10
        if len(b) < at + n:
            return None
        self.buffer = b[at + n:]
        return b[0] & 0x80, b[0] & 0x0F, b[at:at + n]

    def pending(self):
        """A whole frame is already buffered (the state just read is stale)."""
        saved = self.buffer
        frame = self._frame()
        self.buffer = saved
        return frame is not None

    def send(self, text, opcode=1):
        payload = text.encode() if isinstance(text, str) else text
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def recv(self):
        """The next text message, None for a close frame; socket.timeout
        when none came within the socket's timeout (nothing is lost)."""
        while True:
            frame = self._frame()
            if frame is None:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("closed")
                self.buffer += chunk
                continue
            fin, opcode, payload = frame
            if opcode == 8:
                return None
            if opcode == 9:
                self.send(payload, opcode=10)
                continue
            if opcode in (0, 1):
                self.partial = getattr(self, "partial", b"") + payload
                if fin:
                    message, self.partial = self.partial, b""
                    return message.decode()

    def close(self, clean=True):
        try:
            if clean:
                self.send(struct.pack(">H", 1000), opcode=8)
                self.sock.settimeout(5)
                while self.recv() is not None:
                    pass
        except (OSError, ConnectionError):
            pass
        self.sock.close()


class Page(threading.Thread):
    def __init__(self, port, game, role, stop, stats, seed, half_open):
        super().__init__(daemon=True)
        self.half_open = half_open
        self.port, self.game, self.role, self.stop, self.stats = port, game, role, stop, stats
        self.rng = random.Random(seed)

    def run(self):
        while not self.stop.is_set():
            try:
                self.session()
            except (OSError, ConnectionError, ValueError) as e:
                self.stats.error(f"{self.role} {self.game}: {e}")
                time.sleep(1)

    def session(self):
        ws = WebSocket(self.port, f"/ws?game={self.game}")
        ws.sock.settimeout(1.0)
        self.stats.count("connects")
        until = time.monotonic() + self.rng.uniform(20, 60)
        sent_at = None
        last_action = 0.0
        state = None
        while not self.stop.is_set() and time.monotonic() < until:
            try:
                text = ws.recv()
            except socket.timeout:
                text = ""
            if text is None:
                break
            fresh = False
            if text:
                message = json.loads(text)
                if message.get("type") == "error":
                    self.stats.server_error(message.get("message", ""))
                if message.get("type") == "state":
                    state, fresh = message, True
                    if sent_at is not None:
                        self.stats.latency(time.monotonic() - sent_at)
                        sent_at = None
            if state is None:
                continue
            action = self.player(state) if self.role == "player" else None
            if self.role == "player" and (not fresh or ws.pending()):
                action = None
            now = time.monotonic()
            if self.role == "analyst" and now - last_action > self.rng.uniform(0.5, 2):
                if self.rng.random() < 0.3:
                    action = {"type": "analysis", "on": self.rng.random() < 0.7,
                              "engine": "wallgo"}
                else:
                    action = {"type": "goto", "ply": self.rng.randint(0, len(state["moves"]))}
                last_action = now
            if action is not None:
                ws.send(json.dumps(action))
                sent_at = time.monotonic()
                self.stats.count("sent")
        # How the page goes: a clean close handshake, a dropped socket, or a
        # close frame without ever closing the socket (half-open; kept to
        # the end, to see whether the server closes it).
        r = self.rng.random()
        if r < 1 / 3:
            ws.close(clean=False)
            self.stats.count("dropped_sockets")
        elif r < 1 / 3 + self.half_open:
            ws.send(struct.pack(">H", 1000), opcode=8)
            self.stats.linger(ws)
            self.stats.count("half_open_closes")
        else:
            ws.close(clean=True)
            self.stats.count("clean_closes")

    def player(self, state):
        board = state["board"]
        at_end = state["cursor"] == len(state["moves"])
        if not at_end:
            return {"type": "goto", "ply": len(state["moves"])}
        if board["legal"] == []:
            players = self.rng.choice([2, 3])
            self.stats.count("games")
            return {"type": "new", "rules": f"players={players}",
                    "seats": [{"kind": "human"}] + [
                        {"kind": "engine", "engine": "wallgo", "level": 1, "visits": 20}
                        for _ in range(players - 1)]}
        seat = state["seats"][["red", "blue", "green", "yellow"].index(board["turn"])]
        if seat["kind"] == "human":
            self.stats.count("moves")
            return {"type": "move", "move": self.rng.choice(board["legal"])}
        return None


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.latencies = []  # (time, seconds)
        self.errors = []
        self.server_errors = {}
        self.lingering = []

    def count(self, key):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + 1

    def latency(self, seconds):
        with self.lock:
            self.latencies.append((time.monotonic(), seconds))

    def error(self, text):
        with self.lock:
            self.errors.append(text)
            self.counts["client_errors"] = self.counts.get("client_errors", 0) + 1

    def server_error(self, text):
        with self.lock:
            key = text[:60]
            self.server_errors[key] = self.server_errors.get(key, 0) + 1
            self.counts["errors_from_server"] = self.counts.get("errors_from_server", 0) + 1

    def linger(self, ws):
        with self.lock:
            self.lingering.append(ws)

    def snapshot(self):
        with self.lock:
            return dict(self.counts)


def descendants(pid):
    """Every process below `pid` (the engines run under a shell each)."""
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                kids = [int(c) for c in f.read().split()]
        except FileNotFoundError:
            continue
        for k in kids:
            out += [k] + descendants(k)
    return out


def engines(pid):
    """The `wallgo` engine processes below `pid`."""
    out = []
    for k in descendants(pid):
        try:
            with open(f"/proc/{k}/comm") as f:
                if f.read().strip() == "wallgo":
                    out.append(k)
        except FileNotFoundError:
            pass
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--interval", type=float, default=10.0)
    ap.add_argument("--half-open", type=float, default=1 / 6,
                    help="share of reconnects that leave the socket half-open")
    ap.add_argument("--out", default="soak-gui.json")
    args = ap.parse_args()

    engine = f"name=wallgo:{os.path.abspath(args.bin)}/wallgo --hash 16"
    server = subprocess.Popen(
        [f"{args.bin}/wallgo-gui", "--port", "0", "--engine", engine,
         "--max-games", str(args.pages // 2)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = None
    for line in server.stdout:
        m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if m:
            port = int(m.group(1))
            break
    if port is None:
        sys.exit("wallgo-gui printed no URL")
    stop = threading.Event()
    stats = Stats()
    pages = [Page(port, f"soak{i // 2}", "player" if i % 2 == 0 else "analyst", stop, stats, i,
                  args.half_open)
             for i in range(args.pages)]

    def extra():
        kids = engines(server.pid)
        engine_rss = 0
        for k in kids:
            try:
                engine_rss += soak_common.proc_sample(k)[0]
            except (FileNotFoundError, ProcessLookupError):
                pass
        row = stats.snapshot()
        row.update(engines=len(kids), engines_rss_kb=engine_rss)
        return row

    with soak_common.Sampler(lambda: [server.pid], extra, args.interval) as sampler:
        for p in pages:
            p.start()
        time.sleep(args.minutes * 60)
        stop.set()
        for p in pages:
            p.join(timeout=40)
    # Every page has gone: what the server still holds, and which of the
    # half-open sockets (close frame sent, socket never closed) it closed.
    time.sleep(5)
    after = soak_common.proc_sample(server.pid)
    sockets_after = soak_common.sockets(server.pid)
    closed_by_server = 0
    for ws in stats.lingering:
        ws.sock.settimeout(0.2)
        try:
            while True:
                chunk = ws.sock.recv(65536)
                if not chunk:
                    closed_by_server += 1
                    break
        except (socket.timeout, OSError):
            pass
    # Past the server's --socket-timeout (30 s): nothing of the pages is left.
    time.sleep(35)
    sockets_later = soak_common.sockets(server.pid)
    server.terminate()
    server.wait(timeout=30)
    rows = sampler.rows
    lat = stats.latencies
    t0 = lat[0][0] if lat else 0
    first = [s for t, s in lat if t - t0 < 60]
    last = [s for t, s in lat if t > lat[-1][0] - 60] if lat else []
    summary = {
        "minutes": args.minutes, "pages": args.pages, **stats.snapshot(),
        "first_minute_median_ms": round(soak_common.percentile(first, 0.5) * 1e3, 2),
        "last_minute_median_ms": round(soak_common.percentile(last, 0.5) * 1e3, 2),
        "first_minute_p90_ms": round(soak_common.percentile(first, 0.9) * 1e3, 2),
        "last_minute_p90_ms": round(soak_common.percentile(last, 0.9) * 1e3, 2),
        "rss_kb_first": rows[0]["rss_kb"], "rss_kb_last": rows[-1]["rss_kb"],
        "rss_change_after_warmup": round(soak_common.flatness(rows, "rss_kb"), 4),
        "rss_drift_after_warmup": round(soak_common.drift(rows, "rss_kb"), 4),
        "fds_min": min(r["fds"] for r in rows), "fds_max": max(r["fds"] for r in rows),
        "server_fds_after_pages_left": after[1],
        "half_open_sockets": len(stats.lingering),
        "half_open_closed_by_server": closed_by_server,
        "server_sockets_5s_after_pages_left": sockets_after,
        "server_sockets_40s_after_pages_left": sockets_later,
        "server_errors": stats.server_errors,
        "client_error_examples": stats.errors[:5],
    }
    soak_common.write_results(args.out, summary, rows)


if __name__ == "__main__":
    main()
