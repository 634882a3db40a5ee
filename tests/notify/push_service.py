"""A push service stub for the tests (a tiny HTTP server in a thread, on a free port) that keeps every POST it
receives, headers and body, and a browser's side of a subscription: its P-256 key pair and auth secret, to decrypt
what the site sent (RFC 8291, aes128gcm) and check the VAPID signature (RFC 8292) as a push service would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushServiceStub:
    """Answers each POST with ``status`` (201: taken) after ``delay`` seconds; ``received`` in order of arrival."""

    status: int = 201
    delay: float = 0.0
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> PushServiceStub:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with stub.lock:
                    stub.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                if stub.delay:
                    time.sleep(stub.delay)
                self.send_response(stub.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def count(self) -> int:
        with self.lock:
            return len(self.received)

    def all(self) -> list[Received]:
        with self.lock:
            return list(self.received)


@dataclass
class BrowserSubscription:
    """What a browser keeps of a push subscription: the private half of ``p256dh`` and the auth secret."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes

    @classmethod
    def new(cls, origin: str, name: str = "") -> BrowserSubscription:
        return cls(f"{origin}/push/{name or b64url(os.urandom(9))}", ec.generate_private_key(ec.SECP256R1()),
                   os.urandom(16))

    def to_json(self) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()`` gives it to the page."""
        point = self.private_key.public_key().public_bytes(serialization.Encoding.X962,
                                                           serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(point), "auth": b64url(self.auth_secret)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        """The payload as the browser reads it (aes128gcm: the sender's key and the salt are in the body)."""
        return json.loads(http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth_secret,
                                           version="aes128gcm"))


def check_vapid(authorization: str, audience: str) -> dict[str, Any]:
    """The claims of ``Authorization: vapid t=<JWT>,k=<public key>``, once the JWT's ES256 signature is checked
    with ``k`` and its ``aud`` is the push service's origin (as a push service refuses it otherwise)."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization
    parts = dict(part.strip().split("=", 1) for part in rest.split(","))
    token, key = parts["t"], parts["k"]
    header_b64, claims_b64, signature_b64 = token.split(".")
    assert json.loads(unb64url(header_b64)) == {"typ": "JWT", "alg": "ES256"}
    public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    raw = unb64url(signature_b64)
    assert len(raw) == 64
    signature = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public_key.verify(signature, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if bad
    claims = json.loads(unb64url(claims_b64))
    assert claims["aud"] == audience, claims
    assert claims["exp"] > time.time()
    claims["k"] = key
    return claims
