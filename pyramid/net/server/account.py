"""Which table server this console uses and as whom: the ``[network]`` keys ``server``, ``user``,
``password_file`` or ``cert_file`` and ``key_file``, and ``ca_file`` of the settings file, checked.

Why so strict: the values come from a file the owner edits on another
computer, and the account is also a topic level on the server (a "/" or a
wildcard in it would reach other consoles' topics). A wrong value never stops
the console: it is one line saying what to write, and the console plays on the
home network as if no server were set. The password is read only when the
console connects (:func:`read_password`, :func:`tls_context`), so a missing
file is the server's state line ("cannot read the password file"), not a
start-up failure.

Two ways to sign in, as the server's owner chose (firmware/server/make-server.sh):
a password, or a client certificate signed by the server's CA, whose common name
is the account (Mosquitto's ``use_identity_as_username``: no password at all,
and a key that never leaves the console).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pyramid.net.errors import NetError, quote

if TYPE_CHECKING:
    import ssl

#: The table server's TLS port unless the address names another (MQTT over TLS, IANA).
DEFAULT_SERVER_PORT = 8883
#: An account: what firmware/server/make-server.sh creates (a topic level: no "/", "+" or "#").
ACCOUNT = re.compile(r"[a-z0-9-]{1,32}\Z")
#: A host name (RFC 1123 labels) or an IPv4 address; IPv6 literals go in brackets.
_HOST = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\Z")
_ADDRESS = re.compile(r"mqtts://(?:\[(?P<v6>[0-9A-Fa-f:.]{2,45})\]|(?P<host>[^:/\[\]]{1,253}))(?::(?P<port>[0-9]{1,5}))?/?\Z")
#: Where make-server.sh's lines put the account's files on a console (the examples the problems give).
EXAMPLES = {"password_file": "/etc/pyramid/server/password", "ca_file": "/etc/pyramid/server/ca.crt",
            "cert_file": "/etc/pyramid/server/client.crt", "key_file": "/etc/pyramid/server/client.key"}
#: The largest password file read (a password is one line).
MAX_PASSWORD_FILE = 1024
#: The largest key file read for the client identifier (a PEM private key is a few KiB).
MAX_KEY_FILE = 64 * 1024


class ServerSettingsError(NetError):
    """A ``[network]`` server value that cannot be used (the message says what to write)."""


class ClientCertificate(NamedTuple):
    """This console's certificate and its private key (PEM files), signed by the server's CA."""

    cert_file: Path
    key_file: Path


class ServerAccount(NamedTuple):
    """The table server (host and TLS port) and this console's account on it: a password file or a
    client certificate, exactly one of the two (the settings reader sees to it)."""

    host: str
    port: int
    user: str
    password_file: Path | None
    #: The CA that signed the server's certificate (make-server.sh's), or None: the system's CAs.
    ca_file: Path | None = None
    certificate: ClientCertificate | None = None

    @property
    def address(self) -> str:
        """As the owner wrote it: ``mqtts://host:port``."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"mqtts://{host}:{self.port}"


def parse_server_address(text: object) -> tuple[str, int]:
    """``mqtts://HOST[:PORT]`` → (host, port); :class:`ServerSettingsError` quoting anything else."""
    if not isinstance(text, str):
        raise ServerSettingsError(f"server = {_said(text)} is not text like \"mqtts://tables.example.org:8883\"")
    found = _ADDRESS.match(text)
    if found is None:
        why = ("the table server is reached over TLS only: write mqtts://" if text.startswith("mqtt://") else
               "write it as \"mqtts://HOST:8883\"")
        raise ServerSettingsError(f"server = {quote(text)}: {why}")
    host = found["v6"] or found["host"]
    if found["host"] is not None and not _HOST.match(host):
        raise ServerSettingsError(f"server = {quote(text)}: {quote(host)} is not a host name")
    port = int(found["port"] or DEFAULT_SERVER_PORT)
    if not 1 <= port <= 65535:
        raise ServerSettingsError(f"server = {quote(text)}: the port is 1 to 65535")
    return host, port


def check_account(text: object) -> str:
    """A server account as make-server.sh makes them; :class:`ServerSettingsError` otherwise."""
    if not isinstance(text, str) or not ACCOUNT.match(text):
        raise ServerSettingsError(f"user = {_said(text)}: an account is 1 to 32 lower-case letters, digits or \"-\"")
    return text


