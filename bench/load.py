"""A bounded HTTP load: wrk when installed, else a small keep-alive Python client."""

from __future__ import annotations

import http.client
import re
import shutil
import subprocess
import threading
import time
from urllib.parse import urlsplit


def requests_per_second(url: str, seconds: float, connections: int = 16) -> tuple[float, str]:
    if shutil.which("wrk"):
        out = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{int(seconds)}s", "--latency", url],
            capture_output=True, text=True, timeout=seconds + 30, check=True,
        ).stdout  # fmt: skip
        rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        if errors:
            raise RuntimeError(f"{url}: {errors.group(1)} error responses\n{out}")
        p50 = re.search(r"50%\s+(\S+)", out)
        return rate, f"wrk -t2 -c{connections}, p50 {p50.group(1) if p50 else '?'}"
    return _python_client(url, seconds, connections)


def _python_client(url: str, seconds: float, connections: int) -> tuple[float, str]:
    parts = urlsplit(url)
    deadline = time.monotonic() + seconds
    counts = [0] * connections

    def run(i: int) -> None:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        while time.monotonic() < deadline:
            conn.request("GET", parts.path)
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"{url}: HTTP {response.status}")
            counts[i] += 1
        conn.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(connections)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - started), f"python client, {connections} connections"
