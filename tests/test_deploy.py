"""Production settings pass Django's deployment checks, and every page carries the CSP."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[1]


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    env = {
        **os.environ,
        "ARBITER_PRODUCTION": "1",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "arbiter.example.org",
        "ARBITER_VAR_DIR": str(tmp_path),
    }
    # the browser tests' conftest sets this for Playwright; a deployment never does
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = {**os.environ, "ARBITER_PRODUCTION": "1", "ARBITER_VAR_DIR": str(tmp_path)}
    env.pop("DJANGO_SECRET_KEY", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in done.stderr


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_without_inline_scripts(client):
    response = client.get(reverse("tournaments:event_list"))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy


def test_production_sends_hsts_redirects_to_https_and_secures_cookies(tmp_path):
    env = {
        **os.environ,
        "ARBITER_PRODUCTION": "1",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "arbiter.example.org",
        "ARBITER_VAR_DIR": str(tmp_path),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    script = (
        "import json; from django.conf import settings as s; from django.test import Client\n"
        "c = Client(HTTP_HOST='arbiter.example.org')\n"
        "plain, tls = c.get('/healthz'), c.get('/healthz', secure=True)\n"
        "print(json.dumps({'plain': [plain.status_code, plain.get('Location')],"
        " 'hsts': tls.get('Strict-Transport-Security'), 'settings': [s.SESSION_COOKIE_SECURE,"
        " s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY, s.CSRF_COOKIE_HTTPONLY]}))"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["plain"] == [301, "https://arbiter.example.org/healthz"]
    assert seen["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert seen["settings"] == [True, True, True, True]