def check_path(key: str, text: object) -> Path:
    """An absolute file path (the console's working directory is nobody's business)."""
    if not isinstance(text, str) or not text.startswith("/") or "\0" in text or len(text) > 4096:
        raise ServerSettingsError(f"{key} = {_said(text)}: write the file's absolute path, e.g. \"{EXAMPLES[key]}\"")
    return Path(text)


def read_password(account: ServerAccount) -> str | None:
    """The account's password: the first line of its file (None for a certificate's account);
    :class:`ServerSettingsError` saying why not."""
    if account.password_file is None:
        return None
    try:
        with account.password_file.open("rb") as file:
            data = file.read(MAX_PASSWORD_FILE + 1)
    except OSError as error:
        raise ServerSettingsError(f"cannot read the password file {account.password_file}: {error.strerror}") from None
    if len(data) > MAX_PASSWORD_FILE:
        raise ServerSettingsError(f"the password file {account.password_file} is longer than a password")
    try:
        password = data.decode("utf-8").splitlines()[0].strip() if data.strip() else ""
    except UnicodeDecodeError:
        raise ServerSettingsError(f"the password file {account.password_file} is not UTF-8 text") from None
    if not password:
        raise ServerSettingsError(f"the password file {account.password_file} is empty")
    return password


def tls_context(account: ServerAccount) -> ssl.SSLContext:
    """TLS that checks the server against ``ca_file`` (or the system's CAs) and, for a certificate's
    account, shows the console's certificate; :class:`ServerSettingsError` saying which file is wrong.
    ``ssl`` loads here, when a server is first reached (5 ms of the console's start, issue 48)."""
    import ssl

    try:
        context = ssl.create_default_context(cafile=None if account.ca_file is None else str(account.ca_file))
    except (OSError, ssl.SSLError) as error:
        raise ServerSettingsError(f"cannot read the CA file {account.ca_file}: {_why(error)}") from None
    if account.certificate is not None:
        # TLS 1.2 at most: there the server checks the console's certificate inside the handshake, so a
        # refusal is an alert the handshake raises at once; TLS 1.3 finishes the client's side first and
        # the refusal comes as a dropped connection (seen here: a timeout, and no reason to show).
        context.maximum_version = ssl.TLSVersion.TLSv1_2
        cert, key = account.certificate
        try:
            context.load_cert_chain(str(cert), str(key))
        except (OSError, ssl.SSLError) as error:
            raise ServerSettingsError(f"cannot use the certificate {cert} with the key {key}: {_why(error)}") from None
    return context


def _why(error: OSError | ssl.SSLError) -> str:
    """An OS or TLS error in a few words (no errno, no library prefix)."""
    import ssl

    if isinstance(error, ssl.SSLError):
        return str(error.reason or error).lower().replace("_", " ")
    return str(error.strerror or error)


def _said(value: object) -> str:
    """A value as the file wrote it, quoted and cut short."""
    return quote(value if isinstance(value, str) else repr(value))


def client_identifier(account: ServerAccount, password: str | None) -> str:
    """The MQTT client identifier this console connects with: one no other account can take.

    MQTT hands an identifier to its newest connection and drops the one that held it, so an
    identifier anyone can work out (the account's name, ``pyramid-ann``) let any account knock this
    console off the server at will (issue 45). The shipped server binds the identifier to the account
    (Mosquitto's ``use_username_as_clientid``); for any other broker this one is derived from the
    account's secret, which only this console holds — its password, or its certificate's private key
    — and is never published: the same at each connection (so a new connection still replaces this
    console's own stale one, whose last will then comes before the new "here", not after it). 23
    letters and digits: what every MQTT server must accept (MQTT 5.0, 3.1.3.1).
    :class:`ServerSettingsError` when the key cannot be read."""
    if password is not None:
        secret = password.encode("utf-8")
    else:
        assert account.certificate is not None, "an account signs in with a password or a certificate"
        key_file = account.certificate.key_file
        try:
            with key_file.open("rb") as file:
                secret = file.read(MAX_KEY_FILE + 1)
        except OSError as error:
            raise ServerSettingsError(f"cannot read the key {key_file}: {error.strerror}") from None
        if not secret or len(secret) > MAX_KEY_FILE:
            raise ServerSettingsError(f"the key {key_file} is not a private key")
    digest = hmac.new(secret, f"pyramids/v1 client identifier of {account.user}".encode(), hashlib.sha256)
    return "pyramid" + digest.hexdigest()[:16]
