"""The HTTP side of the app: security headers on every response, no version strings.

- Every response carries a Content-Security-Policy (scripts only from this server and Dash's own
  inline renderer script, by its hash; no framing by another site), ``X-Content-Type-Options:
  nosniff``, ``Referrer-Policy: no-referrer`` and ``X-Frame-Options: DENY``.
- The page's ``_dash-config`` leaves out the Python, Dash and Plotly versions Dash puts there (the
  renderer reads none of them), its script URLs carry no Dash version (:data:`_FINGERPRINT`), and the
  development server answers as ``Procrustes Lab`` instead of ``Werkzeug/… Python/…`` (gunicorn:
  ``gunicorn.conf.py``).

Plotly's WebGL traces compile their shaders with ``new Function`` (regl), so scripts may ``eval``;
React sets inline styles, so styles may be inline. Nothing else is relaxed.
"""

import html
import json
import re

from dash import Dash
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.serving import WSGIRequestHandler

from settings import settings

__all__ = ["ProcrustesDash", "QuietRequestHandler", "SECURITY_HEADERS", "SERVER_NAME", "content_security_policy",
           "secure"]

# What the servers answer in their ``Server:`` header (the development server here, gunicorn in gunicorn.conf.py).
SERVER_NAME = "Procrustes Lab"

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
# Config keys Dash fills with version strings; the renderer does not read them.
_VERSION_KEYS = ("python_version", "dash_version", "plotly_version", "ddk_version", "dash_version_url")
_CONFIG = re.compile(r'(<script id="_dash-config" type="application/json">)(.*?)(</script>)', re.S)
# Dash names each script ``name.v<dash version>m<file time>.js`` (``dash.fingerprint``) and strips any
# ``v…m<hex>`` part when serving it. The file time alone still changes with every install, so the
# browser's cache never keeps an old file; the version is left out.
_FINGERPRINT = re.compile(r'(src="[^"]*/_dash-component-suites/[^"]*?\.v)[\w-]+?(m[0-9a-fA-F]+\.)')
HIDDEN_VERSION = "0"
# Dash's own favicon is linked as ``_favicon.ico?v=<dash version>``; the icon never changes.
_FAVICON_VERSION = re.compile(r"(_favicon\.ico)\?v=[^\"]*")


class ProcrustesDash(Dash):
    """Dash, whose page states no software versions (neither in its config nor in its script URLs).

    What a callback request may carry is the page's business (:func:`components.entry.guard`, wired by
    ``app.create_app``), not this package's: serving imports no page piece.
    """

    def interpolate_index(self, **kwargs):
        def without_versions(match):
            config = json.loads(html.unescape(match.group(2)))
            for key in _VERSION_KEYS:
                config.pop(key, None)
            return match.group(1) + html.escape(json.dumps(config), quote=False) + match.group(3)

        kwargs["config"] = _CONFIG.sub(without_versions, kwargs["config"])
        kwargs["scripts"] = _FINGERPRINT.sub(rf"\g<1>{HIDDEN_VERSION}\g<2>", kwargs["scripts"])
        kwargs["favicon"] = _FAVICON_VERSION.sub(r"\g<1>", kwargs["favicon"])
        return super().interpolate_index(**kwargs)


class QuietRequestHandler(WSGIRequestHandler):
    """The development server's request handler, without its software and Python versions."""

    def version_string(self):
        return SERVER_NAME


def content_security_policy(app):
    """The page's Content-Security-Policy: this origin only, Dash's inline renderer script by hash."""
    scripts = " ".join(["'self'", "'unsafe-eval'", *app.csp_hashes()])
    return ("default-src 'self'; "
            f"script-src {scripts}; "
            "style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; "
            "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


def secure(app):
    """Add the security headers to every response of ``app``'s server; read client addresses through its proxies.

    Uploads are charged to the client's address (:func:`components.files.client_address`); behind a
    proxy that address is the proxy's for everyone, unless the server reads ``X-Forwarded-For`` through
    the proxies it is told of (``PROCRUSTES_TRUSTED_PROXIES``). Never set it without such a proxy: any
    client could then claim any address.
    """
    policy = content_security_policy(app)
    proxies = settings().trusted_proxies
    if proxies:
        app.server.wsgi_app = ProxyFix(app.server.wsgi_app, x_for=proxies)

    @app.server.after_request
    def add_headers(response):
        response.headers.setdefault("Content-Security-Policy", policy)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    return app
