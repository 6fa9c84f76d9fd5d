"""One HTTP(S) download that a hostile or broken server cannot stretch, crash or send elsewhere.

- One deadline for the whole download (connecting, every redirect, headers and body):
  each read of the socket waits at most the time left, so a server that drips a byte
  at a time is stopped when the time is up.
- The body is capped in size, and a body shorter than its Content-Length is an error.
- Redirects: a few, to http or https only, and never to this machine (loopback,
  localhost, its own addresses, link-local ones) unless the download began at that
  very host and port. The address checked is the address connected to.
- Every network or protocol failure is a `DownloadError`: one line naming the URL
  and saying what to do.

Proxies set in the environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) are used as
urllib would.
"""

from __future__ import annotations

import base64
import http.client
import io
import ipaddress
import socket
import ssl
import time
import urllib.request
from dataclasses import dataclass
from urllib.parse import quote, unquote, urljoin, urlsplit

MAX_REDIRECTS = 10
_READ = 64 * 1024
_REDIRECTS = (301, 302, 303, 307, 308)
_PRINTABLE = "".join(chr(c) for c in range(0x21, 0x7F))


class DownloadError(ValueError):
    """A download that failed; its message is one line that names the URL and says what to do."""


class _Expired(TimeoutError):
    """The download's deadline passed."""


@dataclass(frozen=True)
class Downloaded:
    """What a download gave: the body, its Content-Type and the address it finally came from."""

    data: bytes
    content_type: str
    url: str


@dataclass(frozen=True)
class _Deadline:
    end: float  # time.monotonic()

    def left(self) -> float:
        """Seconds left (> 0), or `_Expired`."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise _Expired
        return left


@dataclass(frozen=True)
class _Target:
    """A checked address: scheme, host as connected (IDNA, no brackets), port, request path."""

    url: str
    scheme: str
    host: str
    port: int
    path: str

    @property
    def host_header(self) -> str:
        name = f"[{self.host}]" if ":" in self.host else self.host
        return name if self.port == (443 if self.scheme == "https" else 80) else f"{name}:{self.port}"


def printable(text: str, limit: int = 500) -> str:
    """`text` as one printable line: line breaks, control and other invisible characters escaped."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text[:limit])


def download(url: str, *, timeout: float, max_bytes: int, max_redirects: int = MAX_REDIRECTS) -> Downloaded:
    """GET `url`, following redirects, within `timeout` seconds in all; `DownloadError` saying why not."""
    deadline = _Deadline(time.monotonic() + timeout)
    try:
        return _follow(url, deadline, max_bytes, max_redirects)
    except _Problem as problem:
        raise DownloadError(f"cannot download {printable(url)}: {problem}") from None
    except TimeoutError:  # the deadline, or a connection that timed out within it
        raise DownloadError(
            f"cannot download {printable(url)}: it took longer than {timeout:g} s; "
            "try again later, or give a longer --timeout"
        ) from None
    except Exception as exc:  # noqa: BLE001 - every failure of the network or of the server's reply
        raise DownloadError(f"cannot download {printable(url)}: {_explain(exc)}") from None


class _Problem(Exception):
    """Why a download cannot be had (DownloadError adds the URL)."""


def _follow(url: str, deadline: _Deadline, max_bytes: int, max_redirects: int) -> Downloaded:
    start = target = _target(url)
    for _ in range(max_redirects + 1):
        status, reason, headers, body = _exchange(
            target, deadline, max_bytes, None if target is start else start
        )
        if status in _REDIRECTS:
            location = headers.get("Location")
            if not location:
                raise _Problem(f"the server redirected (HTTP {status}) without saying where to")
            try:
                target = _target(urljoin(target.url, location.strip()))
            except _Problem as problem:
                raise _Problem(
                    f"the server redirected to an address pnp fetch does not follow: {problem}"
                ) from None
            _refuse_this_machine(target, start, _literal(target.host))  # by name (the proxy's case)
            continue
        if not 200 <= status < 300:
            raise _Problem(
                f"HTTP {status} {printable(reason, 200)}; check the address and that the sheet is shared"
            )
        return Downloaded(body, headers.get("Content-Type", ""), target.url)
    raise _Problem(f"more than {max_redirects} redirects; check the address")


def _target(url: str) -> _Target:
    """`url` checked and taken apart, or `_Problem` saying what is wrong with it."""
    if any(c.isspace() or not c.isprintable() for c in url):
        raise _Problem(
            f"the address {printable(url)} holds a space, line break or control character; "
            "write a space as %20 and remove the others",
        )
    try:
        parts = urlsplit(url)
        port = parts.port
        host = parts.hostname or ""
        host = host.encode("idna").decode("ascii") if not host.isascii() else host
    except (ValueError, UnicodeError) as exc:
        raise _Problem(f"the address {printable(url)} is not valid ({exc}); check it") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise _Problem(f"{printable(url)} is not an http:// or https:// address")
    if not host:
        raise _Problem(f"the address {printable(url)} names no host; check it")
    path = quote(parts.path or "/", safe=_PRINTABLE) + (
        f"?{quote(parts.query, safe=_PRINTABLE)}" if parts.query else ""
    )
    return _Target(url, scheme, host, port or (443 if scheme == "https" else 80), path)


