"""An SMTP-like sink for the tests: a tiny SMTP server in a thread that keeps each message it is given (its
Message-ID first), and answers the end of each message after ``delay`` seconds — time for a worker to be killed
after the message arrived and before it heard that it was taken."""

from __future__ import annotations

import email
import socketserver
import threading
import time
from dataclasses import dataclass, field


@dataclass
class SmtpSink:
    delay: float = 0.0
    messages: list[email.message.Message] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> SmtpSink:
        sink = self

        class Handler(socketserver.StreamRequestHandler):
            def say(self, line: str) -> None:
                self.wfile.write(f"{line}\r\n".encode())
                self.wfile.flush()

            def handle(self) -> None:
                self.say("220 sink ESMTP")
                while line := self.rfile.readline():
                    command = line.decode("utf-8", "replace").strip().upper()
                    if command == "DATA":
                        self.say("354 end with <CRLF>.<CRLF>")
                        lines = []
                        while (data := self.rfile.readline()) not in (b".\r\n", b""):
                            lines.append(data[1:] if data.startswith(b"..") else data)
                        with sink.lock:
                            sink.messages.append(email.message_from_bytes(b"".join(lines)))
                        time.sleep(sink.delay)
                        self.say("250 taken")
                    elif command == "QUIT":
                        self.say("221 bye")
                        return
                    else:  # EHLO, HELO, MAIL FROM, RCPT TO, RSET, NOOP
                        self.say("250 ok")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"smtp://{host}:{port}"

    def message_ids(self) -> list[str]:
        with self.lock:
            return [str(message["Message-ID"]) for message in self.messages]
