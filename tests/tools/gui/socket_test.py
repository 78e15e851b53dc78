#!/usr/bin/python3
"""wallgo-gui drops clients that stall: a WebSocket client that sends a
close frame but never closes its socket (half-open), and an HTTP client
that never finishes its request. Both used to be kept for ever.

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
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
