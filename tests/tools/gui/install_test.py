#!/usr/bin/python3
"""Installs the build into a temporary prefix (cmake --install) and runs the
installed programs from there, with the build folder out of reach: wallgo
answers protocol commands, and wallgo-gui serves its embedded page and
starts the wallgo installed beside it by default.

  install_test.py --build DIR
"""
import argparse
import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def handshake_status(port, origin):
    """The HTTP status line of a WebSocket upgrade sent with `origin`."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    line = s.recv(4096).split(b"\r\n")[0].decode()
    s.close()
    return line


def websocket_open(port, target, rcvbuf=None):
    """A WebSocket to ws://127.0.0.1:PORT/TARGET after its handshake (a
    minimal client): the socket and what came after the handshake.
    `rcvbuf`: the socket's receive buffer in bytes (the kernel's default)."""
    s = socket.socket()
    if rcvbuf is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096)
    head, data = data.split(b"\r\n\r\n", 1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    return s, data


def websocket_first_message(port):
    """The first state on ws://127.0.0.1:PORT/ws?game=install (after the
    page's role)."""
    s, data = websocket_open(port, "/ws?game=install")
    while True:
        if len(data) >= 2:
            n, off = data[1] & 127, 2
            if n == 126:
                n, off = int.from_bytes(data[2:4], "big"), 4
            elif n == 127:
                n, off = int.from_bytes(data[2:10], "big"), 10
            if len(data) >= off + n:
                message = json.loads(data[off:off + n])
                data = data[off + n:]
                if message.get("type") == "state":
                    s.close()
                    return message
                continue
        chunk = s.recv(65536)
        assert chunk, "connection closed"
        data += chunk


def check_installed(bin_dir):
    """Runs the programs installed in `bin_dir` from an empty folder."""
    installed = sorted(os.listdir(bin_dir))
    assert installed == ["wallgo", "wallgo-cluster", "wallgo-gui", "wallgo-net",
                         "wallgo-referee"], installed
    trainer = os.path.join(bin_dir, "..", "share", "wallgo", "train", "train.py")
    assert os.path.exists(trainer), "the trainer is not installed beside wallgo-cluster"
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    if os.path.isdir(os.path.join(bin_dir, "..", "lib", version, "dist-packages", "wallgo")):
        # The trainer finds the module wallgo installed beside it, PYTHONPATH or not.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        usage = subprocess.run(["/usr/bin/python3", trainer, "--help"], env=env, cwd=bin_dir,
                               capture_output=True, text=True, timeout=60)
        assert usage.returncode == 0 and "--data" in usage.stdout, usage.stderr
    usage = subprocess.run([os.path.join(bin_dir, "wallgo-cluster"), "--help"],
                           capture_output=True, text=True, check=True).stdout
    assert "wallgo-cluster match" in usage, usage
    out = subprocess.run([os.path.join(bin_dir, "wallgo")], input="name\nquit\n",
                         capture_output=True, text=True, timeout=20).stdout
    assert out.startswith("= wallgo"), out
    with tempfile.TemporaryDirectory() as empty:
        gui = subprocess.Popen([os.path.join(bin_dir, "wallgo-gui"), "--port", "0"], cwd=empty,
                               stdout=subprocess.PIPE, text=True)
        try:
            port = int(re.search(r":(\d+)/", gui.stdout.readline()).group(1))
            opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            page = opener.open(f"http://127.0.0.1:{port}/game/install", timeout=10).read().decode()
            assert "data-position" in page and "app.js" in page, page[:200]
            first = opener.open(f"http://127.0.0.1:{port}/", timeout=10)
            assert re.search(r"/game/[\w-]+$", first.geturl()), first.geturl()
            assert "data-position" in first.read().decode()
            lobby = opener.open(f"http://127.0.0.1:{port}/games", timeout=10).read().decode()
            assert "data-games" in lobby, lobby[:200]
            script = opener.open(f"http://127.0.0.1:{port}/board.js", timeout=10).read().decode()
            assert "data-cell" in script
            deadline = time.time() + 30  # wallgo clears its hash table first
            while True:
                state = websocket_first_message(port)
                if state["engines"][0]["state"] != "starting" or time.time() > deadline:
                    break
                time.sleep(0.1)
            # Another site open in the same browser may not drive the engines.
            refused = handshake_status(port, "http://evil.example")
            assert " 403 " in refused, refused
            allowed = handshake_status(port, f"http://127.0.0.1:{port}")
            assert " 101 " in allowed, allowed
            engine = state["engines"][0]
            assert engine["name"] == "wallgo" and engine["state"] == "ready", engine
            with open(f"/proc/{engine['pid']}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode()
            assert os.path.join(bin_dir, "wallgo") in command, command
            print(f"{bin_dir}: {installed}; wallgo-gui on port {port} drives {command.strip()}")
        finally:
            gui.send_signal(signal.SIGTERM)
            gui.wait(10)
    try:
        os.kill(engine["pid"], 0)
        alive = open(f"/proc/{engine['pid']}/stat").read().split()[2] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        alive = False
    assert not alive, "the engine outlived wallgo-gui"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--deb", action="store_true",
                        help="make the .deb with cpack and run the programs unpacked from it")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="wallgo-install-")
    try:
        if args.deb:
            subprocess.run(["cpack", "-G", "DEB", "-B", work, "--config",
                            os.path.join(args.build, "CPackConfig.cmake")],
                           check=True, capture_output=True, timeout=120)
            deb = next(f for f in os.listdir(work) if re.fullmatch(r"wallgo_.*\.deb", f))
            depends = subprocess.run(["dpkg-deb", "-f", os.path.join(work, deb), "Depends"],
                                     capture_output=True, text=True, check=True).stdout
            for package in ("libabsl", "libboost-program-options", "libstdc++6"):
                assert package in depends, depends
            root = os.path.join(work, "root")
            subprocess.run(["dpkg-deb", "-x", os.path.join(work, deb), root], check=True)
            print(f"{deb}: Depends: {depends.strip()}")
            check_installed(os.path.join(root, "usr", "bin"))
        else:
            subprocess.run(["cmake", "--install", args.build, "--prefix", work], check=True,
                           capture_output=True, timeout=60)
            check_installed(os.path.join(work, "bin"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
