"""Where the mail goes and who may sign up, from the environment: ``EMAIL_URL`` (SMTP in production), else a folder
(``MAIL_DIR``, default ``./mail``); ``ACCOUNT_SIGNUP=0`` for invitation only."""

from __future__ import annotations

import json

import pytest

from tests.league.test_settings import ROOT, run

pytestmark = pytest.mark.slow  # each reads the settings in a fresh interpreter

READ = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({"backend": s.EMAIL_BACKEND, "delivery": s.EMAIL_DELIVERY_BACKEND, "folder": str(s.EMAIL_FILE_PATH),
                  "host": s.EMAIL_HOST, "port": s.EMAIL_PORT, "user": s.EMAIL_HOST_USER, "tls": s.EMAIL_USE_TLS,
                  "ssl": s.EMAIL_USE_SSL, "signup": s.ACCOUNT_SIGNUP_OPEN, "sender": s.DEFAULT_FROM_EMAIL}))
"""


def read(**env: str) -> dict:
    done = run(["-c", READ], **{"EMAIL_URL": "", "MAIL_DIR": "", "ACCOUNT_SIGNUP": "", **env})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_with_nothing_set_mails_are_files_in_the_mail_folder_and_anyone_may_sign_up():
    found = read()
    assert found["backend"] == "accounts.mail.OutboxBackend"
    assert found["delivery"] == "django.core.mail.backends.filebased.EmailBackend"
    assert found["folder"] == str(ROOT / "mail") and found["signup"] is True


def test_email_url_names_the_smtp_server_and_account_signup_0_closes_sign_up():
    found = read(EMAIL_URL="smtp://league%40club.tt:s3cret@mail.club.tt:587/?tls=True", ACCOUNT_SIGNUP="0",
                 DEFAULT_FROM_EMAIL="Belmont League <league@club.tt>")
    assert found["backend"] == "accounts.mail.OutboxBackend"  # still kept first, and sent by a worker
    assert found["delivery"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (found["host"], found["port"], found["user"], found["tls"], found["ssl"]) == (
        "mail.club.tt", 587, "league@club.tt", True, False)
    assert found["signup"] is False and found["sender"] == "Belmont League <league@club.tt>"
