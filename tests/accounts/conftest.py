import pytest


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """These tests create many accounts; the production hasher costs ~0.3 s a password."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
