"""Two app servers behind Debian's nginx, round robin with no sticky sessions: the compose file's `--scale app=2`
(deploy/nginx.conf) without Docker, with its roles, migration job and proxy setting (bench/load/scenarios.py,
two_servers). Every answer names the server that gave it (X-Upstream), so the client's log
shows each participant's requests alternating between the two."""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from .setup import free_port

# The same proxy settings as deploy/nginx.conf, on loopback ports, with its paths in a scratch folder.
CONFIG = """
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  client_body_temp_path {dir}/body;
  proxy_temp_path {dir}/proxy;
  fastcgi_temp_path {dir}/fastcgi;
  uwsgi_temp_path {dir}/uwsgi;
  scgi_temp_path {dir}/scgi;
  upstream app {{
{servers}
    keepalive 64;
  }}
  server {{
    listen 127.0.0.1:{port};
    include {include};
    add_header X-Upstream $upstream_addr always;
  }}
}}
"""
DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def nginx_binary() -> str:
    path = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(path).exists():
        raise RuntimeError("nginx is missing: `scripts/ensure-tool nginx nginx-light` installs Debian's")
    return path


class Proxy:
    """`with Proxy([base1, base2]) as proxy:` nginx on a free loopback port in front of the given app servers."""

    def __init__(self, upstreams: list[str]):
        self.upstreams = [u.removeprefix("http://") for u in upstreams]
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.dir = Path(tempfile.mkdtemp(prefix="studyhive-nginx-"))
        self.process = None

    def __enter__(self):
        servers = "\n".join(f"    server {u} max_fails=1 fail_timeout=10s;" for u in self.upstreams)
        conf = self.dir / "nginx.conf"
        conf.write_text(
            CONFIG.format(dir=self.dir, servers=servers, port=self.port, include=DEPLOY / "nginx-proxy.conf")
        )
        self.process = subprocess.Popen(
            [nginx_binary(), "-c", str(conf), "-p", str(self.dir)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"{self.base}/api/sessions/ready")
            except urllib.error.HTTPError:
                return self
            except OSError as exc:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not start; see {self.dir}/error.log") from exc
                time.sleep(0.2)

    def __exit__(self, *exc):
        self.process.send_signal(signal.SIGQUIT)  # nginx: graceful stop
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.dir, ignore_errors=True)