def _is_local(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or ip.is_unspecified or ip.is_link_local or address in _own_addresses(ip.version)


def _own_addresses(version: int) -> set[str]:
    """This machine's addresses as its host name gives them (the rest `_routes_to_itself` finds)."""
    try:
        family = socket.AF_INET if version == 4 else socket.AF_INET6
        return {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, family)}
    except OSError:
        return set()


def _routes_to_itself(address: str) -> bool:
    """Whether the system would send to `address` from `address` itself: one of this machine's own
    (a UDP socket is connected, which sends nothing)."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((address, 9))
            return str(probe.getsockname()[0]).split("%", 1)[0] == address.split("%", 1)[0]
    except OSError:
        return False


def _local_name(host: str) -> bool:
    name = host.lower().rstrip(".")
    return name == "localhost" or name.endswith(".localhost")


def _literal(host: str) -> list[str]:
    try:
        return [str(ipaddress.ip_address(host.split("%", 1)[0]))]
    except ValueError:
        return []


def _refuse_this_machine(target: _Target, start: _Target | None, addresses: list[str]) -> None:
    """A redirect (`start` is where the download began) to this machine, at `addresses` or by name, is
    refused unless it stays at the host and port the download began at."""
    if start is None or (target.host.lower(), target.port) == (start.host.lower(), start.port):
        return
    local = [a for a in addresses if _is_local(a) or _routes_to_itself(a)]
    if _local_name(target.host) or local:
        at = f" ({local[0]})" if local and local[0] != target.host else ""
        raise _Problem(
            f"the server redirected to {printable(target.url)}, which is this machine{at}; pnp fetch follows "
            "redirects to other machines only (give that address itself if you mean it)"
        )


def _addresses(target: _Target, deadline: _Deadline, start: _Target | None) -> list[tuple[int, str]]:
    """The addresses to connect to (family, address); for a redirect, refused when one is this machine's."""
    deadline.left()
    infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    found = [(int(info[0]), str(info[4][0])) for info in infos]
    _refuse_this_machine(target, start, [address for _, address in found])
    return found


class _TimedReader(io.RawIOBase):
    """A socket's reading side whose every read waits at most the time left before the deadline."""

    def __init__(self, sock: socket.socket, deadline: _Deadline):
        super().__init__()
        self._sock, self._deadline = sock, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        self._sock.settimeout(self._deadline.left())
        return self._sock.recv_into(buffer)


class _TimedSocket:
    """What `http.client.HTTPResponse` needs of a socket: a file to read, bounded by the deadline."""

    def __init__(self, sock: socket.socket, deadline: _Deadline):
        self._sock, self._deadline = sock, deadline

    def makefile(self, mode: str = "rb") -> io.BufferedReader:
        return io.BufferedReader(_TimedReader(self._sock, self._deadline))


class _Pinned(http.client.HTTPConnection):
    """A plain connection to one checked address (the name is used in the Host header only)."""

    def __init__(self, target: _Target, family: int, address: str, deadline: _Deadline):
        super().__init__(target.host, target.port, timeout=deadline.left())
        self._to, self._deadline = (family, address), deadline

    def _open(self) -> socket.socket:
        family, address = self._to
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(self._deadline.left())
            sock.connect((address, self.port))
            sock.settimeout(self._deadline.left())  # what follows (a TLS handshake in all) waits no longer
        except BaseException:
            sock.close()
            raise
        return sock

    def connect(self) -> None:
        self.sock = self._open()


class _PinnedTls(_Pinned):
    """A TLS connection to one checked address, the certificate checked against the host's name.
    The handshake as a whole waits at most the socket's timeout (CPython's ssl keeps one deadline
    for it), which `_open` set to the time left."""

    def __init__(self, target: _Target, family: int, address: str, deadline: _Deadline):
        super().__init__(target, family, address, deadline)
        self._tls = ssl.create_default_context()

    def connect(self) -> None:
        self.sock = self._tls.wrap_socket(self._open(), server_hostname=self.host)


def _proxy_for(target: _Target) -> str | None:
    proxy = urllib.request.getproxies().get(target.scheme)
    if not proxy or urllib.request.proxy_bypass(target.host):
        return None
    return proxy


def _connection(
    target: _Target, deadline: _Deadline, start: _Target | None
) -> tuple[http.client.HTTPConnection, str, dict[str, str]]:
    """An open connection for `target`: it, the request target to send (a path, or the whole URL to a
    proxy) and the headers the proxy needs."""
    proxy = _proxy_for(target)
    if proxy is not None:
        return _through(proxy, target, deadline)
    last: OSError | None = None
    for family, address in _addresses(target, deadline, start):
        kind = _PinnedTls if target.scheme == "https" else _Pinned
        conn = kind(target, family, address, deadline)
        try:
            conn.connect()
            return conn, target.path, {}
        except OSError as exc:
            conn.close()
            last = exc
    raise last or OSError(f"no address found for {target.host}")


