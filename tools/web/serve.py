#!/usr/bin/python3
"""Serves a folder (default: build-web/site) on loopback with the headers
that make its pages cross-origin isolated (COOP/COEP), which the engine's
threads need (docs/web.md). --plain leaves them out.

    tools/web/serve.py [DIR] [--port 8700] [--plain]
"""
import argparse
import functools
import http.server


def make_server(directory, port=0, isolate=True, host="127.0.0.1", served=None):
    """A ThreadingHTTPServer for `directory` (port 0: any free one). Each
    path it serves is appended to the list `served`, if given."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def send_head(self):
            if served is not None:
                served.append(self.path.split("?")[0])
            return super().send_head()

        def end_headers(self):
            if isolate:
                self.send_header("Cross-Origin-Opener-Policy", "same-origin")
                self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def log_message(self, *args):
            pass

    return http.server.ThreadingHTTPServer(
        (host, port), functools.partial(Handler, directory=directory))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", default="build-web/site")
    parser.add_argument("--port", type=int, default=8700)
    parser.add_argument("--plain", action="store_true", help="no COOP/COEP headers")
    args = parser.parse_args()
    server = make_server(args.directory, args.port, not args.plain)
    print(f"serving {args.directory} at http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
