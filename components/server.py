"""The HTTP side of the app: security headers on every response, no version strings.

- Every response carries a Content-Security-Policy (scripts only from this server and Dash's own
  inline renderer script, by its hash; no framing by another site), ``X-Content-Type-Options:
  nosniff``, ``Referrer-Policy: no-referrer`` and ``X-Frame-Options: DENY``.
- The page's ``_dash-config`` leaves out the Python, Dash and Plotly versions Dash puts there (the
  renderer reads none of them), and the development server answers as ``Procrustes Lab`` instead of
  ``Werkzeug/… Python/…``.

Plotly's WebGL traces compile their shaders with ``new Function`` (regl), so scripts may ``eval``;
React sets inline styles, so styles may be inline. Nothing else is relaxed.
"""

import html
import json
import re

from dash import Dash
from werkzeug.serving import WSGIRequestHandler

from .entry import guard, report_failure

__all__ = ["ProcrustesDash", "QuietRequestHandler", "SECURITY_HEADERS", "content_security_policy", "secure"]

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
# Config keys Dash fills with version strings; the renderer does not read them.
_VERSION_KEYS = ("python_version", "dash_version", "plotly_version", "ddk_version", "dash_version_url")
_CONFIG = re.compile(r'(<script id="_dash-config" type="application/json">)(.*?)(</script>)', re.S)


class ProcrustesDash(Dash):
    """Dash, whose page states no software versions, and whose callbacks are entered only by requests that
    pass :func:`components.entry.guard`, an unforeseen failure logged and told on the page
    (:func:`components.entry.report_failure`) instead of answered 500."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, on_error=report_failure, **kwargs)
        guard(self)

    def interpolate_index(self, **kwargs):
        def without_versions(match):
            config = json.loads(html.unescape(match.group(2)))
            for key in _VERSION_KEYS:
                config.pop(key, None)
            return match.group(1) + html.escape(json.dumps(config), quote=False) + match.group(3)

        kwargs["config"] = _CONFIG.sub(without_versions, kwargs["config"])
        return super().interpolate_index(**kwargs)


class QuietRequestHandler(WSGIRequestHandler):
    """The development server's request handler, without its software and Python versions."""

    def version_string(self):
        return "Procrustes Lab"


def content_security_policy(app):
    """The page's Content-Security-Policy: this origin only, Dash's inline renderer script by hash."""
    scripts = " ".join(["'self'", "'unsafe-eval'", *app.csp_hashes()])
    return ("default-src 'self'; "
            f"script-src {scripts}; "
            "style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; "
            "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


def secure(app):
    """Add the security headers to every response of ``app``'s server."""
    policy = content_security_policy(app)

    @app.server.after_request
    def add_headers(response):
        response.headers.setdefault("Content-Security-Policy", policy)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    return app
