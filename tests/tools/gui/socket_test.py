#!/usr/bin/python3
"""wallgo-gui drops clients that stall: a WebSocket client that sends a
close frame but never closes its socket (half-open), and an HTTP client
that never finishes its request. Both used to be kept for ever. And a page
that stops reading while its game changes is dropped once it is
--max-backlog messages behind, well before any timeout: the server used to
queue every message for it (the GUI soak's memory grew to 155 MB).

  socket_test.py --bin DIR
"""
import argparse
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import time

from install_test import websocket_open

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "soak"))
from soak_common import sockets as sockets_of  # noqa: E402


def closed_within(pid, baseline, s, seconds):
    """Seconds until the server holds no more sockets than `baseline` (it
    has closed its end of `s`: a FIN alone, with the socket kept, does not
    count), or None if it still holds it after `seconds`. Whatever the
    server sends on `s` is read and dropped."""
    started = time.time()
    s.settimeout(0.05)
    while time.time() - started < seconds:
        if sockets_of(pid) <= baseline:
            return time.time() - started
        try:
            s.recv(65536)
        except (socket.timeout, ConnectionResetError):
            pass
    return None


def send_text(s, text):
    """One masked text frame."""
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0x80 | 126]) + struct.pack("!H", n)
    s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def frames(s, data, count):
    """Reads until `count` more whole frames have come; the rest of `data`."""
    while count > 0:
        while len(data) < 2 or len(data) < frame_size(data):
            chunk = s.recv(65536)
            assert chunk, "the server closed a page that reads"
            data += chunk
        data = data[frame_size(data):]
        count -= 1
    return data


def frame_size(data):
    """The whole frame's size at the start of `data` (at least 2 bytes)."""
    n, off = data[1] & 127, 2
    if n == 126:
        if len(data) < 4:
            return 4
        n, off = int.from_bytes(data[2:4], "big"), 4
    elif n == 127:
        if len(data) < 10:
            return 10
        n, off = int.from_bytes(data[2:10], "big"), 10
    return off + n


def slow_reader_dropped(args):
    """A page that never reads, beside one that browses its game: seconds
    until the server lets the first go, and how many of the second's
    messages that took. Its timeouts (30 s, idle 300 s) are out of reach."""
    gui = subprocess.Popen([os.path.join(args.bin, "wallgo-gui"), "--port", "0", "--socket-timeout", "30",
                            "--max-backlog", "16",
                            "--engine", f"name=mock:{os.path.join(args.bin, 'wallgo-mock-engine')}"],
                           stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/", gui.stdout.readline()).group(1))
        reader, data = websocket_open(port, "/ws?game=backlog")
        data = frames(reader, data, 2)  # the role and the state
        baseline = sockets_of(gui.pid)
        # A small receive buffer: the kernel holds little of what it is sent.
        stalled, _ = websocket_open(port, "/ws?game=backlog", rcvbuf=4096)
        started = time.time()
        for sent in range(1, 20001):
            # Each move of the cursor is a state for both pages.
            send_text(reader, '{"type":"goto","ply":0}')
            data = frames(reader, data, 1)
            if sent % 50 == 0 and sockets_of(gui.pid) <= baseline:
                return time.time() - started, sent
        return None, sent
    finally:
        gui.send_signal(signal.SIGTERM)
        gui.wait(10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    gui = subprocess.Popen([os.path.join(args.bin, "wallgo-gui"), "--port", "0", "--socket-timeout", "1",
                            "--engine", f"name=mock:{os.path.join(args.bin, 'wallgo-mock-engine')}"],
                           stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/", gui.stdout.readline()).group(1))
        baseline = sockets_of(gui.pid)
        # Half-open: the handshake, the first message, a close frame, and
        # then nothing: the socket stays open on our side.
        ws, _ = websocket_open(port, "/ws?game=soak")
        mask = os.urandom(4)
        payload = struct.pack("!H", 1000)
        ws.sendall(bytes([0x88, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        time.sleep(0.5)  # the game and its engine are up
        baseline = sockets_of(gui.pid) - 1
        half_open = closed_within(gui.pid, baseline, ws, 8)
        assert half_open is not None, "a half-open WebSocket is kept after its close frame"
        # An HTTP request that never ends.
        http = socket.create_connection(("127.0.0.1", port), timeout=10)
        http.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow = closed_within(gui.pid, baseline, http, 8)
        assert slow is not None, "an unfinished HTTP request is kept"
        # The server still serves.
        again = socket.create_connection(("127.0.0.1", port), timeout=10)
        again.sendall(f"GET /game/x HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        assert b" 200 " in again.recv(4096).split(b"\r\n")[0]
        print(f"half-open WebSocket dropped after {half_open:.1f} s, unfinished HTTP request after {slow:.1f} s "
              f"(--socket-timeout 1)")
    finally:
        gui.send_signal(signal.SIGTERM)
        gui.wait(10)
    seconds, messages = slow_reader_dropped(args)
    assert seconds is not None, f"a page that never reads is kept after {messages} messages to it"
    print(f"a page that never reads dropped after {messages} messages to it, {seconds:.1f} s (--max-backlog 16)")
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
