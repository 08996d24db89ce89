"""The club's deployment, done by hand where Docker cannot run: the Dockerfile's own steps (its COPY lines,
`pip install .` into a fresh virtual environment, its CMD) give a server that migrates and is ready; the
Caddyfile passes Caddy's own validation, and the same routes, pointed at a running server, proxy pages,
the API and websockets and hide /metrics; docker-compose.yml wires N replicas behind the proxy."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import time
import venv
from pathlib import Path

import httpx
import yaml
from websockets.sync.client import connect

from tests.processes import ROOT, free_port

DOCKERFILE = (ROOT / "Dockerfile").read_text()
CADDYFILE = (ROOT / "Caddyfile").read_text()


def dockerfile_steps() -> tuple[dict[str, str], list[tuple[list[str], str]], list[str], str]:
    """(ENV, COPY sources and destination, RUN commands, the CMD's shell command) of the Dockerfile."""
    env: dict[str, str] = {}
    copies, runs, cmd = [], [], ""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    for line in text.splitlines():
        word, _, rest = line.strip().partition(" ")
        if word == "ENV":
            env.update(dict(pair.split("=", 1) for pair in shlex.split(rest)))
        elif word == "COPY":
            *sources, dest = rest.split()
            copies.append((sources, dest))
        elif word == "RUN":
            runs.append(rest)
        elif word == "CMD":
            cmd = json.loads(rest)[-1]  # ["sh", "-c", "..."]
    return env, copies, runs, cmd


def wait_ready(base: str, proc: subprocess.Popen, log: Path, path: str = "/readyz") -> httpx.Response:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()
        try:
            r = httpx.get(base + path, timeout=2)
            if r.status_code == 200:
                return r
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"not ready: {log.read_text()}")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def test_the_dockerfile_steps_by_hand_give_a_ready_server(tmp_path):
    env, copies, runs, cmd = dockerfile_steps()
    root = tmp_path / "srv"  # the image's TABULA_ROOT
    root.mkdir()
    for sources, dest in copies:  # COPY SRC... DEST, relative to the WORKDIR (TABULA_ROOT)
        target = root / dest
        for source in sources:
            src = ROOT / source
            into = target / src.name if dest.endswith("/") else target
            if src.is_dir():
                shutil.copytree(src, into, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy(src, into)
    venv.create(tmp_path / "venv", with_pip=True)
    bin_dir = tmp_path / "venv" / "bin"
    # The environment of the image: its ENV, its venv's commands first, and nothing from this checkout.
    image_env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path), **env, "TABULA_ROOT": str(root),
                 "DATABASE_URL": f"sqlite:///{tmp_path / 'data' / 'tabula.db'}", "TABULA_RATE_LIMITS": "0"}
    assert runs[0] == "pip install .", runs
    subprocess.run(["pip", "install", "--quiet", "."], cwd=root, env=image_env, check=True, timeout=900)
    data = tmp_path / "data"
    data.mkdir()
    port = free_port()
    command = cmd.replace("0.0.0.0", "127.0.0.1").replace("--port 8000", f"--port {port}")
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(["sh", "-c", command], cwd=data, env=image_env, stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        ready = wait_ready(base, proc, log)
        assert ready.json()["database"] is True
        assert httpx.get(base + "/").status_code == 200  # templates and static files found under TABULA_ROOT
        assert httpx.get(base + "/static/tabula.css").status_code == 200
    finally:
        stop(proc)
    # The installed server runs from the venv, not from this checkout.
    installed = subprocess.run([str(bin_dir / "python"), "-c", "import app; print(app.__file__)"], cwd=data,
                               env=image_env, capture_output=True, text=True, check=True).stdout
    assert str(tmp_path / "venv") in installed


def caddy() -> str:
    found = shutil.which("caddy")
    assert found, "Caddy is needed to check the Caddyfile (apt-get install caddy)"
    return found


def test_caddy_validates_the_caddyfile(tmp_path):
    result = subprocess.run([caddy(), "validate", "--config", str(ROOT / "Caddyfile"), "--adapter", "caddyfile"],
                            env={**os.environ, "TABULA_DOMAIN": "club.example.org", "HOME": str(tmp_path),
                                 "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "Valid configuration" in result.stdout + result.stderr, result.stderr


def test_the_caddyfile_routes_proxy_pages_api_and_websockets(tmp_path, live):
    """The Caddyfile's own routes with its site address and upstream pointed at a running server: HTTP on
    a free port instead of HTTPS on the domain, and the test server instead of the `app` replicas."""
    app_port = int(live.base.rsplit(":", 1)[1])
    proxy_port = free_port()
    config = CADDYFILE.replace("{$TABULA_DOMAIN:localhost}", f"http://127.0.0.1:{proxy_port}")
    config = config.replace("name app", "name 127.0.0.1").replace("port 8000", f"port {app_port}")
    assert config != CADDYFILE
    path = tmp_path / "Caddyfile"
    path.write_text("{\n\tadmin off\n}\n" + config)
    log = tmp_path / "caddy.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([caddy(), "run", "--config", str(path), "--adapter", "caddyfile"],
                                env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path),
                                     "XDG_CONFIG_HOME": str(tmp_path)}, stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{proxy_port}"
        wait_ready(base, proc, log)
        assert httpx.get(base + "/metrics").status_code == 404  # hidden from the internet
        assert "Tabula" in httpx.get(base + "/").text
        created = httpx.post(base + "/api/tables", json={"game": "cesar_cleopatre", "players": 2})
        assert created.status_code == 201
        assert len(created.headers["x-request-id"]) == 36  # the proxy's request id reaches the app
        table = created.json()
        with connect(f"ws://127.0.0.1:{proxy_port}/ws/tables/{table['id']}?spectate={table['spectator_key']}") as ws:
            assert json.loads(ws.recv())["type"] == "full"
    finally:
        stop(proc)


def test_compose_runs_replicas_of_the_app_behind_the_proxy():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    app = services["app"]
    assert "ports" not in app, "replicas publish no port: `--scale app=N` needs that, and only the proxy reaches them"
    assert app["environment"]["DATABASE_URL"].endswith("@db:5432/tabula")
    assert app["environment"]["TABULA_TRUSTED_PROXIES"] == "*"
    assert "/readyz" in " ".join(app["healthcheck"]["test"])
    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy:") and "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert {"80:80", "443:443"} <= set(proxy["ports"])
    assert "name app" in CADDYFILE and "port 8000" in CADDYFILE  # the proxy's upstream is the app service
