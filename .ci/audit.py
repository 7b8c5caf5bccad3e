"""Known vulnerabilities in the locked dependencies (requirements.lock): 0 or CI fails.

pip-audit asks a vulnerability service about each pinned version: PyPI's per-release JSON
(/pypi/NAME/VERSION/json) or OSV. Where neither answers (the build machines reach only the
package index, which serves the per-project JSON /pypi/NAME/json but not the per-release
one, and no OSV), pip-audit would skip every package yet print "No known vulnerabilities
found". So this script runs pip-audit with --strict when its service answers, and otherwise
reads the per-project JSON itself: its "vulnerabilities" are those of the project's newest
release, so they cover each package pinned at its newest release; a package pinned below
it is listed as not audited (docs/reliability.md, "Security settings").
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
PYPI = "https://pypi.org/pypi"
OSV = "https://api.osv.dev/v1/query"
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)", re.MULTILINE)


def pins() -> dict[str, str]:
    return {name.lower(): version for name, version in PIN.findall(LOCK.read_text())}


def answers(url: str, body: bytes | None = None) -> bool:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def pip_audit(service: str) -> int:
    print(f"pip-audit: the {service} service answers; auditing {LOCK.name} strictly")
    return subprocess.call(
        [
            sys.executable,
            "-m",
            "pip_audit",
            "--strict",  # a package that cannot be audited fails, never passes silently
            "--vulnerability-service",
            service,
            "--requirement",
            str(LOCK),
            "--require-hashes",
            "--disable-pip",
            "--progress-spinner",
            "off",
        ]
    )


def project_json(name: str) -> dict | None:
    try:
        with urllib.request.urlopen(f"{PYPI}/{name}/json", timeout=20) as response:
            return json.load(response)
    except (urllib.error.URLError, OSError, ValueError):
        return None


def fallback(locked: dict[str, str]) -> int:
    print(
        "pip-audit: neither PyPI's per-release JSON nor OSV answers from this machine; "
        "reading each project's JSON instead"
    )
    found, behind, unreachable = [], [], []
    for name, version in sorted(locked.items()):
        data = project_json(name)
        if data is None:
            unreachable.append(name)
            continue
        newest = data["info"]["version"]
        if newest != version:
            behind.append(f"{name} {version} (newest {newest})")
            continue
        for vuln in data.get("vulnerabilities") or []:
            if not vuln.get("withdrawn"):
                fixed = ", ".join(vuln.get("fixed_in") or []) or "no fix yet"
                found.append(f"{name} {version}: {vuln['id']} (fixed in {fixed})")
    audited = len(locked) - len(behind) - len(unreachable)
    print(f"audited {audited} of {len(locked)} pinned packages: {len(found)} known vulnerabilities")
    for line in found:
        print(f"  VULNERABLE {line}")
    if behind:
        print(f"not audited, pinned below the newest release ({len(behind)}):")
        for line in behind:
            print(f"  {line}")
    if unreachable:
        print(f"not audited, no answer from the index: {', '.join(unreachable)}")
    return 1 if found or unreachable else 0


def main() -> int:
    locked = pins()
    django = locked.get("django", "")
    if answers(f"{PYPI}/django/{django}/json"):
        return pip_audit("pypi")
    query = {"package": {"name": "django", "ecosystem": "PyPI"}, "version": django}
    if answers(OSV, json.dumps(query).encode()):
        return pip_audit("osv")
    return fallback(locked)


if __name__ == "__main__":
    sys.exit(main())
