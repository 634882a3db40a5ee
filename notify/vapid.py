"""The site's VAPID key (RFC 8292), which signs every push so that a push service takes it only from this site.

``VAPID_PRIVATE_KEY`` (the raw P-256 private key, base64url: ``docs/notifications.md`` has the one-line command that
makes one) is the key when set. Without it a key is made the first time one is needed and kept in the database
(:class:`notify.models.VapidKey`), so that every web and worker process of the install uses the same one: a phone
subscribed with one public key refuses pushes signed by another. Changing the key makes every phone subscribe again.
"""

from __future__ import annotations

import base64
from email.utils import parseaddr

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid

from notify.models import VapidKey


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def new_private_key() -> str:
    """A fresh P-256 private key, raw and base64url (the form ``VAPID_PRIVATE_KEY`` takes)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def private_key() -> str:
    configured = getattr(settings, "VAPID_PRIVATE_KEY", "")
    if configured:
        return configured
    kept, _ = VapidKey.objects.get_or_create(pk=1, defaults={"private_key": new_private_key()})
    return kept.private_key


def signer() -> Vapid:
    return Vapid.from_raw(private_key().encode("ascii"))


def public_key() -> str:
    """The public key a page subscribes with (``applicationServerKey``): the uncompressed point, base64url."""
    point = signer().public_key.public_bytes(serialization.Encoding.X962,
                                             serialization.PublicFormat.UncompressedPoint)
    return b64url(point)


def subject() -> str:
    """Whom a push service may contact about the site's pushes: ``VAPID_SUBJECT``, else the site's sender address."""
    configured = getattr(settings, "VAPID_SUBJECT", "")
    if configured:
        return configured
    return f"mailto:{parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or 'noreply@localhost'}"