def _through(
    proxy: str, target: _Target, deadline: _Deadline
) -> tuple[http.client.HTTPConnection, str, dict[str, str]]:
    """A connection through the environment's proxy: a tunnel for https, the whole URL asked for http."""
    parts = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    auth = {}
    if parts.username is not None:
        token = base64.b64encode(
            f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
        ).decode()
        auth = {"Proxy-Authorization": f"Basic {token}"}
    host, port = parts.hostname or "", parts.port or 8080
    if target.scheme == "https":
        tls = http.client.HTTPSConnection(
            host, port, timeout=deadline.left(), context=ssl.create_default_context()
        )
        tls.set_tunnel(target.host, target.port, headers=auth)
        tls.connect()
        return tls, target.path, {}
    conn = http.client.HTTPConnection(host, port, timeout=deadline.left())
    conn.connect()
    return conn, f"http://{target.host_header}{target.path}", auth


def _exchange(
    target: _Target, deadline: _Deadline, max_bytes: int, start: _Target | None = None
) -> tuple[int, str, http.client.HTTPMessage, bytes]:
    """One request: status, reason, headers and (unless a redirect) the whole body."""
    conn, path, extra = _connection(target, deadline, start)
    try:
        headers = {
            "Host": target.host_header,
            "User-Agent": "fairy-pnp (pnp fetch)",
            "Accept-Encoding": "identity",
            "Connection": "close",
            **extra,
        }
        assert conn.sock is not None
        conn.sock.settimeout(deadline.left())
        conn.request("GET", path, headers=headers)
        response = http.client.HTTPResponse(_TimedSocket(conn.sock, deadline), method="GET")  # type: ignore[arg-type]
        try:
            response.begin()
            if response.status in _REDIRECTS:
                return response.status, response.reason, response.headers, b""
            return (
                response.status,
                response.reason,
                response.headers,
                _body(response, deadline, max_bytes, target),
            )
        finally:
            response.close()
    finally:
        conn.close()


def _body(response: http.client.HTTPResponse, deadline: _Deadline, max_bytes: int, target: _Target) -> bytes:
    """The whole body: at most `max_bytes`, as long as its Content-Length says, within the deadline."""
    declared = _content_length(response, target)
    if declared is not None and declared > max_bytes:
        raise _Problem(f"it is larger than {max_bytes // 1_000_000} MB ({declared} bytes)")
    data = bytearray()
    while chunk := response.read1(_READ):
        data += chunk
        if len(data) > max_bytes:
            raise _Problem(f"it is larger than {max_bytes // 1_000_000} MB")
        deadline.left()
    if declared is not None and len(data) != declared:
        raise _Problem(
            f"the server sent {len(data)} of the {declared} bytes it announced (the download was cut short); "
            "try again",
        )
    return bytes(data)


def _content_length(response: http.client.HTTPResponse, target: _Target) -> int | None:
    if response.chunked or response.getheader("Transfer-Encoding"):
        return None
    values = {v.strip() for v in response.headers.get_all("Content-Length") or []}
    if not values:
        return None
    if len(values) > 1 or not next(iter(values)).isdigit():
        raise _Problem("the server's reply has an invalid Content-Length; try again later")
    return int(next(iter(values)))


def _explain(exc: BaseException) -> str:
    """What a network or protocol failure means, and what to do."""
    if isinstance(exc, socket.gaierror):
        return "the host name could not be found; check the address and the network connection"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"the server's certificate is not valid ({printable(exc.verify_message or str(exc))}); check the address"
    if isinstance(exc, ssl.SSLError):
        return f"no secure connection could be made ({printable(exc.reason or str(exc))}); check the address"
    if isinstance(exc, http.client.RemoteDisconnected):
        return "the server closed the connection without replying; try again later"
    if isinstance(exc, ConnectionRefusedError):
        return "the server refused the connection; check the address, or try again later"
    if isinstance(exc, ConnectionError):
        return "the connection was broken; try again later"
    if isinstance(exc, TimeoutError):
        return "the server did not answer in time; try again later, or give a longer --timeout"
    if isinstance(exc, http.client.LineTooLong):
        return "the server's reply has a line that is too long (not a sheet server?); check the address"
    if isinstance(exc, http.client.IncompleteRead):
        return "the reply was cut short; try again"
    if isinstance(exc, http.client.BadStatusLine):
        return "the server did not reply in HTTP; check the address"
    if isinstance(exc, http.client.HTTPException):
        return f"the server's reply is broken ({printable(str(exc))}); check the address"
    if isinstance(exc, OSError):
        return f"{printable(exc.strerror or str(exc))}; check the address and the network connection"
    return f"{type(exc).__name__}: {printable(str(exc))}; check the address"
